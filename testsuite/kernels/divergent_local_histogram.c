/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_local_histogram: a small histogram per iteration in a local
 * array (8 bins, zeroed every iteration), filled with data-dependent bin
 * indices over a per-lane number of bytes, then the mode (the first bin
 * with the largest count) found with a divergent compare. */
#include "harness.h"

#define ROW 20

void mode(int n, const uint8_t *data, const int32_t *len, int32_t *best, int32_t *bestcount)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t h[8];
        for (int b = 0; b < 8; b++)
            h[b] = 0;
        for (int32_t k = 0; k < len[i]; k++)
            h[data[i * ROW + k] & 7]++;
        int32_t bi = 0;
        for (int b = 1; b < 8; b++)
            if (h[b] > h[bi])
                bi = b;
        best[i] = bi;
        bestcount[i] = h[bi];
    }
}

int main(int argc, char **argv)
{
    static uint8_t data[S2S_CAP * ROW];
    static int32_t len[S2S_CAP], best[S2S_CAP], bc[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_u8(data, n * ROW);
            for (int i = 0; i < n; i++) {
                len[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(0, ROW) : 0;
                if (i % 3 == 0)                       /* all in one bin */
                    for (int k = 0; k < ROW; k++) data[i * ROW + k] = (uint8_t)(8 * k + 5);
            }
            s2s_fill_i32(best, S2S_CAP, -1, -1);
            s2s_fill_i32(bc, S2S_CAP, -1, -1);
            mode(n, s2s_tail(0, data, (size_t)n * ROW), s2s_tail(1, len, n * sizeof len[0]), best, bc);
            S2S_OUT("best", best, n + S2S_GUARD);
            S2S_OUT("count", bc, n + S2S_GUARD);
        }
    }
    return 0;
}
