/* s2s-test: vectorized=1 tolerance=exact width="avx2:8 avx512:16 neon:4" */
/* saxpy_f32: y = a*x + y on floats (twice the lanes of the f64 version). */
#include "harness.h"

void saxpy_f32(int n, float a, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -4.0, 4.0);
        s2s_fill_f32(y, S2S_CAP, -1.0, 1.0);
        saxpy_f32(n, -2.5f, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
