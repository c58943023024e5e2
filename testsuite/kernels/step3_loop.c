/* s2s-test: vectorized=1 tolerance=exact */
/* step3_loop: i += 3; only every third element is written and the trip
 * count is ceil(n/3). */
#include "harness.h"

void step3(int n, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i += 3)
        y[i] = x[i] * x[i] + 1.0f;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -3.0, 3.0);
        s2s_fill_f32(y, S2S_CAP, -1.0, 0.0);
        step3(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
