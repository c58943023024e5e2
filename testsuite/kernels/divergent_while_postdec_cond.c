/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_while_postdec_cond: a loop condition with a side effect
 * (`while (k-- > 0)`): the decrement happens on the failing test too, so
 * the counter is -1 after the loop for lanes that ran to the end, and the
 * value at a break for the others; unsigned narrow counters wrap. */
#include "harness.h"

void pd(int n, const int32_t *cnt, const int32_t *stop, int32_t *k_out, int32_t *acc_out, uint8_t *u_out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t k = cnt[i], acc = 0;
        while (k-- > 0) {
            acc += k;
            if (k == stop[i])
                break;
        }
        uint8_t u = (uint8_t)cnt[i];
        while (u--)
            acc ^= u;
        k_out[i] = k;
        acc_out[i] = acc;
        u_out[i] = u;
    }
}

int main(int argc, char **argv)
{
    static int32_t cnt[S2S_CAP], stop[S2S_CAP], k[S2S_CAP], acc[S2S_CAP];
    static uint8_t u[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                cnt[i] = (int32_t)s2s_int(-2, 40);
                stop[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(0, 20) : -5;
            }
            s2s_fill_i32(k, S2S_CAP, 3, 3);
            s2s_fill_i32(acc, S2S_CAP, 3, 3);
            s2s_fill_u8(u, S2S_CAP);
            pd(n, s2s_tail(0, cnt, n * sizeof cnt[0]), s2s_tail(1, stop, n * sizeof stop[0]), k, acc, u);
            S2S_OUT("k", k, n + S2S_GUARD);
            S2S_OUT("acc", acc, n + S2S_GUARD);
            S2S_OUT("u", u, n + S2S_GUARD);
        }
    }
    return 0;
}
