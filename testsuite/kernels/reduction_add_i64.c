/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_add_i64: a 64-bit sum of int elements widened in the body. */
#include "harness.h"

long long sum_i64(int n, const int *x)
{
    long long s = 0;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += (long long)x[i] * x[i];
    return s;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -2000000000, 2000000000);
        s2s_out_i64("sum", sum_i64(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
