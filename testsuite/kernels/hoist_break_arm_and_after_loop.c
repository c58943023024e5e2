/* s2s-test: vectorized=1 tolerance=exact */
/* hoist_break_arm_and_after_loop: `i * 3` is computed in the break arm of
 * a loop with a uniform trip count and a divergent break, and again after
 * the loop.  The two copies' nearest common dominator is the loop's
 * header; hoisting one copy there put a value defined in the loop to use
 * after it without a loop-closed phi, and the loop stayed scalar with an
 * internal error (fuzz seed 20606955). */
#include "harness.h"

void find(int n, int m, const int32_t *key, const int32_t *tab, int32_t *hit, int32_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t h = -1;
        for (int j = 0; j < m; j++) {
            if (tab[j] > key[i]) {
                h = tab[i * 3];
                break;
            }
        }
        hit[i] = h;
        out[i] = tab[i * 3 + 1];
    }
}

int main(int argc, char **argv)
{
    static int32_t key[S2S_CAP], tab[S2S_CAP * 3 + 2], hit[S2S_CAP], out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_i32(tab, S2S_CAP * 3 + 2, -50, 50);
            for (int i = 0; i < n; i++)
                key[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(-60, 60) : 60;
            s2s_fill_i32(hit, S2S_CAP, 4, 4);
            s2s_fill_i32(out, S2S_CAP, 4, 4);
            find(n, (int)s2s_int(0, 40), s2s_tail(0, key, n * sizeof key[0]), tab, hit, out);
            S2S_OUT("hit", hit, n + S2S_GUARD);
            S2S_OUT("out", out, n + S2S_GUARD);
        }
    }
    return 0;
}
