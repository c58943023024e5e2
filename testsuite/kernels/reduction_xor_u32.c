/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_xor_u32: xor checksum of shifted words. */
#include "harness.h"

unsigned xor_u32(int n, const unsigned *x)
{
    unsigned r = 0x12345678u;
#pragma omp simd reduction(^:r)
    for (int i = 0; i < n; i++)
        r ^= x[i] >> 3;
    return r;
}

int main(int argc, char **argv)
{
    static unsigned x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u32(x, n);
        s2s_out_u64("xor", xor_u32(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
