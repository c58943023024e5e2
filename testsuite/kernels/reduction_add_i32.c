/* s2s-test: vectorized=1 tolerance=exact width="avx2:8 avx512:16 neon:4" */
/* reduction_add_i32: an integer sum (exact in any order). */
#include "harness.h"

int sum_i32(int n, const int *x)
{
    int s = -7;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -1000000, 1000000);
        s2s_out_i64("sum", sum_i32(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
