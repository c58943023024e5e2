/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_and_u32: bitwise and over mostly-set words. */
#include "harness.h"

unsigned and_u32(int n, const unsigned *x)
{
    unsigned r = 0xffffffffu;
#pragma omp simd reduction(&:r)
    for (int i = 0; i < n; i++)
        r &= x[i];
    return r;
}

int main(int argc, char **argv)
{
    static unsigned x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) x[i] = ~(1u << (s2s_u32() % 32)) | (s2s_u32() & 0xff00ff00u);
        s2s_out_u64("and", and_u32(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
