/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_break_inner_nested: two nested divergent loops; a break
 * leaves only the inner loop (the first multiple of m[i] above r), the
 * outer loop goes on.  The inner trip count depends on the outer
 * iteration and on the lane. */
#include "harness.h"

void nested(int n, const int32_t *m, const int32_t *rows, int32_t *sum, int32_t *last)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t s = 0, l = -1;
        for (int32_t r = 0; r < rows[i]; r++) {
            for (int32_t c = r; c < 3 * r + 5; c++) {
                if (c % m[i] == 0 && c > r) {
                    l = c;
                    break;
                }
                s += c;
            }
            s ^= r;
        }
        sum[i] = s;
        last[i] = l;
    }
}

int main(int argc, char **argv)
{
    static int32_t m[S2S_CAP], rows[S2S_CAP], sum[S2S_CAP], last[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                m[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 5) : (int32_t)s2s_int(40, 100);
                rows[i] = (int32_t)s2s_int(0, 12);
            }
            s2s_fill_i32(sum, S2S_CAP, 1, 1);
            s2s_fill_i32(last, S2S_CAP, 2, 2);
            nested(n, s2s_tail(0, m, n * sizeof m[0]), s2s_tail(1, rows, n * sizeof rows[0]), sum, last);
            S2S_OUT("sum", sum, n + S2S_GUARD);
            S2S_OUT("last", last, n + S2S_GUARD);
        }
    }
    return 0;
}
