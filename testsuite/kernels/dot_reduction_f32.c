/* s2s-test: vectorized=1 tolerance=reduction-fp rel=2e-5 */
/* dot_reduction_f32: float dot product with reduction(+); the reassociated
 * float sum of <= 1001 positive terms stays within ~n*eps/2 relative. */
#include "harness.h"

float dot_f32(int n, const float *x, const float *y)
{
    float s = 1.0f;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, 0.5, 2.0);
        s2s_fill_f32(y, n, 0.25, 3.0);
        s2s_out_red("dot", dot_f32(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, y, n * sizeof y[0])));
    }
    return 0;
}
