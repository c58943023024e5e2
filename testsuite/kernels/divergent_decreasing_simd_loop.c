/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_decreasing_simd_loop: a decreasing simd loop (i from n-1 down
 * to 0) with a divergent inner loop and a divergent if: lane order is
 * reversed relative to memory, so contiguous loads/stores are reversed and
 * masks must follow. */
#include "harness.h"

void down(int n, const uint16_t *x, uint16_t *y, int32_t *z)
{
#pragma omp simd
    for (int i = n - 1; i >= 0; i--) {
        uint16_t v = x[i];
        int32_t c = 0;
        while (v != 0 && c < 20) {
            v = (uint16_t)(v & (v - 1));
            c++;
        }
        if (c & 1)
            y[i] = (uint16_t)(x[i] ^ 0xFFFF);
        z[i] = c;
    }
}

int main(int argc, char **argv)
{
    static uint16_t x[S2S_CAP], y[S2S_CAP];
    static int32_t z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (uint16_t)s2s_u32() : (uint16_t)(1u << s2s_int(0, 15));
            s2s_fill_i32(z, S2S_CAP, 4, 4);
            memset(y, 0x77, sizeof y);
            down(n, s2s_tail(0, x, n * sizeof x[0]), y, z);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("z", z, n + S2S_GUARD);
        }
    }
    return 0;
}
