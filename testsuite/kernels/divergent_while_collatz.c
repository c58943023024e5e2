/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_while_collatz: a while loop with a per-lane trip count (the
 * number of Collatz steps to reach 1); the step count and the largest value
 * seen are live out of the divergent loop.  Inputs 0 and 1 take no step. */
#include "harness.h"

void collatz(int n, const uint32_t *x, int32_t *steps, uint32_t *peak)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t v = x[i];
        uint32_t top = v;
        int32_t s = 0;
        while (v > 1u) {
            v = (v & 1u) ? 3u * v + 1u : v >> 1;
            if (v > top)
                top = v;
            s++;
        }
        steps[i] = s;
        peak[i] = top;
    }
}

int main(int argc, char **argv)
{
    static uint32_t x[S2S_CAP], peak[S2S_CAP];
    static int32_t steps[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            /* pattern lanes run long, the others take 0 or 1 or few steps */
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (uint32_t)s2s_int(2, 100000)
                                            : (uint32_t)s2s_int(0, 2);
            s2s_fill_i32(steps, S2S_CAP, -7, -7);
            s2s_fill_u32(peak, S2S_CAP);
            collatz(n, s2s_tail(0, x, n * sizeof x[0]), steps, peak);
            S2S_OUT("steps", steps, n + S2S_GUARD);
            S2S_OUT("peak", peak, n + S2S_GUARD);
        }
    }
    return 0;
}
