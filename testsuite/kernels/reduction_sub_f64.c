/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 */
/* reduction_sub_f64: reduction(-) on doubles, terms of one sign (well conditioned). */
#include "harness.h"

double sub_f64(int n, const double *x)
{
    double s = 0.0;
#pragma omp simd reduction(-:s)
    for (int i = 0; i < n; i++)
        s -= x[i] * 0.5;
    return s;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, 1.0, 9.0);
        s2s_out_red("diff", sub_f64(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
