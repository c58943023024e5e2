/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_and_guard_tail: `i < m && a[i] > 0` where a holds only m
 * elements and ends at a PROT_NONE page: the right operand of && must not
 * read a[i] for i >= m (a load of the whole vector would fault).  The same
 * guard on a gather: `idx[i] >= 0 && b[idx[i]] != 0`. */
#include "harness.h"

void guard(int n, int m, const int32_t *a, const int32_t *idx, const uint8_t *b, int32_t *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t r = 0;
        if (i < m && a[i] > 0)
            r = 1;
        if (idx[i] >= 0 && b[idx[i]] != 0)
            r += 2;
        y[i] = (i < m && a[i] < -5) ? -r : r;
    }
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], idx[S2S_CAP], y[S2S_CAP];
    static uint8_t b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            int ms[3] = {0, n / 2, n};
            for (int j = 0; j < 3; j++) {
                int m = ms[j];
                s2s_fill_i32(a, m, -10, 10);
                s2s_fill_u8(b, n);
                for (int i = 0; i < n; i++)
                    idx[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(0, n - 1) : -(int32_t)s2s_int(1, 1 << 30);
                if (n > 0 && s2s_pattern(p, n - 1, n)) idx[n - 1] = n - 1;  /* the last byte of b */
                s2s_fill_i32(y, S2S_CAP, 8, 8);
                guard(n, m, s2s_tail(0, a, m * sizeof a[0]), s2s_tail(1, idx, n * sizeof idx[0]),
                      s2s_tail(2, b, (size_t)n), y);
                S2S_OUT("y", y, n + S2S_GUARD);
            }
        }
    }
    return 0;
}
