/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_inner_loop: the reduction variable is updated inside a uniform
 * inner loop of each iteration (integer, so exact in any order). */
#include "harness.h"

long long inner_red(int n, int m, const int *a)
{
    long long s = 5;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < m; k++)
            s += (long long)a[i * m + k] * (k + 1);
    }
    return s;
}

int main(int argc, char **argv)
{
    static int a[4 * S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int m = 0; m <= 4; m += 2) {
            s2s_fill_i32(a, n * m, -2000000000, 2000000000);
            s2s_out_i64("s", inner_red(n, m, s2s_tail(0, a, n * m * sizeof a[0])));
        }
    }
    return 0;
}
