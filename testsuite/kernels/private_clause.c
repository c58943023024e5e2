/* s2s-test: vectorized=1 tolerance=exact */
/* private_clause: a temporary declared outside the loop and made private;
 * each lane has its own copy. */
#include "harness.h"

void priv(int n, const float *x, float *y)
{
    float t = 0.0f;
#pragma omp simd private(t)
    for (int i = 0; i < n; i++) {
        t = x[i] * x[i];
        y[i] = t + t * 0.5f;
    }
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -3.0, 3.0);
        s2s_fill_f32(y, S2S_CAP, -9.0, -8.0);
        priv(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
