/* s2s-test: vectorized=1 tolerance=exact */
/* int64_mul: 64-bit multiply (no AVX2 instruction) and add on unsigned
 * 64-bit values, wrapping mod 2^64. */
#include "harness.h"

void mul64(int n, const unsigned long long *a, const unsigned long long *b, unsigned long long *c)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        c[i] = a[i] * b[i] + (a[i] ^ 0x9e3779b97f4a7c15ull);
}

int main(int argc, char **argv)
{
    static unsigned long long a[S2S_CAP], b[S2S_CAP], c[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u64((uint64_t *)a, n);
        s2s_fill_u64((uint64_t *)b, n);
        s2s_fill_u64((uint64_t *)c, S2S_CAP);
        mul64(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), c);
        S2S_OUT("c", c, n + S2S_GUARD);
    }
    return 0;
}
