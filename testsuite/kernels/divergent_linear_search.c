/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_linear_search: each iteration searches its own row of a table
 * (per-lane length) for a key; a for loop with two exits (found: break
 * with the index, or the end of the row: -1), the result live out of
 * whichever exit the lane took. */
#include "harness.h"

#define ROW 24

void search(int n, const int32_t *table, const int32_t *len, const int32_t *key, int32_t *pos)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t found = -1;
        for (int32_t k = 0; k < len[i]; k++) {
            if (table[i * ROW + k] == key[i]) {
                found = k;
                break;
            }
        }
        pos[i] = found;
    }
}

int main(int argc, char **argv)
{
    static int32_t table[S2S_CAP * ROW], len[S2S_CAP], key[S2S_CAP], pos[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                len[i] = (int32_t)s2s_int(0, ROW);
                for (int k = 0; k < ROW; k++) table[i * ROW + k] = (int32_t)s2s_int(0, 50);
                key[i] = 100;                       /* not present */
                if (s2s_pattern(p, i, n) && len[i] > 0)
                    key[i] = table[i * ROW + s2s_int(0, len[i] - 1)];
            }
            s2s_fill_i32(pos, S2S_CAP, 7, 7);
            search(n, s2s_tail(0, table, (size_t)n * ROW * sizeof table[0]),
                   s2s_tail(1, len, n * sizeof len[0]), s2s_tail(2, key, n * sizeof key[0]), pos);
            S2S_OUT("pos", pos, n + S2S_GUARD);
        }
    }
    return 0;
}
