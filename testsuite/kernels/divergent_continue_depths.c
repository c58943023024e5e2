/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_continue_depths: continue at three depths: in the inner of two
 * divergent loops, in the outer one (skipping the inner loop), and in the
 * simd loop itself from inside a nested if (skipping the stores). */
#include "harness.h"

void cont(int n, const int32_t *a, const int32_t *b, int32_t *acc, int32_t *cnt)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (a[i] < 0) {
            if (b[i] < 0)
                continue;               /* simd-loop continue: no store */
        }
        int32_t s = 0, c = 0;
        for (int32_t r = 0; r < (a[i] & 7); r++) {
            if (((b[i] >> r) & 1) == 0)
                continue;               /* outer continue */
            for (int32_t k = 0; k < (b[i] & 15); k++) {
                if ((k + r + a[i]) % 3 == 0)
                    continue;           /* inner continue */
                s += k * r + 1;
                c++;
            }
        }
        acc[i] = s;
        cnt[i] = c;
    }
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], b[S2S_CAP], acc[S2S_CAP], cnt[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                a[i] = (int32_t)s2s_int(-50, 50);
                b[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(-1000, -1) : (int32_t)s2s_int(0, 1000);
            }
            s2s_fill_i32(acc, S2S_CAP, 9, 9);
            s2s_fill_i32(cnt, S2S_CAP, 8, 8);
            cont(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), acc, cnt);
            S2S_OUT("acc", acc, n + S2S_GUARD);
            S2S_OUT("cnt", cnt, n + S2S_GUARD);
        }
    }
    return 0;
}
