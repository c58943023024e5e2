/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_do_while_continue: `continue` in a divergent do-while jumps to
 * the loop condition (not to the top of the body): a lane that continues
 * on its last trip must still leave the loop, and the condition sees the
 * values as the continue left them. */
#include "harness.h"

void dwc(int n, const uint32_t *x, int32_t *odd, int32_t *even, uint32_t *left)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t v = x[i];
        int32_t o = 0, e = 0;
        do {
            uint32_t bit = v & 1u;
            v >>= 1;
            if (bit) {
                o++;
                continue;
            }
            e++;
            if (e > 6)
                v >>= 2;
        } while (v != 0u);
        odd[i] = o;
        even[i] = e;
        left[i] = v;
    }
}

int main(int argc, char **argv)
{
    static uint32_t x[S2S_CAP], left[S2S_CAP];
    static int32_t odd[S2S_CAP], even[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? s2s_u32() : (uint32_t)s2s_int(0, 3);
            s2s_fill_i32(odd, S2S_CAP, 1, 1);
            s2s_fill_i32(even, S2S_CAP, 1, 1);
            s2s_fill_u32(left, S2S_CAP);
            dwc(n, s2s_tail(0, x, n * sizeof x[0]), odd, even, left);
            S2S_OUT("odd", odd, n + S2S_GUARD);
            S2S_OUT("even", even, n + S2S_GUARD);
            S2S_OUT("left", left, n + S2S_GUARD);
        }
    }
    return 0;
}
