/* s2s-test: vectorized=1 tolerance=exact */
/* math_exact_fabs: fabs clears the sign bit, including of -0.0 and -inf. */
#include "harness.h"

void absdiff(int n, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = fabs(x[i]) - fabs(x[i] * 0.5);
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -10.0, 10.0);
        if (n > 0) x[0] = -0.0;
        if (n > 4) x[4] = -INFINITY;
        s2s_fill_f64(y, S2S_CAP, 1.0, 2.0);
        absdiff(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
