/* s2s-test: vectorized=1 tolerance=exact scalable_vectorized=0 */
/* safelen2_mixed_masks: safelen(2) gives AVX2 two lanes, so the 64-bit
 * compare's mask (__m128i of two 64-bit lanes) must become the mask of two
 * 32-bit lanes for the gather under it; that conversion was missing
 * ("internal error: no mask conversion m64x2 -> m32x2", program generator
 * seed 735134020), and the masked gather of 16-bit elements, done lane by
 * lane, left its inactive lanes unset for the conversion that read them
 * (-Wmaybe-uninitialized). */
#include "harness.h"

void pick(int n, const double *a, const int32_t *idx, const uint16_t *c, const int32_t *b,
          int32_t *out)
{
#pragma omp simd safelen(2)
    for (int i = 0; i < n; i++) {
        int32_t v = -1;
        if (a[i] > 0.5)
            v = c[idx[i]];
        out[i] = v + b[i];
    }
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP];
    static int32_t idx[S2S_CAP], b[S2S_CAP], out[S2S_CAP];
    static uint16_t c[64];
    (void)argc; (void)argv;
    for (int k = 0; k < 64; k++)
        c[k] = (uint16_t)s2s_int(0, 65535);
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                a[i] = s2s_pattern(p, i, n) ? 1.0 : 0.0;
                idx[i] = (int32_t)s2s_int(0, 63);
                b[i] = (int32_t)s2s_int(-1000, 1000);
                out[i] = 7;
            }
            pick(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, idx, n * sizeof idx[0]), c,
                 s2s_tail(2, b, n * sizeof b[0]), out);
            for (int i = 0; i < n; i++)
                s2s_out_i64("out", out[i]);
        }
    }
    return 0;
}
