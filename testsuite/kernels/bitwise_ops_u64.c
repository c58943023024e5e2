/* s2s-test: vectorized=1 tolerance=exact */
/* bitwise_ops_u64: & | ^ ~ and compound assignments on 64-bit words. */
#include "harness.h"

void bits(int n, const unsigned long long *a, const unsigned long long *b, unsigned long long *c)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        unsigned long long t = (a[i] & ~b[i]) | (~a[i] & b[i] & 0xff00ff00ff00ff00ull);
        t ^= a[i] >> 13;
        t |= b[i] << 7;
        c[i] = ~t;
    }
}

int main(int argc, char **argv)
{
    static unsigned long long a[S2S_CAP], b[S2S_CAP], c[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u64((uint64_t *)a, n);
        s2s_fill_u64((uint64_t *)b, n);
        s2s_fill_u64((uint64_t *)c, S2S_CAP);
        bits(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), c);
        S2S_OUT("c", c, n + S2S_GUARD);
    }
    return 0;
}
