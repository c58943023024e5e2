/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_switch_default_middle: default in the middle of a divergent
 * switch, falling through into the next case; a case with an empty body
 * sharing the arm below; float arithmetic in the arms. */
#include "harness.h"

void mid(int n, const int16_t *k, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float v = x[i];
        switch (k[i]) {
        case 10:
            v = v + 1.0f;
            break;
        case 20:
            v = v * 2.0f;
        default:
            v = v - 0.25f;
            /* fall through */
        case 30:
        case 31:
            v = v * v;
            break;
        case 40:
            v = -v;
        }
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static int16_t k[S2S_CAP];
    static float x[S2S_CAP], y[S2S_CAP];
    static const int16_t keys[] = {10, 20, 30, 31, 40, 0, 11, -30};
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                k[i] = s2s_pattern(p, i, n) ? keys[s2s_int(0, 7)] : 40;
                x[i] = (float)s2s_f64(-10.0, 10.0);
            }
            s2s_fill_f32(y, S2S_CAP, 3.0, 3.0);
            mid(n, s2s_tail(0, k, n * sizeof k[0]), s2s_tail(1, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
