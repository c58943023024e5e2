/* s2s-test: vectorized=1 tolerance=exact */
/* unsigned_decreasing: an unsigned loop counting down to 1 (i > 0), where a
 * trip-count computation that goes below zero would wrap around. */
#include "harness.h"

void udown(unsigned n, const float *x, float *y)
{
#pragma omp simd
    for (unsigned i = n; i > 0; i--)
        y[i - 1] = x[i - 1] * (float)i;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -1.0, 1.0);
        s2s_fill_f32(y, S2S_CAP, 2.0, 2.0);
        udown((unsigned)n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
