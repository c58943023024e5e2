/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_pointer_walk: a per-lane pointer advanced in a divergent loop
 * (`while (*p > lim) p++;`), the distance travelled computed by pointer
 * subtraction after the loop, and a value read through the final pointer
 * (pointer-typed loop-carried values and live-outs). */
#include "harness.h"

void walk(int n, const int64_t *data, const int32_t *off, const int64_t *lim, int64_t *dist, int64_t *at)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        const int64_t *start = data + off[i];
        const int64_t *p = start;
        while (*p > lim[i])
            p++;
        dist[i] = p - start;
        at[i] = *p;
    }
}

int main(int argc, char **argv)
{
    static int64_t data[S2S_CAP + 64], lim[S2S_CAP], dist[S2S_CAP], at[S2S_CAP];
    static int32_t off[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int m = n + 40;
        s2s_fill_i64(data, m, -100, 1000);
        data[m - 1] = INT64_MIN;                 /* every walk stops here at the latest */
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                off[i] = (int32_t)s2s_int(0, m - 1);
                lim[i] = s2s_pattern(p, i, n) ? s2s_int(-100, 0) : s2s_int(900, 1000);
            }
            s2s_fill_i64(dist, S2S_CAP, -1, -1);
            s2s_fill_i64(at, S2S_CAP, -1, -1);
            walk(n, s2s_tail(0, data, m * sizeof data[0]), s2s_tail(1, off, n * sizeof off[0]),
                 s2s_tail(2, lim, n * sizeof lim[0]), dist, at);
            S2S_OUT("dist", dist, n + S2S_GUARD);
            S2S_OUT("at", at, n + S2S_GUARD);
        }
    }
    return 0;
}
