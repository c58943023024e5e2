/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_max_i64: signed 64-bit max (AVX2 has no 64-bit max instruction). */
#include "harness.h"

long long max_i64(int n, const long long *x)
{
    long long m = -9000000000000000000LL;
#pragma omp simd reduction(max:m)
    for (int i = 0; i < n; i++)
        m = x[i] > m ? x[i] : m;
    return m;
}

int main(int argc, char **argv)
{
    static long long x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) x[i] = (long long)s2s_u64();
        s2s_out_i64("max", max_i64(n, s2s_tail(0, x, n * sizeof x[0])));
        for (int i = 0; i < n; i++) x[i] = -(long long)s2s_int(1, 1LL << 40);
        s2s_out_i64("max_neg", max_i64(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
