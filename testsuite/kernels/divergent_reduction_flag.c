/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_reduction_flag: reduction-like flags set under divergent
 * conditions through reduction clauses (|, max, +), the race-free way to
 * write "any lane saw a negative value", "the largest index that matched"
 * and "how many matched". */
#include "harness.h"

void flags(int n, const int16_t *x, int32_t *any, int32_t *last, int32_t *count)
{
    int32_t f = 0, l = -1, c = 0;
#pragma omp simd reduction(| : f) reduction(max : l) reduction(+ : c)
    for (int i = 0; i < n; i++) {
        if (x[i] < 0) {
            f = 1;
            if (x[i] < -100) {
                l = l > i ? l : i;
                c++;
            }
        }
    }
    *any = f;
    *last = l;
    *count = c;
}

int main(int argc, char **argv)
{
    static int16_t x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (int16_t)s2s_int(-200, -1) : (int16_t)s2s_int(0, 300);
            int32_t any = 5, last = 5, count = 5;
            flags(n, s2s_tail(0, x, n * sizeof x[0]), &any, &last, &count);
            s2s_out_i64("any", any);
            s2s_out_i64("last", last);
            s2s_out_i64("count", count);
        }
    }
    return 0;
}
