/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_mul_u32: an unsigned product, wrapping mod 2^32 (exact in any order). */
#include "harness.h"

unsigned prod_u32(int n, const unsigned *x)
{
    unsigned p = 3;
#pragma omp simd reduction(*:p)
    for (int i = 0; i < n; i++)
        p *= x[i] | 1u;
    return p;
}

int main(int argc, char **argv)
{
    static unsigned x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u32(x, n);
        s2s_out_u64("prod", prod_u32(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
