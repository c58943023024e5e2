/* s2s-test: vectorized=1 tolerance=exact */
/* iv_declared_outside: the loop variable outlives the loop; after the loop
 * it must hold its sequential final value (n, or start for an empty loop). */
#include "harness.h"

int outside(int n, const float *x, float *y)
{
    int i;
#pragma omp simd
    for (i = 2; i < n; i++)
        y[i] = x[i] * 0.5f;
    return i;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -1.0, 1.0);
        s2s_fill_f32(y, S2S_CAP, 4.0, 5.0);
        s2s_out_i64("i", outside(n, s2s_tail(0, x, n * sizeof x[0]), y));
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
