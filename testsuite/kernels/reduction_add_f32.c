/* s2s-test: vectorized=1 tolerance=reduction-fp rel=2e-5 */
/* reduction_add_f32: a float sum of positive terms (reassociation error
 * bounded by ~n*eps relative). */
#include "harness.h"

float sum_f32(int n, const float *x)
{
    float s = 0.0f;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, 0.0, 4.0);
        s2s_out_red("sum", sum_f32(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
