/* s2s-test: vectorized=1 tolerance=ulp=4 */
/* math_libmvec_atan2f: the float atan2 (libmvec, <= 4 ulp). */
#include "harness.h"

void vec_atan2f(int n, const float *y, const float *x, float *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        r[i] = atan2f(y[i], x[i]);
}

int main(int argc, char **argv)
{
    static float y[S2S_CAP], x[S2S_CAP], r[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(y, n, -10.0, 10.0);
        s2s_fill_f32(x, n, -10.0, 10.0);
        s2s_fill_f32(r, S2S_CAP, 7.0, 8.0);
        vec_atan2f(n, s2s_tail(0, y, n * sizeof y[0]), s2s_tail(1, x, n * sizeof x[0]), r);
        s2s_out_ulp_f32("atan2f", r, n);
        S2S_OUT("guard", r + n, S2S_GUARD);
    }
    return 0;
}
