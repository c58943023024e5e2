/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_or_u64: bitwise or of sparse 64-bit words. */
#include "harness.h"

unsigned long long or_u64(int n, const unsigned long long *x)
{
    unsigned long long r = 0;
#pragma omp simd reduction(|:r)
    for (int i = 0; i < n; i++)
        r |= x[i];
    return r;
}

int main(int argc, char **argv)
{
    static unsigned long long x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) x[i] = 1ull << (s2s_u32() % 64);
        s2s_out_u64("or", or_u64(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
