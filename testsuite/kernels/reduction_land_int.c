/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_land_int: reduction(&&) over lane patterns (all, none, only the
 * first, only the last, alternating, random true); the result is 0 or 1. */
#include "harness.h"

int all_positive(int n, const double *x)
{
    int ok = 1;
#pragma omp simd reduction(&&:ok)
    for (int i = 0; i < n; i++)
        ok = ok && x[i] > 0.0;
    return ok;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) x[i] = s2s_pattern(p, i, n) ? 1.0 + i : -1.0 - i;
            s2s_out_i64("all", all_positive(n, s2s_tail(0, x, n * sizeof x[0])));
            for (int i = 0; i < n; i++) x[i] = s2s_pattern(p, i, n) ? -2.0 : 3.0;
            s2s_out_i64("all_inv", all_positive(n, s2s_tail(0, x, n * sizeof x[0])));
        }
    }
    return 0;
}
