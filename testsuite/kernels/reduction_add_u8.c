/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_add_u8: an unsigned char accumulator; the sum wraps mod 256
 * (s += x is s = (unsigned char)(s + x) after promotion). */
#include "harness.h"

unsigned char sum_u8(int n, const unsigned char *x)
{
    unsigned char s = 200;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

int main(int argc, char **argv)
{
    static unsigned char x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u8(x, n);
        s2s_out_i64("sum", sum_u8(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
