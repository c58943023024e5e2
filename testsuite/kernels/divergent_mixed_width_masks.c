/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_mixed_width_masks: conditions computed at one element width
 * guard memory and values of other widths: a double compare masks u8 and
 * i16 stores, a byte compare masks a double load and an int64 store, inside
 * a divergent loop whose live mask comes from 16-bit data. */
#include "harness.h"

void mixw(int n, const double *d, const uint8_t *b, const int16_t *h, uint8_t *ob, int16_t *oh,
          int64_t *ol, double *od)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (d[i] > 0.0) {
            ob[i] = (uint8_t)(b[i] + 1);
            oh[i] = (int16_t)(h[i] - 1);
        }
        if (b[i] & 1) {
            od[i] = d[i] * 2.0;
            ol[i] = (int64_t)h[i] * 100000;
        }
        int16_t k = h[i];
        double acc = 0.0;
        while (k > 0) {
            if (b[i] > 128)
                ob[i] ^= (uint8_t)k;
            acc += d[i];
            k = (int16_t)(k - 3);
        }
        od[n + i] = acc;
    }
}

int main(int argc, char **argv)
{
    static double d[S2S_CAP], od[2 * S2S_CAP + S2S_GUARD];
    static uint8_t b[S2S_CAP], ob[S2S_CAP];
    static int16_t h[S2S_CAP], oh[S2S_CAP];
    static int64_t ol[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                int on = s2s_pattern(p, i, n);
                d[i] = on ? s2s_f64(0.5, 3.0) : -s2s_f64(0.0, 3.0);
                b[i] = (uint8_t)s2s_u32();
                h[i] = on ? (int16_t)s2s_int(1, 30) : (int16_t)s2s_int(-100, 0);
            }
            memset(ob, 0x11, sizeof ob);
            memset(oh, 0x22, sizeof oh);
            memset(ol, 0x33, sizeof ol);
            memset(od, 0x44, sizeof od);
            mixw(n, s2s_tail(0, d, n * sizeof d[0]), s2s_tail(1, b, (size_t)n), s2s_tail(2, h, n * sizeof h[0]),
                 ob, oh, ol, od);
            S2S_OUT("ob", ob, n + S2S_GUARD);
            S2S_OUT("oh", oh, n + S2S_GUARD);
            S2S_OUT("ol", ol, n + S2S_GUARD);
            S2S_OUT("od", od, 2 * n + S2S_GUARD);
        }
    }
    return 0;
}
