/* s2s-test: vectorized=1 tolerance=exact */
/* decreasing_loop: i runs from n-1 down to 0; each lane's output depends on
 * its own i so a wrong lane order shows. */
#include "harness.h"

void down(int n, const double *x, double *y, int *pos)
{
#pragma omp simd
    for (int i = n - 1; i >= 0; i--) {
        y[i] = x[i] * 2.0 + (double)i;
        pos[n - 1 - i] = i;
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int pos[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(y, S2S_CAP, 9.0, 10.0);
        s2s_fill_i32(pos, S2S_CAP, -9, -1);
        down(n, s2s_tail(0, x, n * sizeof x[0]), y, pos);
        S2S_OUT("y", y, n + S2S_GUARD);
        S2S_OUT("pos", pos, n + S2S_GUARD);
    }
    return 0;
}
