/* s2s-test: vectorized=1 tolerance=ulp=4 */
/* math_libmvec_atan: atan on [-50.0, 50.0) goes to glibc libmvec under --math
 * vector (default on x86); libmvec promises <= 4 ulp, so that is the
 * tolerance.  On NEON it is scalar libm per lane (exact). */
#include "harness.h"

void vec_atan(int n, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = atan(x[i]);
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -50.0, 50.0);
        s2s_fill_f64(y, S2S_CAP, 7.0, 8.0);
        vec_atan(n, s2s_tail(0, x, n * sizeof x[0]), y);
        s2s_out_ulp_f64("atan", y, n);
        S2S_OUT("guard", y + n, S2S_GUARD);
    }
    return 0;
}
