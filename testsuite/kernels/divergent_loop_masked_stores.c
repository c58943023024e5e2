/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_loop_masked_stores: a divergent while loop that stores on every
 * trip (the decimal digits of each number into its own row, least
 * significant first) and a divergent loop that reads its row back: the
 * stores inside the loop must be masked by the live mask, so a lane that
 * left keeps its row untouched (rows are pre-filled with a marker). */
#include "harness.h"

#define ROW 12

void to_digits(int n, const uint32_t *x, uint8_t *dig, int32_t *len, uint32_t *back)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t v = x[i];
        int32_t d = 0;
        while (v != 0u) {
            dig[i * ROW + d] = (uint8_t)(v % 10u);
            v /= 10u;
            d++;
        }
        len[i] = d;
        uint32_t r = 0;
        int32_t k = d;
        while (k > 0) {
            k--;
            r = r * 10u + dig[i * ROW + k];
        }
        back[i] = r;
    }
}

int main(int argc, char **argv)
{
    static uint32_t x[S2S_CAP], back[S2S_CAP];
    static uint8_t dig[S2S_CAP * ROW];
    static int32_t len[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? s2s_u32() >> (s2s_u32() % 32u) : 0u;
            memset(dig, 0xEE, sizeof dig);
            s2s_fill_i32(len, S2S_CAP, -1, -1);
            s2s_fill_u32(back, S2S_CAP);
            to_digits(n, s2s_tail(0, x, n * sizeof x[0]), dig, len, back);
            S2S_OUT("dig", dig, (n + S2S_GUARD) * ROW);
            S2S_OUT("len", len, n + S2S_GUARD);
            S2S_OUT("back", back, n + S2S_GUARD);
        }
    }
    return 0;
}
