/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_max_f32: max via fmaxf on floats (exact in any order without NaN). */
#include "harness.h"

float max_f32(int n, const float *x)
{
    float m = -1e30f;
#pragma omp simd reduction(max:m)
    for (int i = 0; i < n; i++)
        m = fmaxf(m, x[i]);
    return m;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int where = 0; where < 3; where++) {
            s2s_fill_f32(x, n, -100.0, 100.0);
            int at = where == 0 ? 0 : where == 1 ? n - 1 : (int)s2s_int(0, n > 0 ? n - 1 : 0);
            if (n > 0) x[at] = 500.0f + where;
            s2s_out_f32("max", max_f32(n, s2s_tail(0, x, n * sizeof x[0])));
        }
    }
    return 0;
}
