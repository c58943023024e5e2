/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_max_u16: unsigned short max (values above 32767 must compare unsigned). */
#include "harness.h"

unsigned short max_u16(int n, const unsigned short *x)
{
    unsigned short m = 0;
#pragma omp simd reduction(max:m)
    for (int i = 0; i < n; i++)
        m = x[i] > m ? x[i] : m;
    return m;
}

int main(int argc, char **argv)
{
    static unsigned short x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) x[i] = (unsigned short)(s2s_u32() & 0x7fff);
        if (n > 2) x[n / 2] = 40000;
        s2s_out_i64("max", max_u16(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
