/* s2s-test: vectorized=? tolerance=exact */
/* declare_simd_narrower_variant: declare simd functions whose simdlen is
 * fewer lanes than the loop's registers hold (simdlen(4) of int on AVX-512
 * and AVX2).  The loop takes the variant's lanes, so the calls go to the
 * vector variants instead of running lane by lane: unmasked in the first
 * loop, masked (inbranch) under the if of the second. */
#include "harness.h"

#pragma omp declare simd simdlen(4) notinbranch
int mix(int a, int b)
{
    int r = a * 3 - b;
    if (r < 0) r = -r / 2;
    return r;
}

#pragma omp declare simd simdlen(4) inbranch uniform(k)
float scale(float x, int k)
{
    return x * (float)k + 0.5f;
}

void kern(int n, const int *a, const int *b, int *c, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        c[i] = mix(a[i], b[i]) + i;
#pragma omp simd
    for (int i = 0; i < n; i++)
        if (a[i] > 100)
            y[i] = scale(x[i], 3);
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP], c[S2S_CAP];
    static float x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_i32(b, n, -1000, 1000);
        s2s_fill_f32(x, n, -10.0f, 10.0f);
        for (int i = 0; i < S2S_CAP; i++) { c[i] = 7; y[i] = -1.0f; }
        kern(n, a, b, c, x, y);
        S2S_OUT("c", c, n + S2S_GUARD);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
/* The report's lanes and calls: tests/test_declare_simd_calls.py. */
