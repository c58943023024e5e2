/* s2s-test: vectorized=1 tolerance=exact */
/* casts_double_int64: double -> long long / unsigned long long truncation
 * for values beyond 2^31 and 2^63 (no such AVX2 instruction), and
 * float -> short via int. */
#include "harness.h"

void to_i64(int n, const double *d, const float *f, long long *l, unsigned long long *u, short *s)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        l[i] = (long long)d[i];
        u[i] = (unsigned long long)(fabs(d[i]) * 4.0);
        s[i] = (short)(int)f[i];
    }
}

int main(int argc, char **argv)
{
    static double d[S2S_CAP];
    static float f[S2S_CAP];
    static long long l[S2S_CAP];
    static unsigned long long u[S2S_CAP];
    static short s[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(d, n, -4e18, 4e18);
        for (int i = 1; i < n; i += 3) d[i] = s2s_f64(-10.0, 10.0);
        s2s_fill_f32(f, n, -32000.0, 32000.0);
        s2s_fill_i64((int64_t *)l, S2S_CAP, 0, 0);
        s2s_fill_u64((uint64_t *)u, S2S_CAP);
        s2s_fill_i16(s, S2S_CAP, 0, 0);
        to_i64(n, s2s_tail(0, d, n * sizeof d[0]), s2s_tail(1, f, n * sizeof f[0]), l, u, s);
        S2S_OUT("l", l, n + S2S_GUARD);
        S2S_OUT("u", u, n + S2S_GUARD);
        S2S_OUT("s", s, n + S2S_GUARD);
    }
    return 0;
}
