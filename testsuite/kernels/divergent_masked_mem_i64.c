/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_masked_mem_i64: loads and stores of int64_t under divergent
 * conditions: a contiguous load of x that is only valid on the active
 * lanes (x holds m elements and ends at a PROT_NONE page, the condition
 * is false from m on), a gather through an index that is garbage on the
 * inactive lanes, a masked contiguous store, and a masked scatter through
 * a permutation (race-free: distinct targets). */
#include "harness.h"

void mem_i64(int n, const int32_t *c, const int64_t *x, const int64_t *g, const int32_t *idx,
               const int32_t *perm, int64_t *y, int64_t *z)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (c[i] > 0) {
            y[i] = (int64_t)((uint64_t)x[i] * 3u + (uint64_t)g[idx[i]]);
            if (c[i] > 1)
                z[perm[i]] = x[i] >> 7;
        }
    }
}

int main(int argc, char **argv)
{
    static int32_t c[S2S_CAP], idx[S2S_CAP], perm[S2S_CAP];
    static int64_t x[S2S_CAP], g[S2S_CAP], y[S2S_CAP], z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            int m = p & 1 ? n : n - n / 4;
            for (int i = 0; i < n; i++) {
                int on = i < m && s2s_pattern(p, i, n);
                c[i] = on ? (int32_t)s2s_int(1, 2) : (int32_t)s2s_int(-3, 0);
                idx[i] = on ? (int32_t)s2s_int(0, n - 1) : (int32_t)s2s_int(1 << 28, 1 << 30);
                perm[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {   /* shuffle */
                int j = (int)s2s_int(0, i), t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            for (int i = 0; i < n; i++) {
                x[i] = (int64_t)s2s_u64();
                g[i] = (int64_t)s2s_u64();
            }
            memset(y, 0xA5, sizeof y);
            memset(z, 0x5A, sizeof z);
            mem_i64(n, s2s_tail(0, c, n * sizeof c[0]), s2s_tail(1, x, m * sizeof x[0]),
                   s2s_tail(2, g, n * sizeof g[0]), s2s_tail(3, idx, n * sizeof idx[0]),
                   s2s_tail(4, perm, n * sizeof perm[0]), y, z);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("z", z, n + S2S_GUARD);
        }
    }
    return 0;
}
