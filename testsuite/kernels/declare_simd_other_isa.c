/* s2s-test: vectorized=? tolerance=exact grep="_ZGVbN4v_halve|_ZGVdN8v_halve|_ZGVbM4v_halve" */
/* declare_simd_other_isa: a loop whose width is not the default simdlen of
 * the function's variants for the loop's own ISA calls another ISA's
 * variant of the loop's width whose registers hold the vectors as they are:
 * a double loop of 4 lanes on AVX2 calls float halve's SSE ("b") variant of
 * 4 lanes (__m128), as gcc does; on AVX-512 the 8-lane double loop calls the
 * AVX2 ("d") variant of 8 lanes; masked under a divergent condition on AVX2
 * (vector masks on both sides), per lane on AVX-512 (its masks are bits). */
#include "harness.h"

#pragma omp declare simd
float halve(float x)
{
    if (x < 0.0f)
        return -x * 0.5f;
    return x * 0.5f + 1.0f;
}

void mixed(int n, const double *a, const float *b, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = a[i] + (double)halve(b[i]);
}

void masked(int n, const double *a, const float *b, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double v = a[i];
        if (v > 0.25)
            v += (double)halve(b[i]);
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], y[S2S_CAP];
    static float b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(a, S2S_CAP, -1.0, 1.0);
        s2s_fill_f32(b, S2S_CAP, -100.0f, 100.0f);
        s2s_fill_f64(y, S2S_CAP, -9.0, -1.0);
        mixed(n, a, b, y);
        S2S_OUT("mixed", y, n + S2S_GUARD);
        s2s_fill_f64(y, S2S_CAP, -9.0, -1.0);
        masked(n, a, b, y);
        S2S_OUT("masked", y, n + S2S_GUARD);
    }
    return 0;
}
