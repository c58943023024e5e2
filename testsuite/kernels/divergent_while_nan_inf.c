/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_while_nan_inf: a float while loop whose condition is false on
 * NaN (the lane never enters), a loop that ends on infinity, and a
 * do-while that runs once even for NaN; negative zero, subnormals and
 * huge values give very different trip counts. */
#include "harness.h"

void grow(int n, const float *x, float *y, int32_t *k1, int32_t *k2)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float v = x[i];
        int32_t a = 0;
        while (v < 1000.0f && v > -1000.0f) {
            v = v * 3.0f + (v < 0.0f ? -1.0f : 1.0f);
            a++;
        }
        int32_t b = 0;
        float w = x[i];
        do {
            w = w * 0.5f;
            b++;
        } while (w != 0.0f && b < 400);
        y[i] = v;
        k1[i] = a;
        k2[i] = b;
    }
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    static int32_t k1[S2S_CAP], k2[S2S_CAP];
    static const float special[] = {0.0f, -0.0f, 1e-45f, -1e-40f, 3e38f, INFINITY, -INFINITY, NAN};
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? special[s2s_int(0, 7)] : (float)s2s_f64(-50.0, 50.0);
            s2s_fill_f32(y, S2S_CAP, 2.0, 2.0);
            s2s_fill_i32(k1, S2S_CAP, -1, -1);
            s2s_fill_i32(k2, S2S_CAP, -1, -1);
            grow(n, s2s_tail(0, x, n * sizeof x[0]), y, k1, k2);
            S2S_OUT_FP("y", y, n + S2S_GUARD);
            S2S_OUT("k1", k1, n + S2S_GUARD);
            S2S_OUT("k2", k2, n + S2S_GUARD);
        }
    }
    return 0;
}
