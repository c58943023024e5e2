/* s2s-test: vectorized=1 tolerance=exact */
/* step_neg2_loop: i -= 2 from the top, odd and even n. */
#include "harness.h"

void down2(int n, const int *x, int *y)
{
#pragma omp simd
    for (int i = n - 1; i >= 0; i -= 2)
        y[i] = x[i] * 5 - i;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -1000, 1000);
        s2s_fill_i32(y, S2S_CAP, 7, 7);
        down2(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
