/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_break_continue_same_loop: one divergent loop with both a
 * continue and a break (on different data conditions) and its induction
 * variable live out of both exits; the skip count shows which lanes took
 * the continue. */
#include "harness.h"

#define ROW 16

void scan(int n, const int8_t *row, const int32_t *len, int32_t *at, int32_t *skipped, int32_t *acc)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t k, sk = 0, a = 0;
        for (k = 0; k < len[i]; k++) {
            int8_t c = row[i * ROW + k];
            if (c < 0) {
                sk++;
                continue;
            }
            if (c == 0)
                break;
            a = a * 2 + c;
        }
        at[i] = k;
        skipped[i] = sk;
        acc[i] = a;
    }
}

int main(int argc, char **argv)
{
    static int8_t row[S2S_CAP * ROW];
    static int32_t len[S2S_CAP], at[S2S_CAP], sk[S2S_CAP], acc[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                len[i] = (int32_t)s2s_int(0, ROW);
                int zeros = s2s_pattern(p, i, n);
                for (int k = 0; k < ROW; k++)
                    row[i * ROW + k] = (int8_t)s2s_int(zeros ? -3 : -8, 20);
                if (!zeros)
                    for (int k = 0; k < ROW; k++)
                        if (row[i * ROW + k] == 0) row[i * ROW + k] = 1;
            }
            s2s_fill_i32(at, S2S_CAP, 4, 4);
            s2s_fill_i32(sk, S2S_CAP, 4, 4);
            s2s_fill_i32(acc, S2S_CAP, 4, 4);
            scan(n, s2s_tail(0, row, (size_t)n * ROW), s2s_tail(1, len, n * sizeof len[0]), at, sk, acc);
            S2S_OUT("at", at, n + S2S_GUARD);
            S2S_OUT("skipped", sk, n + S2S_GUARD);
            S2S_OUT("acc", acc, n + S2S_GUARD);
        }
    }
    return 0;
}
