/* s2s-test: vectorized=1 tolerance=exact */
/* math_exact_fma: fma(a,b,c) is one rounding; with -ffp-contract=off the
 * plain a*b+c next to it must stay two roundings. */
#include "harness.h"

void fmas(int n, const double *a, const double *b, const double *c, double *y, double *z)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        y[i] = fma(a[i], b[i], c[i]);
        z[i] = a[i] * b[i] + c[i];
    }
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], b[S2S_CAP], c[S2S_CAP], y[S2S_CAP], z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(a, n, -1.0, 1.0);
        for (int i = 0; i < n; i++) {
            b[i] = 1.0 / a[i];
            c[i] = -1.0;              /* a*(1/a) - 1: exposes the fused rounding */
        }
        s2s_fill_f64(y, S2S_CAP, 1.0, 2.0);
        s2s_fill_f64(z, S2S_CAP, 1.0, 2.0);
        fmas(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]),
             s2s_tail(2, c, n * sizeof c[0]), y, z);
        S2S_OUT("fma", y, n + S2S_GUARD);
        S2S_OUT("mul_add", z, n + S2S_GUARD);
    }
    return 0;
}
