/* s2s-test: vectorized=1 tolerance=exact */
/* long_iv: a 64-bit induction variable starting at an offset, mixed with
 * double data; (double)i needs a 64-bit integer conversion. */
#include "harness.h"

void long_range(long lo, long hi, const double *x, double *y)
{
#pragma omp simd
    for (long i = lo; i < hi; i++)
        y[i] = x[i] + (double)(i * 1000000007L);
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP + 3], y[S2S_CAP + 3];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n + 3, -1.0, 1.0);
        s2s_fill_f64(y, S2S_CAP + 3, 2.0, 3.0);
        long_range(3, 3 + (long)n, x, y);
        S2S_OUT("y", y, n + 3 + S2S_GUARD);
    }
    return 0;
}
