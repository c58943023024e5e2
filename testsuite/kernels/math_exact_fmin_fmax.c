/* s2s-test: vectorized=1 tolerance=exact */
/* math_exact_fmin_fmax: fmin/fmax return the other operand when one is NaN
 * (unlike the raw minpd/maxpd instructions).  Data has NaNs in either
 * operand and in both, but no +0/-0 ties (their order is unspecified). */
#include "harness.h"

void clamp(int n, const double *a, const double *b, double *lo, double *hi)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        lo[i] = fmin(a[i], b[i]);
        hi[i] = fmax(a[i], b[i]);
    }
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], b[S2S_CAP], lo[S2S_CAP], hi[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(a, n, -5.0, 5.0);
        s2s_fill_f64(b, n, -5.0, 5.0);
        for (int i = 0; i < n; i++) {
            if (i % 5 == 1) a[i] = NAN;
            if (i % 7 == 2) b[i] = NAN;
            if (i % 11 == 3) b[i] = -INFINITY;
        }
        s2s_fill_f64(lo, S2S_CAP, 1.0, 2.0);
        s2s_fill_f64(hi, S2S_CAP, 1.0, 2.0);
        clamp(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), lo, hi);
        S2S_OUT_FP("lo", lo, n + S2S_GUARD);
        S2S_OUT_FP("hi", hi, n + S2S_GUARD);
    }
    return 0;
}
