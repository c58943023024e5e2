/* s2s-test: vectorized=1 regions=1 tolerance=exact */
/* nested_simd_pragmas: a simd loop nested in a simd loop; the outer one is
 * vectorized and the inner pragma has no effect there (issue 10, item 7). */
#include "harness.h"

void rows(int n, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double s = 0.0;
#pragma omp simd
        for (int j = 0; j < 4; j++)
            s += x[i] * (double)(j + 1);
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(y, S2S_CAP, 7.0, 8.0);
        rows(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
