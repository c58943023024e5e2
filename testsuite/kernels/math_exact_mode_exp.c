/* s2s-test: vectorized=1 tolerance=exact args="--math exact" */
/* math_exact_mode_exp: with --math exact, exp and logf are scalar libm
 * calls per lane, so the results are bit-identical. */
#include "harness.h"

void el(int n, const double *x, double *y, const float *xf, float *yf)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        y[i] = exp(x[i]);
        yf[i] = logf(xf[i]);
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static float xf[S2S_CAP], yf[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -30.0, 30.0);
        s2s_fill_f32(xf, n, 0.001, 1000.0);
        s2s_fill_f64(y, S2S_CAP, 1.0, 2.0);
        s2s_fill_f32(yf, S2S_CAP, 1.0, 2.0);
        el(n, s2s_tail(0, x, n * sizeof x[0]), y, s2s_tail(1, xf, n * sizeof xf[0]), yf);
        S2S_OUT("exp", y, n + S2S_GUARD);
        S2S_OUT("logf", yf, n + S2S_GUARD);
    }
    return 0;
}
