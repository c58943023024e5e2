/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_ternary_guarded: nested ?: whose arms read memory only valid
 * when their condition holds (a gather through a possibly negative index,
 * an element past the valid prefix) and divide by a value that is zero on
 * the other arm; both arms have different types converted to the result. */
#include "harness.h"

void tern(int n, int m, const int32_t *idx, const float *tab, const int16_t *s, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t j = idx[i];
        y[i] = j < 0 ? (float)(j == -1 ? 0 : 1000 / (j + 1))
                     : (j < m ? tab[j] : (float)s[i] / 4.0f);
    }
}

int main(int argc, char **argv)
{
    static int32_t idx[S2S_CAP];
    static float tab[S2S_CAP], y[S2S_CAP];
    static int16_t s[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            int m = n / 3;
            s2s_fill_f32(tab, m, -5.0, 5.0);
            s2s_fill_i16(s, n, -30000, 30000);
            for (int i = 0; i < n; i++)
                idx[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(-50, -1) : (int32_t)s2s_int(0, 2 * n);
            s2s_fill_f32(y, S2S_CAP, 1.5, 1.5);
            tern(n, m, s2s_tail(0, idx, n * sizeof idx[0]), s2s_tail(1, tab, m * sizeof tab[0]),
                 s2s_tail(2, s, n * sizeof s[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
