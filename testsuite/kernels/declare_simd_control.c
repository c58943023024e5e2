/* s2s-test: vectorized=? tolerance=exact grep="_ZGVeN8vv_powi" */
/* declare_simd_control: bodies with a divergent loop (square-and-multiply
 * bounded by a varying parameter), an early return on some lanes, and a
 * declare simd body calling another declare simd function (its variant,
 * masked under the divergent branch). */
#include "harness.h"

#pragma omp declare simd
double powi(double b, int64_t e)
{
    double r = 1.0;
    while (e > 0) {
        if (e & 1) r *= b;
        b *= b;
        e >>= 1;
    }
    return r;
}

#pragma omp declare simd
int32_t first_bit(int32_t v)
{
    if (v == 0) return -1;
    int32_t k = 0;
    while (!(v & 1)) { v >>= 1; k++; }
    return k;
}

#pragma omp declare simd
double outer(double x, int64_t e)
{
    if (x < 0.0) return -powi(-x, e);
    return powi(x, e) + 1.0;
}

void kern(int n, const double *x, const int64_t *e, const int32_t *v,
          double *o1, int32_t *o2, double *o3)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o1[i] = powi(x[i], e[i]);
#pragma omp simd
    for (int i = 0; i < n; i++)
        o2[i] = first_bit(v[i]);
#pragma omp simd
    for (int i = 0; i < n; i++)
        o3[i] = outer(x[i], e[i]);
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], o1[S2S_CAP], o3[S2S_CAP];
    static int64_t e[S2S_CAP];
    static int32_t v[S2S_CAP], o2[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                x[i] = (double)s2s_int(-40, 40) / 16.0;
                e[i] = s2s_pattern(p, i, n) ? 0 : s2s_int(0, 9);
                v[i] = s2s_pattern(p, i, n) ? 0 : (int32_t)s2s_int(1, 1 << 20);
            }
            for (int i = 0; i < S2S_CAP; i++) { o1[i] = -1; o2[i] = -1; o3[i] = -1; }
            kern(n, x, e, v, o1, o2, o3);
            S2S_OUT("o1", o1, n + S2S_GUARD);
            S2S_OUT("o2", o2, n + S2S_GUARD);
            S2S_OUT("o3", o3, n + S2S_GUARD);
        }
    }
    return 0;
}
