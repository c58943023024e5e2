/* s2s-test: vectorized=1 tolerance=exact report="memory.contiguous=1 memory.strided=2" */
/* strided_load: constant-stride reads a[3i] and a[3i+2] (gathers or shuffles). */
#include "harness.h"

void strided_load(int n, const float *a, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = a[3 * i] - a[3 * i + 2];
}

int main(int argc, char **argv)
{
    static float a[3 * S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(a, 3 * n, -8.0, 8.0);
        s2s_fill_f32(y, S2S_CAP, 1.0, 2.0);
        strided_load(n, s2s_tail(0, a, 3 * n * sizeof a[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
