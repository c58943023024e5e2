/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_local_insertion_sort: each iteration copies a per-lane number
 * (4..8) of values into a local array and insertion-sorts it: the inner
 * while loop's trip count depends on the data, and the local array is
 * read and written at per-lane indices.  Outputs the sorted row (padded
 * with the marker) and the number of moves. */
#include "harness.h"

#define K 8

void sort_rows(int n, const int32_t *x, const int32_t *len, int32_t *out, int32_t *moves)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t a[K];
        int32_t m = len[i], mv = 0;
        for (int32_t k = 0; k < m; k++) {
            int32_t v = x[i * K + k];
            int32_t j = k;
            while (j > 0 && a[j - 1] > v) {
                a[j] = a[j - 1];
                j--;
                mv++;
            }
            a[j] = v;
        }
        for (int32_t k = 0; k < K; k++)
            out[i * K + k] = k < m ? a[k] : -99;
        moves[i] = mv;
    }
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP * K], len[S2S_CAP], out[S2S_CAP * K], moves[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                len[i] = (int32_t)s2s_int(4, K);
                int desc = s2s_pattern(p, i, n);   /* descending rows: most moves */
                for (int k = 0; k < K; k++)
                    x[i * K + k] = desc ? 100 - k * 3 : (int32_t)s2s_int(-20, 20);
            }
            s2s_fill_i32(out, S2S_CAP * K, 7, 7);
            s2s_fill_i32(moves, S2S_CAP, -1, -1);
            sort_rows(n, s2s_tail(0, x, (size_t)n * K * sizeof x[0]), s2s_tail(1, len, n * sizeof len[0]),
                      out, moves);
            S2S_OUT("out", out, (n + S2S_GUARD) * K);
            S2S_OUT("moves", moves, n + S2S_GUARD);
        }
    }
    return 0;
}
