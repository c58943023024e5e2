/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_loop_reduction_outer: reductions of the simd loop (+ on int64,
 * max on int32) updated inside a divergent inner loop and under a
 * divergent break: each lane contributes a per-lane number of times. */
#include "harness.h"

void red(int n, const int32_t *x, const int32_t *len, int64_t *total, int32_t *best)
{
    int64_t t = 0;
    int32_t b = INT32_MIN;
#pragma omp simd reduction(+ : t) reduction(max : b)
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        for (int32_t k = 0; k < len[i]; k++) {
            v = (v * 5 + 3) % 1001;
            if (v == 0)
                break;
            t += v;
            if (v > b)
                b = v;
        }
    }
    *total = t;
    *best = b;
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP], len[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                x[i] = (int32_t)s2s_int(-1000, 1000);
                len[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 40) : 0;
            }
            int64_t total = 11;
            int32_t best = 11;
            red(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, len, n * sizeof len[0]), &total, &best);
            s2s_out_i64("total", total);
            s2s_out_i64("best", best);
        }
    }
    return 0;
}
