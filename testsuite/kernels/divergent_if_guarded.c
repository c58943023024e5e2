/* s2s-test: vectorized=? tolerance=exact */
/* divergent_if_guarded: an if on loaded data guarding a store and a load
 * that is only valid when the condition holds (idx < 0 must not be read).
 * Correctness only: whether it is vectorized depends on the linearizer;
 * a scalar fall-back must still be exact. */
#include "harness.h"

void guarded(int n, const int *idx, const double *a, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (idx[i] >= 0)
            y[i] = a[idx[i]] + 1.0;
        else
            y[i] = -1.0;
    }
}

int main(int argc, char **argv)
{
    static int idx[S2S_CAP];
    static double a[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                idx[i] = s2s_pattern(p, i, n) ? (int)s2s_int(0, n - 1) : -1000000;
            s2s_fill_f64(a, n, -1.0, 1.0);
            s2s_fill_f64(y, S2S_CAP, 9.0, 9.0);
            guarded(n, s2s_tail(0, idx, n * sizeof idx[0]), s2s_tail(1, a, n * sizeof a[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
