/* s2s-test: vectorized=1 tolerance=ulp=4 */
/* math_libmvec_pow: pow(x, y) with a varying base and exponent (libmvec,
 * <= 4 ulp); includes x = 0 and integral exponents. */
#include "harness.h"

void vec_pow(int n, const double *x, const double *e, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = pow(x[i], e[i]);
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], e[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, 0.0, 20.0);
        s2s_fill_f64(e, n, -10.0, 10.0);
        for (int i = 0; i < n; i += 4) e[i] = (double)s2s_int(-5, 5);
        if (n > 1) x[1] = 0.0;
        s2s_fill_f64(y, S2S_CAP, 7.0, 8.0);
        vec_pow(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, e, n * sizeof e[0]), y);
        s2s_out_ulp_f64("pow", y, n);
        S2S_OUT("guard", y + n, S2S_GUARD);
    }
    return 0;
}
