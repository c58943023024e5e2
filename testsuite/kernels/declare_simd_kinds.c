/* s2s-test: vectorized=? tolerance=exact grep="_ZGVdN4uvl_scale_at|_ZGVeM16v_clampf" */
/* declare_simd_kinds: every parameter kind a C declare simd function takes
 * (uniform, varying, linear with a constant step, linear pointer, linear
 * with a uniform step), float/double/int/short returns, a divergent if/else
 * in the bodies, called from simd loops: unmasked, and masked under a
 * divergent condition (the masked variant).  The variants are exercised
 * through the calls; the scalar functions by the reference. */
#include "harness.h"

#pragma omp declare simd uniform(a) linear(i:1)
double scale_at(const double *a, double s, int i)
{
    if (s > 0.0)
        return a[i] * s;
    return a[i] - s;
}

#pragma omp declare simd
float clampf(float x)
{
    if (x > 4.0f) x = 4.0f;
    else if (x < -4.0f) x = -4.0f;
    return x * 0.5f;
}

#pragma omp declare simd linear(p) uniform(k)
int32_t mix(const int32_t *p, int32_t k, int32_t x)
{
    int32_t r = *p ^ x;
    if (r & 1) r = r * k;
    return r;
}

#pragma omp declare simd uniform(st) linear(j:st)
int16_t pick(const int16_t *base, int st, int j)
{
    return (int16_t)(base[0] + j);
}

void kern(int n, const double *a, const double *s, const float *x, const int32_t *q,
          double *o1, float *o2, int32_t *o3, int16_t *o4, const int16_t *b16)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o1[i] = scale_at(a, s[i], i);
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (x[i] != 0.25f)
            o2[i] = clampf(x[i] * 3.0f);
        else
            o2[i] = 9.0f;
    }
#pragma omp simd
    for (int i = 0; i < n; i++)
        o3[i] = mix(&q[i], 3, q[i] >> 2);
#pragma omp simd
    for (int i = 0; i < n; i++)
        o4[i] = pick(b16, 2, 2 * i);
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], s[S2S_CAP], o1[S2S_CAP];
    static float x[S2S_CAP], o2[S2S_CAP];
    static int32_t q[S2S_CAP], o3[S2S_CAP];
    static int16_t o4[S2S_CAP], b16[4];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_f64(a, n, -100.0, 100.0);
            for (int i = 0; i < n; i++) {
                s[i] = s2s_pattern(p, i, n) ? 1.5 : -2.0;
                x[i] = s2s_pattern(p, i, n) ? 0.25f : (float)s2s_int(-30, 30) * 0.5f;
                q[i] = (int32_t)s2s_int(-100000, 100000);
            }
            b16[0] = (int16_t)s2s_int(-100, 100);
            for (int i = 0; i < S2S_CAP; i++) { o1[i] = -1; o2[i] = -1; o3[i] = -1; o4[i] = -1; }
            kern(n, a, s, x, q, o1, o2, o3, o4, b16);
            S2S_OUT("o1", o1, n + S2S_GUARD);
            S2S_OUT("o2", o2, n + S2S_GUARD);
            S2S_OUT("o3", o3, n + S2S_GUARD);
            S2S_OUT("o4", o4, n + S2S_GUARD);
        }
    }
    return 0;
}
