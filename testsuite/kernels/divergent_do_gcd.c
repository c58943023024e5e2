/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_do_gcd: Euclid's algorithm as a do-while loop guarded by a
 * divergent if (b != 0), unsigned 32-bit remainder per lane; the gcd and
 * the number of division steps are live out. */
#include "harness.h"

void gcd(int n, const uint32_t *a, const uint32_t *b, uint32_t *g, int32_t *steps)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t x = a[i], y = b[i];
        int32_t k = 0;
        if (y != 0u) {
            do {
                uint32_t t = x % y;
                x = y;
                y = t;
                k++;
            } while (y != 0u);
        }
        g[i] = x;
        steps[i] = k;
    }
}

int main(int argc, char **argv)
{
    static uint32_t a[S2S_CAP], b[S2S_CAP], g[S2S_CAP];
    static int32_t steps[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                a[i] = s2s_u32() >> (s2s_u32() % 32u);
                b[i] = s2s_pattern(p, i, n) ? s2s_u32() >> (s2s_u32() % 32u) : 0u;
            }
            if (n > 3) { a[1] = 0u; b[2] = 1u; }
            if (n > 5) { a[4] = 1836311903u; b[4] = 1134903170u; }  /* Fibonacci: many steps */
            s2s_fill_u32(g, S2S_CAP);
            s2s_fill_i32(steps, S2S_CAP, -1, -1);
            gcd(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), g, steps);
            S2S_OUT("g", g, n + S2S_GUARD);
            S2S_OUT("steps", steps, n + S2S_GUARD);
        }
    }
    return 0;
}
