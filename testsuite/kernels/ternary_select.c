/* s2s-test: vectorized=1 tolerance=exact */
/* ternary_select: ?: with side-effect-free arms is a per-lane select; the
 * condition pattern covers all lanes, none, one, alternating and random. */
#include "harness.h"

void sel(int n, const double *a, const double *b, double *c, int *k)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        c[i] = a[i] > b[i] ? a[i] - b[i] : b[i] * 2.0;
        k[i] = a[i] < 0.0 ? -i : i * 3;
    }
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], b[S2S_CAP], c[S2S_CAP];
    static int k[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                int on = s2s_pattern(p, i, n);
                b[i] = s2s_f64(-1.0, 1.0);
                a[i] = on ? b[i] + 0.5 : b[i] - 0.5;
            }
            s2s_fill_f64(c, S2S_CAP, 9.0, 9.0);
            s2s_fill_i32(k, S2S_CAP, 9, 9);
            sel(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), c, k);
            S2S_OUT("c", c, n + S2S_GUARD);
            S2S_OUT("k", k, n + S2S_GUARD);
        }
    }
    return 0;
}
