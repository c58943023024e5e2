/* s2s-test: vectorized=1 tolerance=exact */
/* linear_pointer: a pointer advanced in the body, declared linear(p:1)
 * (step in elements); its final value after the loop is sequential. */
#include "harness.h"

long copy_through(int n, const float *x, float *out)
{
    float *p = out;
#pragma omp simd linear(p:1)
    for (int i = 0; i < n; i++) {
        *p = x[i] + 1.0f;
        p++;
    }
    return (long)(p - out);
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(x, n, -1.0, 1.0);
        s2s_fill_f32(out, S2S_CAP, 3.0, 3.0);
        s2s_out_i64("advanced", copy_through(n, s2s_tail(0, x, n * sizeof x[0]), out));
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
