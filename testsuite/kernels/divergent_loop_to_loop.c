/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_loop_to_loop: the live-outs of one divergent loop are the
 * bounds and start values of the next one in the same iteration, and the
 * second loop's result decides (divergently) whether a third one runs. */
#include "harness.h"

void chain(int n, const uint32_t *x, uint32_t *y, int32_t *z)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t v = x[i];
        int32_t bits = 0;
        while (v) {
            bits += (int32_t)(v & 1u);
            v >>= 1;
        }
        uint32_t w = x[i];
        for (int32_t k = 0; k < bits; k++)
            w = w * 2654435761u + (uint32_t)k;
        int32_t extra = 0;
        if (w & 4u) {
            uint32_t t = w >> 28;
            while (t > 0u) {
                t = t / 2u;
                extra++;
            }
        }
        y[i] = w;
        z[i] = bits * 10 + extra;
    }
}

int main(int argc, char **argv)
{
    static uint32_t x[S2S_CAP], y[S2S_CAP];
    static int32_t z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? s2s_u32() : s2s_u32() & 0x11u;
            s2s_fill_u32(y, S2S_CAP);
            s2s_fill_i32(z, S2S_CAP, 0, 0);
            chain(n, s2s_tail(0, x, n * sizeof x[0]), y, z);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("z", z, n + S2S_GUARD);
        }
    }
    return 0;
}
