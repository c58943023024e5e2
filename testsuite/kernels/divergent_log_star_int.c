/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_log_star_int: iterated integer logarithm with two nested
 * divergent while loops: the inner one computes floor(log2 v) by shifting
 * (per-lane trip count up to 63), the outer one repeats until v <= 1. */
#include "harness.h"

void ilog_star(int n, const uint64_t *x, int32_t *k_out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint64_t v = x[i];
        int32_t k = 0;
        while (v > 1u) {
            uint64_t b = 0;
            while (v > 1u) {
                v >>= 1;
                b++;
            }
            v = b;
            k++;
        }
        k_out[i] = k;
    }
}

int main(int argc, char **argv)
{
    static uint64_t x[S2S_CAP];
    static int32_t k[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? s2s_u64() >> (s2s_u32() % 64u)
                                            : (uint64_t)s2s_int(0, 1);
            s2s_fill_i32(k, S2S_CAP, -1, -1);
            ilog_star(n, s2s_tail(0, x, n * sizeof x[0]), k);
            S2S_OUT("k", k, n + S2S_GUARD);
        }
    }
    return 0;
}
