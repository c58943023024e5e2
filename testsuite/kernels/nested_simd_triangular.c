/* s2s-test: vectorized=1 tolerance=exact */
/* nested_simd_triangular: the annotated loop sits in a scalar outer loop
 * and its bounds depend on the outer variable (a triangle: trip counts
 * 0, 1, 2, ... so every remainder length occurs). */
#include "harness.h"

void tri(int n, const float *x, float *out)
{
    for (int r = 0; r < n; r++) {
#pragma omp simd
        for (int c = r; c < n; c++)
            out[c] += x[c - r] * (float)(r + 1);
    }
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        if (n > 200) continue;   /* quadratic: keep it quick */
        s2s_fill_f32(x, n, -1.0, 1.0);
        s2s_fill_f32(out, S2S_CAP, 0.0, 0.0);
        tri(n, x, out);
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
