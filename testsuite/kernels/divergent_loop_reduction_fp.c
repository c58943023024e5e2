/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 */
/* divergent_loop_reduction_fp: float reductions (+ on double, min on
 * double) updated inside a divergent inner loop with a per-lane trip count
 * and under a divergent if: reassociation is allowed (relative 1e-12);
 * the per-lane results stored to memory are exact. */
#include "harness.h"

void red(int n, const double *x, const int32_t *len, double *y, double *sum_out, double *min_out)
{
    double s = 0.0, mn = 1e300;
#pragma omp simd reduction(+ : s) reduction(min : mn)
    for (int i = 0; i < n; i++) {
        double v = x[i];
        for (int32_t k = 0; k < len[i]; k++) {
            v = v * 0.75 + 0.125;
            s += v;
        }
        if (v < 0.3)
            mn = v < mn ? v : mn;
        y[i] = v;
    }
    *sum_out = s;
    *min_out = mn;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int32_t len[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_f64(x, n, -1.0, 1.0);
            for (int i = 0; i < n; i++)
                len[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 25) : 0;
            s2s_fill_f64(y, S2S_CAP, 2.0, 2.0);
            double s = 0.0, mn = 0.0;
            red(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, len, n * sizeof len[0]), y, &s, &mn);
            S2S_OUT("y", y, n + S2S_GUARD);
            s2s_out_red("sum", s);
            s2s_out_f64("min", mn);
        }
    }
    return 0;
}
