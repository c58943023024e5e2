/* s2s-test: vectorized=1 tolerance=exact width="avx2:4 avx512:4 neon:4" */
/* divergent_simdlen4_loop: simdlen(4) on 32-bit data (below the
 * natural width): a divergent loop with a break and a divergent if around
 * masked stores, at four lanes (masks of four lanes where the registers
 * hold 8 or 16). */
#include "harness.h"

void narrow(int n, const int32_t *x, int32_t *y, int32_t *z)
{
#pragma omp simd simdlen(4)
    for (int i = 0; i < n; i++) {
        int32_t v = x[i], k = 0;
        while (v != 1 && k < 50) {
            v = v & 1 ? v * 3 + 1 : v / 2;
            k++;
            if (v < 0)
                break;
        }
        y[i] = k;
        if (k & 1)
            z[i] = v;
    }
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP], y[S2S_CAP], z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(2, 10000) : (int32_t)s2s_int(-3, 1);
            s2s_fill_i32(y, S2S_CAP, 3, 3);
            s2s_fill_i32(z, S2S_CAP, 3, 3);
            narrow(n, s2s_tail(0, x, n * sizeof x[0]), y, z);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("z", z, n + S2S_GUARD);
        }
    }
    return 0;
}
