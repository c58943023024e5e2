/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_mandelbrot_f64: escape-time Mandelbrot in double as a while
 * loop whose condition is a short-circuit && of a uniform bound and a
 * per-lane escape test; also the smooth-colouring value zr^2+zi^2 at exit. */
#include "harness.h"

void mandel(int n, const double *cr, const double *ci, int32_t *count, double *mag)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double x = 0.0, y = 0.0, x2 = 0.0, y2 = 0.0;
        int32_t k = 0;
        while (k < 200 && x2 + y2 <= 4.0) {
            y = 2.0 * x * y + ci[i];
            x = x2 - y2 + cr[i];
            x2 = x * x;
            y2 = y * y;
            k++;
        }
        count[i] = k;
        mag[i] = x2 + y2;
    }
}

int main(int argc, char **argv)
{
    static double cr[S2S_CAP], ci[S2S_CAP], mag[S2S_CAP];
    static int32_t count[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                if (s2s_pattern(p, i, n)) {
                    cr[i] = s2s_f64(-2.0, 0.5);
                    ci[i] = s2s_f64(-1.2, 1.2);
                } else {
                    cr[i] = s2s_f64(2.5, 4.0);
                    ci[i] = s2s_f64(-4.0, 4.0);
                }
            }
            s2s_fill_i32(count, S2S_CAP, -1, -1);
            s2s_fill_f64(mag, S2S_CAP, 5.0, 5.0);
            mandel(n, s2s_tail(0, cr, n * sizeof cr[0]), s2s_tail(1, ci, n * sizeof ci[0]), count, mag);
            S2S_OUT("count", count, n + S2S_GUARD);
            S2S_OUT_FP("mag", mag, n + S2S_GUARD);
        }
    }
    return 0;
}
