/* s2s-test: vectorized=1 tolerance=exact */
/* linear_step_param: linear(k:s) with a run-time step s (a parameter, 0..3):
 * k of lane l is k + l*s, so x[k] is a gather (issue 21 item 3). */
#include "harness.h"

long gather_step(int n, int s, const float *x, float *y)
{
    long k = 0;
#pragma omp simd linear(k:s)
    for (int i = 0; i < n; i++) {
        y[i] = x[k] * 2.0f;
        k += s;
    }
    return k;
}

int main(int argc, char **argv)
{
    static float x[4 * S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int s = 0; s <= 3; s++) {
            s2s_fill_f32(x, 4 * S2S_CAP, -2.0, 2.0);
            s2s_fill_f32(y, S2S_CAP, 8.0, 9.0);
            s2s_out_i64("k", gather_step(n, s, x, y));
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
