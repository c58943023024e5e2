/* s2s-test: vectorized=1 tolerance=exact */
/* gather_nonlinear_index: addresses computed from the iv non-linearly
 * (i*i mod m) and via a loaded float converted to an index. */
#include "harness.h"

void nonlin(int n, int m, const float *t, const float *pos, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = t[(i * i) % m] + t[(int)pos[i]];
}

int main(int argc, char **argv)
{
    static float t[S2S_CAP], pos[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int m = n + 1;
        s2s_fill_f32(t, m, -10.0, 10.0);
        s2s_fill_f32(pos, n, 0.0, (double)m - 0.01);
        s2s_fill_f32(y, S2S_CAP, 1.0, 1.0);
        nonlin(n, m, s2s_tail(0, t, m * sizeof t[0]), s2s_tail(1, pos, n * sizeof pos[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
