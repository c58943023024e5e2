/* s2s-test: vectorized=? tolerance=exact */
/* divergent_continue: continue on a data-dependent condition skips the
 * store for some lanes.  Correctness only (see divergent_if_guarded). */
#include "harness.h"

void skip_neg(int n, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (x[i] < 0.0f)
            continue;
        y[i] = x[i] * 10.0f;
    }
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) x[i] = s2s_pattern(p, i, n) ? (float)s2s_f64(0, 5) : -1.0f;
            s2s_fill_f32(y, S2S_CAP, 3.0, 3.0);
            skip_neg(n, s2s_tail(0, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
