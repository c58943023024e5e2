/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_two_vars: an integer sum and a double max in the same loop. */
#include "harness.h"

double two(int n, const double *x, const int *k, long long *sum_out)
{
    long long s = 0;
    double m = -1e300;
#pragma omp simd reduction(+:s) reduction(max:m)
    for (int i = 0; i < n; i++) {
        s += k[i];
        m = x[i] > m ? x[i] : m;
    }
    *sum_out = s;
    return m;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP];
    static int k[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        long long s = -1;
        s2s_fill_f64(x, n, -50.0, 50.0);
        s2s_fill_i32(k, n, -2000000000, 2000000000);
        s2s_out_f64("max", two(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, k, n * sizeof k[0]), &s));
        s2s_out_i64("sum", s);
    }
    return 0;
}
