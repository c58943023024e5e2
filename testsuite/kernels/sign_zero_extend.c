/* s2s-test: vectorized=1 tolerance=exact */
/* sign_zero_extend: widening conversions (signed char, unsigned short,
 * int, unsigned -> 64-bit integers and double) must sign- or zero-extend
 * according to the source type, and narrowing keeps the low bits. */
#include "harness.h"

void widen(int n, const signed char *c, const unsigned short *us, const int *k, const unsigned *u,
           long long *l, unsigned long long *ul, double *d, short *narrow)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        l[i] = c[i] + (long long)k[i];
        ul[i] = (unsigned long long)k[i] + u[i] + us[i];
        d[i] = (double)us[i] - (double)c[i] + (double)u[i];
        narrow[i] = (short)(k[i] + 40000);
    }
}

int main(int argc, char **argv)
{
    static signed char c[S2S_CAP];
    static unsigned short us[S2S_CAP];
    static int k[S2S_CAP];
    static unsigned u[S2S_CAP];
    static long long l[S2S_CAP];
    static unsigned long long ul[S2S_CAP];
    static double d[S2S_CAP];
    static short narrow[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i8((int8_t *)c, n);
        for (int i = 0; i < n; i++) us[i] = (unsigned short)s2s_u32();
        s2s_fill_i32(k, n, -2147483647 - 1, 2147483647 - 40000);
        s2s_fill_u32(u, n);
        s2s_fill_i64((int64_t *)l, S2S_CAP, 0, 0);
        s2s_fill_u64((uint64_t *)ul, S2S_CAP);
        s2s_fill_f64(d, S2S_CAP, 0, 0);
        s2s_fill_i16(narrow, S2S_CAP, 0, 0);
        widen(n, s2s_tail(0, c, n), s2s_tail(1, us, n * sizeof us[0]), s2s_tail(2, k, n * sizeof k[0]),
              s2s_tail(3, u, n * sizeof u[0]), l, ul, d, narrow);
        S2S_OUT("l", l, n + S2S_GUARD);
        S2S_OUT("ul", ul, n + S2S_GUARD);
        S2S_OUT("d", d, n + S2S_GUARD);
        S2S_OUT("narrow", narrow, n + S2S_GUARD);
    }
    return 0;
}
