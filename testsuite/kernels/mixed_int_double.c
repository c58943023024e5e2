/* s2s-test: vectorized=1 tolerance=exact width="avx2:4 avx512:8 neon:2" */
/* mixed_int_double: int and double data in one loop; W follows the double,
 * the ints live in half-width registers. */
#include "harness.h"

void mixed(int n, const int *k, const double *x, double *out, int *cnt)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        out[i] = (double)k[i] * x[i] + i;
        cnt[i] = k[i] * 3 - (int)x[i] + i;
    }
}

int main(int argc, char **argv)
{
    static int k[S2S_CAP], cnt[S2S_CAP];
    static double x[S2S_CAP], out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(k, n, -100000, 100000);
        s2s_fill_f64(x, n, -1000.0, 1000.0);
        s2s_fill_f64(out, S2S_CAP, 0.0, 1.0);
        s2s_fill_i32(cnt, S2S_CAP, -5, 5);
        mixed(n, s2s_tail(0, k, n * sizeof k[0]), s2s_tail(1, x, n * sizeof x[0]), out, cnt);
        S2S_OUT("out", out, n + S2S_GUARD);
        S2S_OUT("cnt", cnt, n + S2S_GUARD);
    }
    return 0;
}
