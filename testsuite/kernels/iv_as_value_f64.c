/* s2s-test: vectorized=1 tolerance=exact */
/* iv_as_value_f64: the induction variable converted to double and float. */
#include "harness.h"

void ramp(int n, double *y, float *z)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        y[i] = i * 0.25 - 3.0;
        z[i] = (float)i / 3.0f;
    }
}

int main(int argc, char **argv)
{
    static double y[S2S_CAP];
    static float z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(y, S2S_CAP, 1.0, 2.0);
        s2s_fill_f32(z, S2S_CAP, 1.0, 2.0);
        ramp(n, y, z);
        S2S_OUT("y", y, n + S2S_GUARD);
        S2S_OUT("z", z, n + S2S_GUARD);
    }
    return 0;
}
