/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 width="avx2:4 avx512:8 neon:2" */
/* dot_reduction_f64: a dot product with reduction(+).  The vector code sums
 * per-lane partials, i.e. reassociates the sum, which OpenMP allows; the
 * products are positive so the relative error stays near n*eps. */
#include "harness.h"

double dot_f64(int n, const double *x, const double *y)
{
    double s = 0.0;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, 0.5, 2.0);
        s2s_fill_f64(y, n, 0.25, 3.0);
        s2s_out_red("dot", dot_f64(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, y, n * sizeof y[0])));
        S2S_OUT("x", x, n);
    }
    return 0;
}
