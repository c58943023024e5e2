/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_while_guarded_tail: a divergent while loop whose condition is
 * `k < m && a[k] > 0` over one shared array a of m elements that ends at a
 * PROT_NONE page: each lane starts at its own position, the read of a[k]
 * is only allowed while k < m (a lane that reaches m must not load). */
#include "harness.h"

void run_len(int n, int m, const int32_t *a, const int32_t *start, int32_t *end, int64_t *sum)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t k = start[i];
        int64_t s = 0;
        while (k < m && a[k] > 0) {
            s += a[k];
            k++;
        }
        end[i] = k;
        sum[i] = s;
    }
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], start[S2S_CAP], end[S2S_CAP];
    static int64_t sum[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            int m = n + 3;
            for (int k = 0; k < m; k++)
                a[k] = s2s_int(0, 9) == 0 ? 0 : (int32_t)s2s_int(1, 1000);
            for (int k = m - 8; k < m; k++)         /* a positive run to the very end */
                if (k >= 0) a[k] = 7;
            for (int i = 0; i < n; i++)
                start[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(m - 8 > 0 ? m - 8 : 0, m) : (int32_t)s2s_int(0, m);
            s2s_fill_i32(end, S2S_CAP, -1, -1);
            s2s_fill_i64(sum, S2S_CAP, -1, -1);
            run_len(n, m, s2s_tail(0, a, m * sizeof a[0]), s2s_tail(1, start, n * sizeof start[0]), end, sum);
            S2S_OUT("end", end, n + S2S_GUARD);
            S2S_OUT("sum", sum, n + S2S_GUARD);
        }
    }
    return 0;
}
