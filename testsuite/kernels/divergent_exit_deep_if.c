/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_exit_deep_if: loop exits from inside nested divergent if/else
 * and a switch, each leaving a different code and value; one exit path
 * stores before leaving.  Lanes run a random walk until one of the exits
 * fires. */
#include "harness.h"

void walk(int n, const uint32_t *seed, int32_t *code, int32_t *pos, int32_t *mark)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t s = seed[i];
        int32_t x = 0, c = 0, steps = 0;
        while (steps < 60) {
            s = s * 1664525u + 1013904223u;
            x += (s >> 31) ? 1 : -1;
            steps++;
            if (x > 3) {
                if (s & 0x100u) {
                    c = 1;
                    break;
                } else if (x > 5) {
                    c = 2;
                    mark[i] = steps;
                    break;
                }
            } else if (x < -3) {
                switch ((s >> 20) & 3u) {
                case 0:
                    c = 3;
                    break;
                case 1:
                    x = 0;
                    continue;
                default:
                    c = 4;
                }
                if (c == 3)
                    break;
                if ((s >> 12) & 1u)
                    break;
            }
        }
        code[i] = c * 1000 + steps;
        pos[i] = x;
    }
}

int main(int argc, char **argv)
{
    static uint32_t seed[S2S_CAP];
    static int32_t code[S2S_CAP], pos[S2S_CAP], mark[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < 3; p++) {
            s2s_fill_u32(seed, n);
            s2s_fill_i32(code, S2S_CAP, 1, 1);
            s2s_fill_i32(pos, S2S_CAP, 1, 1);
            s2s_fill_i32(mark, S2S_CAP, -1, -1);
            walk(n, s2s_tail(0, seed, n * sizeof seed[0]), code, pos, mark);
            S2S_OUT("code", code, n + S2S_GUARD);
            S2S_OUT("pos", pos, n + S2S_GUARD);
            S2S_OUT("mark", mark, n + S2S_GUARD);
        }
    }
    return 0;
}
