/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_ternary_calls: `c ? f(x) : g(x)` with two functions that have
 * no vector variant and count their calls per iteration: only the lanes
 * of each arm may call it (a serialized call under the arm's mask). */
#include "harness.h"

double fa(double v, int64_t *count)
{
    count[0]++;
    return v * v;
}

double fb(double v, int64_t *count)
{
    count[1]++;
    return -v;
}

void pick(int n, const double *x, double *y, int64_t *counts)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = x[i] > 0.0 ? fa(x[i], &counts[2 * i]) : fb(x[i], &counts[2 * i]);
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int64_t counts[2 * S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? s2s_f64(0.5, 4.0) : -s2s_f64(0.0, 4.0);
            s2s_fill_f64(y, S2S_CAP, 2.0, 2.0);
            s2s_fill_i64(counts, 2 * S2S_CAP, 0, 0);
            pick(n, s2s_tail(0, x, n * sizeof x[0]), y, counts);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("counts", counts, 2 * (n + S2S_GUARD));
        }
    }
    return 0;
}
