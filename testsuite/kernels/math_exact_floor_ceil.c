/* s2s-test: vectorized=1 tolerance=exact */
/* math_exact_floor_ceil: floor/ceil/floorf with negative values, halves,
 * integers and values in (-1, 0) where ceil gives -0.0. */
#include "harness.h"

void fc(int n, const double *x, double *f, double *c, const float *xf, float *ff)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        f[i] = floor(x[i]);
        c[i] = ceil(x[i]);
        ff[i] = floorf(xf[i]);
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], f[S2S_CAP], c[S2S_CAP];
    static float xf[S2S_CAP], ff[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) {
            x[i] = (i % 4 == 0) ? (double)s2s_int(-20, 20) * 0.5 : s2s_f64(-3.0, 3.0);
            xf[i] = (float)(i % 3 == 0 ? -0.25 : s2s_f64(-1e7, 1e7));
        }
        s2s_fill_f64(f, S2S_CAP, 0.0, 1.0);
        s2s_fill_f64(c, S2S_CAP, 0.0, 1.0);
        s2s_fill_f32(ff, S2S_CAP, 0.0, 1.0);
        fc(n, s2s_tail(0, x, n * sizeof x[0]), f, c, s2s_tail(1, xf, n * sizeof xf[0]), ff);
        S2S_OUT("floor", f, n + S2S_GUARD);
        S2S_OUT("ceil", c, n + S2S_GUARD);
        S2S_OUT("floorf", ff, n + S2S_GUARD);
    }
    return 0;
}
