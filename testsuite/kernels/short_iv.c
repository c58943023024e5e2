/* s2s-test: vectorized=1 tolerance=exact */
/* short_iv: a short induction variable (promoted to int in every use). */
#include "harness.h"

void short_loop(short n, const short *x, int *y)
{
#pragma omp simd
    for (short i = 0; i < n; i++)
        y[i] = x[i] * i + 1;
}

int main(int argc, char **argv)
{
    static short x[S2S_CAP];
    static int y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i16(x, n, -32768, 32767);
        s2s_fill_i32(y, S2S_CAP, 0, 0);
        short_loop((short)n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
