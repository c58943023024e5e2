/* s2s-test: vectorized=1 tolerance=exact maxwidth=4 scalable_vectorized=0 */
/* divergent_safelen_loop: a divergent while loop in a loop with
 * safelen(4): the vector code must not use more than 4 lanes (narrower
 * than every target's natural width for 16-bit data), and the live mask
 * and live-out tracking work at that width. */
#include "harness.h"

void halve(int n, const int16_t *x, int16_t *y, int16_t *k_out)
{
#pragma omp simd safelen(4)
    for (int i = 0; i < n; i++) {
        int16_t v = x[i], k = 0;
        while (v > 7 || v < -7) {
            v = (int16_t)(v / 3);
            k++;
        }
        y[i] = v;
        k_out[i] = k;
    }
}

int main(int argc, char **argv)
{
    static int16_t x[S2S_CAP], y[S2S_CAP], k[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (int16_t)s2s_int(-32768, 32767) : (int16_t)s2s_int(-7, 7);
            s2s_fill_i16(y, S2S_CAP, 9, 9);
            s2s_fill_i16(k, S2S_CAP, 9, 9);
            halve(n, s2s_tail(0, x, n * sizeof x[0]), y, k);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("k", k, n + S2S_GUARD);
        }
    }
    return 0;
}
