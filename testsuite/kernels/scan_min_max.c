/* s2s-test: vectorized=4 tolerance=exact */
/* scan_min_max: running minima and maxima with '#pragma omp scan': an
 * inclusive min of int64_t, an exclusive max of float (the identity is
 * -INFINITY, seen by the first iteration's scan phase when x starts
 * there), an inclusive max of double under ?: and an exclusive min of
 * uint16_t.  min and max round nothing: exact. */
#include "harness.h"
#include <math.h>

int64_t scan_min_i64(int n, const int64_t *a, int64_t *b)
{
    int64_t x = 1000000;
#pragma omp simd reduction(inscan, min: x)
    for (int i = 0; i < n; i++) {
        x = a[i] < x ? a[i] : x;
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

float scan_max_f32(int n, const float *a, float *b)
{
    float x = -INFINITY;
#pragma omp simd reduction(inscan, max: x)
    for (int i = 0; i < n; i++) {
        b[i] = x;
#pragma omp scan exclusive(x)
        x = x > a[i] ? x : a[i];
    }
    return x;
}

double scan_max_f64(int n, const double *a, double *b)
{
    double x = 0.5;
#pragma omp simd reduction(inscan, max: x)
    for (int i = 0; i < n; i++) {
        x = x < a[i] * 2.0 ? a[i] * 2.0 : x;
#pragma omp scan inclusive(x)
        b[i] = x - a[i];
    }
    return x;
}

unsigned short scan_min_u16(int n, const unsigned short *a, unsigned short *b)
{
    unsigned short x = 60000;
#pragma omp simd reduction(inscan, min: x)
    for (int i = 0; i < n; i++) {
        b[i] = (unsigned short)(x + 1);
#pragma omp scan exclusive(x)
        x = a[i] < x ? a[i] : x;
    }
    return x;
}

int main(int argc, char **argv)
{
    static int64_t a[S2S_CAP], b[S2S_CAP];
    static float f[S2S_CAP], g[S2S_CAP];
    static double p[S2S_CAP], q[S2S_CAP];
    static unsigned short u[S2S_CAP], v[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i64(a, n, -1000000000LL, 1000000000LL);
        s2s_fill_f32(f, n, -100.0, 100.0);
        s2s_fill_f64(p, n, -100.0, 100.0);
        for (int i = 0; i < n; i++) u[i] = (unsigned short)s2s_int(0, 65535);
        for (int i = 0; i < S2S_CAP; i++) b[i] = 1;
        s2s_out_i64("min_i64", scan_min_i64(n, s2s_tail(0, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) g[i] = 1.0f;
        s2s_out_f64("max_f32", scan_max_f32(n, s2s_tail(1, f, n * sizeof f[0]), g));
        S2S_OUT("g", g, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) q[i] = 1.0;
        s2s_out_f64("max_f64", scan_max_f64(n, s2s_tail(2, p, n * sizeof p[0]), q));
        S2S_OUT("q", q, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) v[i] = 1;
        s2s_out_i64("min_u16", scan_min_u16(n, s2s_tail(3, u, n * sizeof u[0]), v));
        S2S_OUT("v", v, n + S2S_GUARD);
    }
    return 0;
}
