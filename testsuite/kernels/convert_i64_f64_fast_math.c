/* s2s-test: vectorized=2 tolerance=exact candidate_cflags="-ffast-math" */
/* convert_i64_f64_fast_math: 64-bit integers to double in a program built
 * with -ffast-math.  AVX2 has no such conversion: s2svec's output adds the
 * high and the low 32 bits as doubles made with magic exponents, and
 * -ffast-math reassociated the magic constants into the sum (a wrong
 * value, not another rounding: xsproxy's energies, 53-bit integers times
 * 2^-53, came out wrong).  The conversion is exact C whatever the flags,
 * so the candidate built with -ffast-math must match the plain reference
 * bit for bit: 53-bit values (exact), large ones (rounded), negative ones. */
#include "harness.h"

void from_u64(int n, double *y, const uint64_t *x)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = (double)(x[i] >> (i & 15));
}

void from_i64(int n, double *y, const int64_t *x)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = (double)(x[i] >> (i & 15));
}

int main(int argc, char **argv)
{
    static uint64_t u[S2S_CAP];
    static int64_t s[S2S_CAP];
    static double y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u64(u, n);
        for (int i = 0; i < n; i++)
            s[i] = (int64_t)u[i];
        s2s_fill_f64(y, S2S_CAP, 3.0, 3.0);
        from_u64(n, y, s2s_tail(0, u, n * sizeof u[0]));
        S2S_OUT("u64", y, n + S2S_GUARD);
        s2s_fill_f64(y, S2S_CAP, 3.0, 3.0);
        from_i64(n, y, s2s_tail(1, s, n * sizeof s[0]));
        S2S_OUT("i64", y, n + S2S_GUARD);
    }
    return 0;
}
