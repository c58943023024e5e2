/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_null_pointers: an array of pointers, some NULL, dereferenced
 * only under `p != NULL` (a load through the pointer, a store through
 * another one, and a pointer walk to the second element): inactive lanes
 * must not touch the NULL pointers. */
#include "harness.h"

void deref(int n, double *const *p, int32_t *const *q, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double v = -1.0;
        if (p[i] != NULL)
            v = *p[i] + p[i][1];
        if (q[i])
            *q[i] += 1;
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static double data[2 * S2S_CAP], y[S2S_CAP];
    static int32_t cnt[S2S_CAP], cnt0[S2S_CAP];
    static double *p[S2S_CAP];
    static int32_t *q[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int pt = 0; pt < S2S_NPATTERNS; pt++) {
            s2s_fill_f64(data, 2 * n, -10.0, 10.0);
            s2s_fill_i32(cnt, n, 0, 100);
            memcpy(cnt0, cnt, sizeof cnt);
            for (int i = 0; i < n; i++) {
                p[i] = s2s_pattern(pt, i, n) ? &data[2 * (n - 1 - i)] : NULL;
                q[i] = s2s_pattern((pt + 1) % S2S_NPATTERNS, i, n) ? &cnt[i] : NULL;
            }
            s2s_fill_f64(y, S2S_CAP, 5.0, 5.0);
            deref(n, s2s_tail(0, p, n * sizeof p[0]), s2s_tail(1, q, n * sizeof q[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
            for (int i = 0; i < n; i++) cnt[i] -= cnt0[i];
            S2S_OUT("cnt", cnt, n);
        }
    }
    return 0;
}
