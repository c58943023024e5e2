/* s2s-test: vectorized=1 tolerance=exact */
/* dead_select_of_conversion_stays_scalar: an unused local holding a select
 * of a float-to-unsigned conversion makes every target give up with
 * "loop not vectorized for avx2: value <Cast 140315784146448 : u32> used
 * before its definition" (an internal object, not the user's construct);
 * the loop stays scalar, so the output is right, but the loop should be
 * vectorized (drop the dead line and it is).  Used values of the same form
 * vectorize.  A few percent of generated loops stay scalar with this
 * message (reduced from testsuite/fuzz seed 308 --small, where the value
 * was not dead; the reduction kept the message). */
#include "harness.h"

void f(int n, const float *x, uint32_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float v = x[i];
        uint32_t t = (v > -1.0f) ? (uint32_t)v : 0u;   /* never used */
        out[i] = (uint32_t)i * 3u;
    }
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP];
    static uint32_t out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, S2S_CAP, -10.0, 1e6);
        s2s_fill_u32(out, S2S_CAP);
        f(n, s2s_tail(0, x, (size_t)n * sizeof x[0]), out);
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
