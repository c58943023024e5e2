/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_loop_in_switch_arm: divergent loops inside the arms of a
 * divergent switch: a `break` inside the loop leaves the loop, the `break`
 * after it leaves the switch, and one arm's loop contains its own switch
 * whose `continue` continues that loop. */
#include "harness.h"

void arms(int n, const int32_t *op, const int32_t *x, int32_t *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        switch (op[i] & 3) {
        case 0:
            while (v > 100) {
                v -= 37;
                if (v % 11 == 0)
                    break;
            }
            v += 1;
            break;
        case 1:
            for (int32_t k = 0; k < (v & 15); k++) {
                switch (k % 3) {
                case 0:
                    v += k;
                    continue;
                case 1:
                    v ^= k;
                    break;
                default:
                    v -= 1;
                }
                v *= 3;
                v &= 0xFFFFF;
            }
            break;
        case 2:
            do {
                v = v / 3;
            } while (v > 5);
            /* fall through */
        default:
            v = 7 - v;
        }
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static int32_t op[S2S_CAP], x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                op[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(0, 1) : (int32_t)s2s_int(0, 3);
                x[i] = (int32_t)s2s_int(0, 100000);
            }
            s2s_fill_i32(y, S2S_CAP, 6, 6);
            arms(n, s2s_tail(0, op, n * sizeof op[0]), s2s_tail(1, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
