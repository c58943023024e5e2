/* s2s-test: vectorized=1 tolerance=exact */
/* simdlen: simdlen(8) on doubles (more than one AVX2 register); results
 * must not depend on the chosen length. */
#include "harness.h"

void scale(int n, const double *x, double *y, double s)
{
#pragma omp simd simdlen(8)
    for (int i = 0; i < n; i++)
        y[i] = x[i] * s - y[i];
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(y, S2S_CAP, -1.0, 1.0);
        scale(n, s2s_tail(0, x, n * sizeof x[0]), y, 3.0);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
