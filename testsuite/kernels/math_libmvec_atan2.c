/* s2s-test: vectorized=1 tolerance=ulp=4 */
/* math_libmvec_atan2: atan2(y, x) in all four quadrants (libmvec, <= 4 ulp). */
#include "harness.h"

void vec_atan2(int n, const double *y, const double *x, double *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        r[i] = atan2(y[i], x[i]);
}

int main(int argc, char **argv)
{
    static double y[S2S_CAP], x[S2S_CAP], r[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(y, n, -10.0, 10.0);
        s2s_fill_f64(x, n, -10.0, 10.0);
        s2s_fill_f64(r, S2S_CAP, 7.0, 8.0);
        vec_atan2(n, s2s_tail(0, y, n * sizeof y[0]), s2s_tail(1, x, n * sizeof x[0]), r);
        s2s_out_ulp_f64("atan2", r, n);
        S2S_OUT("guard", r + n, S2S_GUARD);
    }
    return 0;
}
