/* s2s-test: vectorized=1 tolerance=exact */
/* casts_unsigned_double: unsigned <-> double and uint64 -> double for
 * values above 2^31 / 2^63 (AVX2 only converts signed integers). */
#include "harness.h"

void ucasts(int n, const unsigned *u, const unsigned long long *v, const double *d,
            double *ud, double *vd, unsigned *du)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        ud[i] = (double)u[i];
        vd[i] = (double)v[i];
        du[i] = (unsigned)d[i];
    }
}

int main(int argc, char **argv)
{
    static unsigned u[S2S_CAP], du[S2S_CAP];
    static unsigned long long v[S2S_CAP];
    static double d[S2S_CAP], ud[S2S_CAP], vd[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u32(u, n);
        s2s_fill_u64((uint64_t *)v, n);
        s2s_fill_f64(d, n, 0.0, 4294967295.0);
        if (n > 0) { u[0] = 0xffffffffu; v[0] = 0xffffffffffffffffull; d[0] = 4294967295.0; }
        if (n > 1) { v[1] = (1ull << 63) + 1025; d[1] = 2147483648.5; }
        s2s_fill_f64(ud, S2S_CAP, 0, 0);
        s2s_fill_f64(vd, S2S_CAP, 0, 0);
        s2s_fill_u32(du, S2S_CAP);
        ucasts(n, s2s_tail(0, u, n * sizeof u[0]), s2s_tail(1, v, n * sizeof v[0]),
               s2s_tail(2, d, n * sizeof d[0]), ud, vd, du);
        S2S_OUT("ud", ud, n + S2S_GUARD);
        S2S_OUT("vd", vd, n + S2S_GUARD);
        S2S_OUT("du", du, n + S2S_GUARD);
    }
    return 0;
}
