/* s2s-test: vectorized=1 tolerance=exact */
/* iv_le_bound: for (i = 1; i <= n; i++), an inclusive bound. */
#include "harness.h"

void incl(int n, const double *x, double *y)
{
#pragma omp simd
    for (int i = 1; i <= n; i++)
        y[i - 1] = x[i - 1] / (double)i;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -7.0, 7.0);
        s2s_fill_f64(y, S2S_CAP, 0.0, 1.0);
        incl(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
