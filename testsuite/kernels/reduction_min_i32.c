/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_min_i32: signed min, including INT_MIN-ish negatives. */
#include "harness.h"

int min_i32(int n, const int *x)
{
    int m = 2147483647;
#pragma omp simd reduction(min:m)
    for (int i = 0; i < n; i++)
        m = x[i] < m ? x[i] : m;
    return m;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -2147483647 - 1, 2147483647);
        s2s_out_i64("min", min_i32(n, s2s_tail(0, x, n * sizeof x[0])));
        s2s_fill_i32(x, n, 0, 100);
        if (n > 0) x[n - 1] = -1;
        s2s_out_i64("min_last", min_i32(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
