/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_strlen_hash: mixed widths in a divergent loop: per-lane
 * NUL-terminated byte strings (rows of different lengths, the last row
 * ends at a PROT_NONE page right after its NUL), scanned byte by byte with
 * a 64-bit FNV hash; the length is live out as int32, the hash as uint64. */
#include "harness.h"

#define ROW 24

void hash_rows(int n, const uint8_t *s, int32_t *len, uint64_t *h_out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        const uint8_t *p = s + i * ROW;
        uint64_t h = 0xcbf29ce484222325ull;
        int32_t k = 0;
        while (p[k] != 0) {
            h = (h ^ p[k]) * 0x100000001b3ull;
            k++;
        }
        len[i] = k;
        h_out[i] = h;
    }
}

int main(int argc, char **argv)
{
    static uint8_t s[S2S_CAP * ROW];
    static int32_t len[S2S_CAP];
    static uint64_t h[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                int l = s2s_pattern(p, i, n) ? (int)s2s_int(ROW / 2, ROW - 1) : (int)s2s_int(0, 2);
                for (int k = 0; k < ROW; k++)
                    s[i * ROW + k] = k < l ? (uint8_t)s2s_int(1, 255) : 0;
            }
            /* the last string's NUL is the last byte before the guard page */
            size_t bytes = n ? (size_t)(n - 1) * ROW + strlen((const char *)s + (size_t)(n - 1) * ROW) + 1 : 0;
            s2s_fill_i32(len, S2S_CAP, -1, -1);
            s2s_fill_u64(h, S2S_CAP);
            hash_rows(n, s2s_tail(0, s, bytes), len, h);
            S2S_OUT("len", len, n + S2S_GUARD);
            S2S_OUT("h", h, n + S2S_GUARD);
        }
    }
    return 0;
}
