/* s2s-test: vectorized=? tolerance=exact */
/* declare_simd_callee: a `declare simd` function called from a simd loop.
 * Correctness only for now: vector variants are a later capability, but
 * the pragma must be accepted and the program must still be right. */
#include "harness.h"

#pragma omp declare simd uniform(s) notinbranch
double affine(double x, double s)
{
    return x * s + 1.0;
}

void call_variant(int n, const double *x, double *y, double s)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = affine(x[i], s) - 0.5;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -2.0, 2.0);
        s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
        call_variant(n, s2s_tail(0, x, n * sizeof x[0]), y, 0.75);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
