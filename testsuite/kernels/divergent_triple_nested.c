/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_triple_nested: three nested loops with per-lane bounds at
 * every level (the inner bounds depend on the outer counters), a break in
 * the middle one and a continue in the innermost; counts and a checksum
 * are live out of all three. */
#include "harness.h"

void tri(int n, const int32_t *a, const int32_t *b, int32_t *cnt, uint32_t *chk)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t c = 0;
        uint32_t h = 17u;
        for (int32_t p = 0; p < a[i]; p++) {
            for (int32_t q = p; q < b[i]; q++) {
                if (q - p > 4)
                    break;
                for (int32_t r = 0; r < (p ^ q); r++) {
                    if ((r & 3) == 1)
                        continue;
                    c++;
                    h = h * 33u + (uint32_t)(p * 100 + q * 10 + r);
                }
            }
        }
        cnt[i] = c;
        chk[i] = h;
    }
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], b[S2S_CAP], cnt[S2S_CAP];
    static uint32_t chk[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                a[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(3, 9) : (int32_t)s2s_int(-1, 1);
                b[i] = (int32_t)s2s_int(0, 12);
            }
            s2s_fill_i32(cnt, S2S_CAP, -1, -1);
            s2s_fill_u32(chk, S2S_CAP);
            tri(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), cnt, chk);
            S2S_OUT("cnt", cnt, n + S2S_GUARD);
            S2S_OUT("chk", chk, n + S2S_GUARD);
        }
    }
    return 0;
}
