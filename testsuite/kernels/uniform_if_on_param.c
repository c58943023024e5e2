/* s2s-test: vectorized=1 tolerance=exact report="branches.uniform=2 branches.divergent=0 memory.masked=0" */
/* uniform_if_on_param: if/else on a parameter inside the loop body; the
 * branch is the same for every lane and stays a real branch. */
#include "harness.h"

void mode_op(int n, int mode, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (mode == 1)
            y[i] = x[i] * 2.0f;
        else if (mode > 1)
            y[i] = x[i] - (float)mode;
        else
            y[i] = -x[i];
    }
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int mode = 0; mode <= 3; mode++) {
            s2s_fill_f32(x, n, -5.0, 5.0);
            s2s_fill_f32(y, S2S_CAP, 8.0, 8.0);
            mode_op(n, mode, s2s_tail(0, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
