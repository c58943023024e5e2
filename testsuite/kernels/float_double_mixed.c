/* s2s-test: vectorized=1 tolerance=exact */
/* float_double_mixed: float data computed in double (usual arithmetic
 * conversions: float * double is a double multiply) and rounded back. */
#include "harness.h"

void fd(int n, const float *x, float *y, double *z)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        y[i] = x[i] * 0.1 + x[i] / 3.0f;
        z[i] = x[i] * 0.1f;
    }
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    static double z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -100.0, 100.0);
        s2s_fill_f32(y, S2S_CAP, 1.0, 1.0);
        s2s_fill_f64(z, S2S_CAP, 1.0, 1.0);
        fd(n, s2s_tail(0, x, n * sizeof x[0]), y, z);
        S2S_OUT("y", y, n + S2S_GUARD);
        S2S_OUT("z", z, n + S2S_GUARD);
    }
    return 0;
}
