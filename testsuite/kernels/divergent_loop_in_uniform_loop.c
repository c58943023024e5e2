/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_loop_in_uniform_loop: a uniform outer loop (bound from a
 * parameter, the same for all lanes) around a divergent inner while loop
 * whose trip count depends on the lane and on the outer iteration. */
#include "harness.h"

void rounds(int n, int reps, const uint32_t *seed, uint32_t *state, int32_t *total)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t s = seed[i];
        int32_t t = 0;
        for (int r = 0; r < reps; r++) {
            uint32_t budget = (s >> 3) % 9u + (uint32_t)r;
            while (budget > 0u) {
                s = s * 1103515245u + 12345u;
                budget--;
                t++;
                if ((s & 0xF0000u) == 0u)       /* rarely: stop this round */
                    break;
            }
            s ^= (uint32_t)r;
        }
        state[i] = s;
        total[i] = t;
    }
}

int main(int argc, char **argv)
{
    static uint32_t seed[S2S_CAP], state[S2S_CAP];
    static int32_t total[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int reps = 0; reps <= 5; reps += 5) {
            for (int p = 0; p < S2S_NPATTERNS; p++) {
                for (int i = 0; i < n; i++)
                    seed[i] = s2s_pattern(p, i, n) ? s2s_u32() : 0u;
                s2s_fill_u32(state, S2S_CAP);
                s2s_fill_i32(total, S2S_CAP, -1, -1);
                rounds(n, reps, s2s_tail(0, seed, n * sizeof seed[0]), state, total);
                S2S_OUT("state", state, n + S2S_GUARD);
                S2S_OUT("total", total, n + S2S_GUARD);
            }
        }
    }
    return 0;
}
