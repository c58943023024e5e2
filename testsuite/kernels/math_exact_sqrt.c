/* s2s-test: vectorized=1 tolerance=exact */
/* math_exact_sqrt: sqrt and sqrtf are correctly rounded, so the vector
 * instruction must match libm bit for bit; negative inputs give NaN, +-0
 * and +inf pass through. */
#include "harness.h"

void roots(int n, const double *x, double *y, const float *xf, float *yf)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        y[i] = sqrt(x[i]);
        yf[i] = sqrtf(xf[i]);
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static float xf[S2S_CAP], yf[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, 0.0, 1e6);
        s2s_fill_f32(xf, n, 0.0, 1e4);
        if (n > 1) { x[1] = -0.0; xf[1] = -0.0f; }
        if (n > 2) { x[2] = INFINITY; xf[2] = INFINITY; }
        if (n > 3) { x[3] = 0.0; xf[3] = 0.0f; }
        s2s_fill_f64(y, S2S_CAP, 1.0, 2.0);
        s2s_fill_f32(yf, S2S_CAP, 1.0, 2.0);
        roots(n, s2s_tail(0, x, n * sizeof x[0]), y, s2s_tail(1, xf, n * sizeof xf[0]), yf);
        S2S_OUT("y", y, n + S2S_GUARD);
        S2S_OUT("yf", yf, n + S2S_GUARD);
    }
    return 0;
}
