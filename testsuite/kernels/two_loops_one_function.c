/* s2s-test: vectorized=2 tolerance=exact */
/* two_loops_one_function: two annotated loops in one function, the second
 * reading what the first wrote, with scalar code in between. */
#include "harness.h"

void two(int n, const float *x, float *tmp, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        tmp[i] = x[i] * x[i];
    float bias = n > 0 ? tmp[0] : 0.0f;
#pragma omp simd
    for (int j = 0; j < n; j++)
        y[j] = tmp[n - 1 - j] - bias;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], tmp[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -3.0, 3.0);
        s2s_fill_f32(tmp, S2S_CAP, 1.0, 1.0);
        s2s_fill_f32(y, S2S_CAP, 2.0, 2.0);
        two(n, s2s_tail(0, x, n * sizeof x[0]), tmp, y);
        S2S_OUT("tmp", tmp, n + S2S_GUARD);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
