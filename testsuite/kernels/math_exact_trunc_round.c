/* s2s-test: vectorized=1 tolerance=exact */
/* math_exact_trunc_round: trunc and round; round() rounds halves AWAY from
 * zero (not to even: 2.5 -> 3, -2.5 -> -3, 0.49999999999999994 -> 0). */
#include "harness.h"

void tr(int n, const double *x, double *t, double *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        t[i] = trunc(x[i]);
        r[i] = round(x[i]);
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], t[S2S_CAP], r[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++)
            x[i] = (i % 3 == 0) ? (double)s2s_int(-21, 21) * 0.5 : s2s_f64(-4.0, 4.0);
        if (n > 1) x[1] = 0.49999999999999994;
        if (n > 2) x[2] = -0.5;
        if (n > 4) x[4] = 4503599627370497.0;   /* 2^52 + 1: already integral */
        s2s_fill_f64(t, S2S_CAP, 0.0, 1.0);
        s2s_fill_f64(r, S2S_CAP, 0.0, 1.0);
        tr(n, s2s_tail(0, x, n * sizeof x[0]), t, r);
        S2S_OUT("trunc", t, n + S2S_GUARD);
        S2S_OUT("round", r, n + S2S_GUARD);
    }
    return 0;
}
