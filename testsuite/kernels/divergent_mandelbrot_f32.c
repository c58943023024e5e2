/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_mandelbrot_f32: escape-time Mandelbrot in float: a for loop
 * with a break on |z|^2 > 4 (per-lane trip count 0..maxit), the iteration
 * count and the last z live out.  Points inside the set run to maxit,
 * points far outside leave on the first iteration. */
#include "harness.h"

void mandel(int n, int maxit, const float *cr, const float *ci, int32_t *count, float *zr_out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float zr = 0.0f, zi = 0.0f;
        int32_t k;
        for (k = 0; k < maxit; k++) {
            float zr2 = zr * zr, zi2 = zi * zi;
            if (zr2 + zi2 > 4.0f)
                break;
            zi = 2.0f * zr * zi + ci[i];
            zr = zr2 - zi2 + cr[i];
        }
        count[i] = k;
        zr_out[i] = zr;
    }
}

int main(int argc, char **argv)
{
    static float cr[S2S_CAP], ci[S2S_CAP], zr[S2S_CAP];
    static int32_t count[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                if (s2s_pattern(p, i, n)) {     /* inside or near the set */
                    cr[i] = (float)s2s_f64(-0.6, 0.3);
                    ci[i] = (float)s2s_f64(-0.5, 0.5);
                } else {                        /* escapes quickly */
                    cr[i] = (float)s2s_f64(1.0, 3.0);
                    ci[i] = (float)s2s_f64(-3.0, 3.0);
                }
            }
            for (int maxit = 0; maxit <= 64; maxit += 64) {
                s2s_fill_i32(count, S2S_CAP, -1, -1);
                s2s_fill_f32(zr, S2S_CAP, 5.0, 5.0);
                mandel(n, maxit, s2s_tail(0, cr, n * sizeof cr[0]), s2s_tail(1, ci, n * sizeof ci[0]),
                       count, zr);
                S2S_OUT("count", count, n + S2S_GUARD);
                S2S_OUT_FP("zr", zr, n + S2S_GUARD);
            }
        }
    }
    return 0;
}
