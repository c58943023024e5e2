/* s2s-test: vectorized=1 tolerance=exact */
/* if_clause: if(simd: n > limit) chooses vector or scalar at run time;
 * both paths must give the same results. */
#include "harness.h"

void maybe(int n, int limit, const float *x, float *y)
{
#pragma omp simd if(simd: n > limit)
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 4.0f - 1.0f;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int limit = 0; limit <= 20; limit += 10) {
            s2s_fill_f32(x, n, -1.0, 1.0);
            s2s_fill_f32(y, S2S_CAP, 2.0, 3.0);
            maybe(n, limit, s2s_tail(0, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
