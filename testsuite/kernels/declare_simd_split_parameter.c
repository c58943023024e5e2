/* s2s-test: vectorized=? tolerance=exact grep="_ZGV[cd]N[48]vv_band\((__extension__|\(__m256d\)\w+, __extension__)" */
/* declare_simd_split_parameter: declare simd functions whose characteristic
 * type (the return's) is narrower than a parameter, so their variants take
 * that parameter in two registers (a double of 8 lanes in two AVX2
 * registers, a long of 4 lanes in two of AVX's 128-bit integer registers):
 * the loop passes its vector in halves, lowest lanes first.  The loops keep
 * the wide parameter's lanes (4 doubles on AVX2, 8 on AVX-512), unmasked and
 * under a mask.  The functions are written long enough to be called rather
 * than inlined. */
#include "harness.h"

#pragma omp declare simd notinbranch
int band(double x, long k)
{
    int r = (int)(k & 0xffff);
    for (int t = 0; t < 3; t++) {
        if (x > 0.5)
            r = r * 3 - t;
        else if (x < -0.25)
            r = r + (int)(x * 16.0) + t;
        else
            r = (r ^ (t + 1)) - (int)(x * 8.0);
        x = x * 0.75 + 0.125;
    }
    return r;
}

#pragma omp declare simd inbranch
float damp(double x, float y)
{
    float s = y;
    for (int t = 0; t < 4; t++) {
        if (s > 2.0f)
            s = s * 0.5f - (float)x;
        else
            s = s + (float)(x * 0.25) + 0.5f;
    }
    return s;
}

void kern(int n, const double *d, const long *e, const float *y, int *o, float *p)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o[i] = band(d[i], e[i]);
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (d[i] > -0.3)
            p[i] = damp(d[i], y[i]);
        else
            p[i] = -y[i];
    }
}

int main(int argc, char **argv)
{
    static double d[S2S_CAP];
    static long e[S2S_CAP];
    static float y[S2S_CAP], p[S2S_CAP];
    static int o[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(d, n, -1.0, 1.0);
        for (int i = 0; i < n; i++) {
            e[i] = (long)s2s_int(-100000, 100000);
            y[i] = (float)s2s_int(-40, 40) * 0.125f;
        }
        for (int i = 0; i < S2S_CAP; i++) { o[i] = 5; p[i] = 9.0f; }
        kern(n, d, e, y, o, p);
        S2S_OUT("o", o, n + S2S_GUARD);
        S2S_OUT("p", p, n + S2S_GUARD);
    }
    return 0;
}
