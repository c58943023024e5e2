/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_switch_fallthrough: a divergent switch with default first and
 * fallthrough chains (Duff-like: case 3 does the work of 3, 2 and 1), so
 * lanes enter the chain at different points and join inside it. */
#include "harness.h"

void chain(int n, const uint8_t *k, const int64_t *x, int64_t *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int64_t v = x[i];
        switch (k[i] & 7) {
        default:
            v = 0;
            /* fall through */
        case 3:
            v = v * 5 + 1;
            /* fall through */
        case 2:
            v = v * 7 + 2;
            /* fall through */
        case 1:
            v = v * 11 + 3;
            break;
        case 6:
            v = v - 1;
            /* fall through */
        case 7:
            v = v >> 2;
        }
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static uint8_t k[S2S_CAP];
    static int64_t x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                k[i] = s2s_pattern(p, i, n) ? (uint8_t)(6 + (i & 1)) : (uint8_t)s2s_u32();
                x[i] = s2s_int(-1000000000, 1000000000);
            }
            s2s_fill_i64(y, S2S_CAP, 3, 3);
            chain(n, s2s_tail(0, k, n * sizeof k[0]), s2s_tail(1, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
