/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_mul_i32: a signed product of +-1 with a few 3s (never overflows). */
#include "harness.h"

int prod_i32(int n, const int *x)
{
    int p = -1;
#pragma omp simd reduction(*:p)
    for (int i = 0; i < n; i++)
        p *= x[i];
    return p;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++)
            x[i] = i % 97 == 5 ? 3 : (s2s_u32() & 1 ? 1 : -1);
        s2s_out_i64("prod", prod_i32(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
