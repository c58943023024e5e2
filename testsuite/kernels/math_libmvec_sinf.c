/* s2s-test: vectorized=1 tolerance=ulp=4 */
/* math_libmvec_sinf: sinf on [-50.0, 50.0) goes to glibc libmvec under --math
 * vector (default on x86); libmvec promises <= 4 ulp, so that is the
 * tolerance.  On NEON it is scalar libm per lane (exact). */
#include "harness.h"

void vec_sinf(int n, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = sinf(x[i]);
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -50.0, 50.0);
        s2s_fill_f32(y, S2S_CAP, 7.0, 8.0);
        vec_sinf(n, s2s_tail(0, x, n * sizeof x[0]), y);
        s2s_out_ulp_f32("sinf", y, n);
        S2S_OUT("guard", y + n, S2S_GUARD);
    }
    return 0;
}
