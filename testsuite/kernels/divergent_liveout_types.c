/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_liveout_types: a divergent loop with two exits (condition and
 * break) whose live-outs have every type: _Bool, uint8_t, int16_t,
 * int64_t, float, double and a pointer (read through after the loop); the
 * exit taken decides which value each lane keeps. */
#include "harness.h"

void lo(int n, const int32_t *x, const double *tab, _Bool *ob, uint8_t *o8, int16_t *o16,
        int64_t *o64, float *of, double *od)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        _Bool hit = 0;
        uint8_t u = 0;
        int16_t h = -1;
        int64_t w = 1;
        float f = 0.5f;
        double d = 0.0;
        const double *p = tab;
        int32_t v = x[i];
        while (v > 0) {
            u = (uint8_t)(u + 37);
            h = (int16_t)(h * 3 + 1);
            w = (int64_t)((uint64_t)w * 5u + (uint64_t)v);
            f = f * 1.5f;
            d += 0.25;
            p++;
            if ((v & 15) == 3) {
                hit = 1;
                break;
            }
            v = v / 3;
        }
        ob[i] = hit;
        o8[i] = u;
        o16[i] = h;
        o64[i] = w;
        of[i] = f;
        od[i] = d + *p;
    }
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP];
    static double tab[64], od[S2S_CAP];
    static _Bool ob[S2S_CAP];
    static uint8_t o8[S2S_CAP];
    static int16_t o16[S2S_CAP];
    static int64_t o64[S2S_CAP];
    static float of[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(tab, 64, -1.0, 1.0);
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 2000000000) : (int32_t)s2s_int(-5, 2);
            memset(ob, 0, sizeof ob);
            memset(o8, 0x99, sizeof o8);
            memset(o16, 0x99, sizeof o16);
            memset(o64, 0x99, sizeof o64);
            memset(of, 0x99, sizeof of);
            memset(od, 0x99, sizeof od);
            lo(n, s2s_tail(0, x, n * sizeof x[0]), tab, ob, o8, o16, o64, of, od);
            S2S_OUT("ob", ob, n + S2S_GUARD);
            S2S_OUT("o8", o8, n + S2S_GUARD);
            S2S_OUT("o16", o16, n + S2S_GUARD);
            S2S_OUT("o64", o64, n + S2S_GUARD);
            S2S_OUT("of", of, n + S2S_GUARD);
            S2S_OUT("od", od, n + S2S_GUARD);
        }
    }
    return 0;
}
