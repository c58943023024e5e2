/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 */
/* reduction_mul_f64: a product of factors near 1 (no overflow, reassociated). */
#include "harness.h"

double prod_f64(int n, const double *x)
{
    double p = 1.0;
#pragma omp simd reduction(*:p)
    for (int i = 0; i < n; i++)
        p *= x[i];
    return p;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, 0.9, 1.1);
        if (n > 3) x[3] = -x[3];
        s2s_out_red("prod", prod_f64(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
