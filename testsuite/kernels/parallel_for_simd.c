/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 cflags="-fopenmp" grep="^\s*#\s*pragma\s+omp\s+parallel\s+for\b" */
/* parallel_for_simd: `parallel for simd` with a reduction, built with
 * -fopenmp so threads split the vector loop; the worksharing pragma must
 * stay on the vector loop. */
#include "harness.h"

double pfs(int n, const double *x, double *y)
{
    double s = 0.0;
#pragma omp parallel for simd reduction(+:s) num_threads(2)
    for (int i = 0; i < n; i++) {
        y[i] = x[i] * x[i];
        s += y[i];
    }
    return s;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -3.0, 3.0);
        s2s_fill_f64(y, S2S_CAP, -1.0, 0.0);
        s2s_out_red("sum", pfs(n, s2s_tail(0, x, n * sizeof x[0]), y));
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
