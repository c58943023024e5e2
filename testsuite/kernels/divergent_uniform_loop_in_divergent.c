/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_uniform_loop_in_divergent: a uniform inner for loop (fixed
 * number of taps, from a parameter) inside a divergent while loop: the
 * inner loop runs only for the lanes still live, reads a coefficient
 * table with a uniform index and keeps its own uniform trip count. */
#include "harness.h"

void filt(int n, int taps, const float *coef, const float *x, const int32_t *reps, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float v = x[i];
        int32_t r = reps[i];
        while (r > 0) {
            float acc = 0.0f;
            for (int t = 0; t < taps; t++)
                acc = acc * v + coef[t];
            v = acc * 0.5f;
            r--;
        }
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static float coef[16], x[S2S_CAP], y[S2S_CAP];
    static int32_t reps[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int taps = 0; taps <= 6; taps += 3) {
            for (int p = 0; p < S2S_NPATTERNS; p++) {
                s2s_fill_f32(coef, 16, -1.0, 1.0);
                s2s_fill_f32(x, n, -1.0, 1.0);
                for (int i = 0; i < n; i++)
                    reps[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 6) : (int32_t)s2s_int(-3, 0);
                s2s_fill_f32(y, S2S_CAP, 4.0, 4.0);
                filt(n, taps, coef, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, reps, n * sizeof reps[0]), y);
                S2S_OUT_FP("y", y, n + S2S_GUARD);
            }
        }
    }
    return 0;
}
