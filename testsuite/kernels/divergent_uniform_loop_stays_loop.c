/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_uniform_loop_stays_loop: a uniform loop with a long trip count
 * (a parameter up to 300) under a divergent if: it must stay one loop with
 * a scalar counter, run under the if's mask, and its result must only
 * reach the lanes that took the branch.  The loop reads a table with the
 * uniform index and accumulates into a per-lane value. */
#include "harness.h"

void poly(int n, int m, const int32_t *tab, const int32_t *x, int32_t *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        if (v & 1) {
            uint32_t h = (uint32_t)v;
            for (int k = 0; k < m; k++)
                h = h * 31u + (uint32_t)tab[k];
            v = (int32_t)(h >> 1);
        }
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static int32_t tab[300], x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int m = 0; m <= 300; m += 150) {
            for (int p = 0; p < S2S_NPATTERNS; p++) {
                s2s_fill_i32(tab, 300, -1000, 1000);
                for (int i = 0; i < n; i++)
                    x[i] = (int32_t)s2s_int(0, 100000) * 2 + (s2s_pattern(p, i, n) ? 1 : 0);
                s2s_fill_i32(y, S2S_CAP, 5, 5);
                poly(n, m, tab, s2s_tail(0, x, n * sizeof x[0]), y);
                S2S_OUT("y", y, n + S2S_GUARD);
            }
        }
    }
    return 0;
}
