/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_do_digit_count: a do-while loop with a per-lane trip count
 * (number of decimal digits, at least one), on int64 (64-bit division runs
 * per lane) and on int32 including negative numbers and the minimum. */
#include "harness.h"

void digits(int n, const int64_t *x, const int32_t *y, int32_t *dx, int32_t *dy)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int64_t v = x[i];
        int32_t d = 0;
        do {
            v /= 10;
            d++;
        } while (v != 0);
        dx[i] = d;
        int32_t w = y[i];
        int32_t e = 0;
        do {
            w = w / 10;
            e++;
        } while (w);
        dy[i] = e;
    }
}

int main(int argc, char **argv)
{
    static int64_t x[S2S_CAP];
    static int32_t y[S2S_CAP], dx[S2S_CAP], dy[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                if (s2s_pattern(p, i, n)) {
                    x[i] = (int64_t)s2s_u64() >> (s2s_u32() % 63u);
                    y[i] = (int32_t)s2s_u32() >> (s2s_u32() % 31u);
                } else {
                    x[i] = s2s_int(-9, 9);
                    y[i] = (int32_t)s2s_int(-9, 9);
                }
            }
            if (n > 2) { x[1] = INT64_MIN; y[1] = INT32_MIN; }
            if (n > 3) { x[2] = INT64_MAX; y[2] = INT32_MAX; }
            s2s_fill_i32(dx, S2S_CAP, -1, -1);
            s2s_fill_i32(dy, S2S_CAP, -1, -1);
            digits(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, y, n * sizeof y[0]), dx, dy);
            S2S_OUT("dx", dx, n + S2S_GUARD);
            S2S_OUT("dy", dy, n + S2S_GUARD);
        }
    }
    return 0;
}
