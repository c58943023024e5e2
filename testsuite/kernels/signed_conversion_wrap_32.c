/* s2s-test: vectorized=3 tolerance=exact */
/* signed_conversion_wrap_32 (fuzz seed 20600081, AVX-512): a 32-bit
 * conversion to a signed type wraps past 2^31 (gcc and clang define it so;
 * it is not overflow), and the wrapped value sign-extended to 64 bits is not
 * first + k*step: `(uint64_t)(int32_t)i` of a uint32_t loop variable from
 * 2^31 - 701 jumps from 2^31 - 1 to -2^31 between two lanes (lanes past
 * the jump kept counting up; the jump falls inside a vector for every
 * width).  The same for `(int)i` of a long loop variable, and for the
 * index `(int)(i - base)` sign-extended into an address. */
#include "harness.h"
#include <stdint.h>

void unsigned_to_int(int n, uint64_t *y)
{
    const uint32_t hi = 2147482947u + (uint32_t)n;
#pragma omp simd
    for (uint32_t i = 2147482947u; i < hi; i++)
        y[(int)(i - 2147482947u)] = (uint64_t)(int32_t)i % 7;
}

void long_to_int(int n, int64_t *y)
{
#pragma omp simd
    for (long i = 2147482999L; i < 2147482999L + n; i++)
        y[i - 2147482999L] = (int)i;
}

void unsigned_index(int n, unsigned base, const int *x, int *y)
{
#pragma omp simd
    for (unsigned i = base; i < base + (unsigned)n; i++) {
        int k = (int)(i - base);
        y[k] = x[k] + (int)(i >> 28);
    }
}

int main(int argc, char **argv)
{
    static uint64_t yu[S2S_CAP];
    static int64_t yl[S2S_CAP];
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    s2s_fill_i32(x, S2S_CAP, -1000, 1000);
    S2S_FOR_SIZES(n) {
        s2s_fill_i64((int64_t *)yu, S2S_CAP, -9, -1);
        unsigned_to_int(n, yu);
        S2S_OUT("unsigned_to_int", yu, n + S2S_GUARD);

        s2s_fill_i64(yl, S2S_CAP, -9, -1);
        long_to_int(n, yl);
        S2S_OUT("long_to_int", yl, n + S2S_GUARD);

        s2s_fill_i32(y, S2S_CAP, -9, -1);
        unsigned_index(n, 2147483647u - (unsigned)n / 2, x, y);
        S2S_OUT("unsigned_index", y, n + S2S_GUARD);

    }
    return 0;
}
