/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_local_ring_buffer: a ring buffer of 4 entries per iteration
 * (a local array with per-lane head and count): a stream of per-lane
 * length pushes values, a push into a full buffer drops the oldest, and
 * some values pop instead; the buffer's contents are summed at the end. */
#include "harness.h"

#define ROW 16

void ring(int n, const int16_t *s, const int32_t *len, int32_t *sum, int32_t *left)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t buf[4];
        int32_t head = 0, cnt = 0;
        for (int32_t k = 0; k < len[i]; k++) {
            int32_t v = s[i * ROW + k];
            if (v < 0) {                    /* pop the oldest */
                if (cnt > 0) {
                    head = (head + 1) & 3;
                    cnt--;
                }
                continue;
            }
            buf[(head + cnt) & 3] = v;
            if (cnt == 4)
                head = (head + 1) & 3;
            else
                cnt++;
        }
        int32_t t = 0;
        for (int32_t k = 0; k < cnt; k++)
            t = t * 3 + buf[(head + k) & 3];
        sum[i] = t;
        left[i] = cnt * 10 + head;
    }
}

int main(int argc, char **argv)
{
    static int16_t s[S2S_CAP * ROW];
    static int32_t len[S2S_CAP], sum[S2S_CAP], left[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                int popper = s2s_pattern(p, i, n);
                len[i] = (int32_t)s2s_int(0, ROW);
                for (int k = 0; k < ROW; k++)
                    s[i * ROW + k] = (int16_t)s2s_int(popper ? -500 : 0, 500);
            }
            s2s_fill_i32(sum, S2S_CAP, 3, 3);
            s2s_fill_i32(left, S2S_CAP, 3, 3);
            ring(n, s2s_tail(0, s, (size_t)n * ROW * sizeof s[0]), s2s_tail(1, len, n * sizeof len[0]), sum, left);
            S2S_OUT("sum", sum, n + S2S_GUARD);
            S2S_OUT("left", left, n + S2S_GUARD);
        }
    }
    return 0;
}
