/* s2s-test: vectorized=1 tolerance=exact */
/* lastprivate: t takes the value of the sequentially last iteration; for
 * n == 0 it keeps its value from before the loop. */
#include "harness.h"

double last_t(int n, const double *x, double *y)
{
    double t = -42.0;
#pragma omp simd lastprivate(t)
    for (int i = 0; i < n; i++) {
        t = x[i] * 3.0 + i;
        y[i] = t - 1.0;
    }
    return t;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(y, S2S_CAP, 0.0, 1.0);
        double t = last_t(n, s2s_tail(0, x, n * sizeof x[0]), y);
        if (n > 0) s2s_out_f64("t", t);   /* t is unspecified by OpenMP when n == 0 */
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
