/* s2s-test: vectorized=1 tolerance=ulp=4 */
/* math_libmvec_powf: powf with a uniform exponent (a loop-invariant argument). */
#include "harness.h"

void vec_powf(int n, const float *x, float e, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = powf(x[i], e);
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, 0.01, 100.0);
        s2s_fill_f32(y, S2S_CAP, 7.0, 8.0);
        vec_powf(n, s2s_tail(0, x, n * sizeof x[0]), 2.75f, y);
        s2s_out_ulp_f32("powf", y, n);
        S2S_OUT("guard", y + n, S2S_GUARD);
    }
    return 0;
}
