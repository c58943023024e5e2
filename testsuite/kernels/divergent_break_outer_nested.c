/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_break_outer_nested: a hit in the inner of two nested divergent
 * loops breaks out of both (a flag tested after the inner loop breaks the
 * outer); the row and column of the first hit and the work done before it
 * are live out.  Lanes that find nothing run both loops to the end. */
#include "harness.h"

#define DIM 8

void find2d(int n, const int16_t *grid, const int16_t *key, int32_t *where, int32_t *work)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t at = -1, w = 0;
        int32_t r = 0;
        while (r < DIM) {
            int hit = 0;
            for (int32_t c = 0; c < DIM; c++) {
                w++;
                if (grid[i * DIM * DIM + r * DIM + c] == key[i]) {
                    at = r * 100 + c;
                    hit = 1;
                    break;
                }
            }
            if (hit)
                break;
            r++;
        }
        where[i] = at;
        work[i] = w + r * 1000;
    }
}

int main(int argc, char **argv)
{
    static int16_t grid[S2S_CAP * DIM * DIM], key[S2S_CAP];
    static int32_t where[S2S_CAP], work[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_i16(grid, n * DIM * DIM, 0, 999);
            for (int i = 0; i < n; i++)
                key[i] = s2s_pattern(p, i, n) ? grid[i * DIM * DIM + s2s_int(0, DIM * DIM - 1)] : -5;
            s2s_fill_i32(where, S2S_CAP, 3, 3);
            s2s_fill_i32(work, S2S_CAP, 4, 4);
            find2d(n, s2s_tail(0, grid, (size_t)n * DIM * DIM * sizeof grid[0]),
                   s2s_tail(1, key, n * sizeof key[0]), where, work);
            S2S_OUT("where", where, n + S2S_GUARD);
            S2S_OUT("work", work, n + S2S_GUARD);
        }
    }
    return 0;
}
