/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_elseif_cascade_continue: an else-if cascade on a per-lane
 * distance with `continue` in two of its arms (the lane stores nothing)
 * and different stores in the others; arms read different arrays. */
#include "harness.h"

void cascade(int n, const double *r2, const double *a, const double *b, double *e, int32_t *arm)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double d = r2[i], v;
        if (d > 100.0) {
            continue;
        } else if (d > 50.0) {
            v = a[i] / d;
            arm[i] = 1;
        } else if (d > 20.0) {
            arm[i] = 2;
            if (b[i] < 0.0)
                continue;
            v = a[i] * b[i];
        } else if (d > 1.0) {
            v = a[i] - b[i] * d;
            arm[i] = 3;
        } else {
            v = 0.0;
            arm[i] = 4;
        }
        e[i] = v + 1.0;
    }
}

int main(int argc, char **argv)
{
    static double r2[S2S_CAP], a[S2S_CAP], b[S2S_CAP], e[S2S_CAP];
    static int32_t arm[S2S_CAP];
    static const double lo[5] = {100.5, 50.5, 20.5, 1.5, 0.0};
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS * 2; p++) {
            for (int i = 0; i < n; i++) {
                int which = s2s_pattern(p % S2S_NPATTERNS, i, n) ? (p / S2S_NPATTERNS) * 2 : (int)s2s_int(0, 4);
                r2[i] = lo[which] + s2s_f64(0.0, 0.4);
            }
            s2s_fill_f64(a, n, -3.0, 3.0);
            s2s_fill_f64(b, n, -3.0, 3.0);
            s2s_fill_f64(e, S2S_CAP, 7.0, 7.0);
            s2s_fill_i32(arm, S2S_CAP, -1, -1);
            cascade(n, s2s_tail(0, r2, n * sizeof r2[0]), s2s_tail(1, a, n * sizeof a[0]),
                    s2s_tail(2, b, n * sizeof b[0]), e, arm);
            S2S_OUT("e", e, n + S2S_GUARD);
            S2S_OUT("arm", arm, n + S2S_GUARD);
        }
    }
    return 0;
}
