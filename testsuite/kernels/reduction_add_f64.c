/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 */
/* reduction_add_f64: a plain sum; mixed signs but a clearly positive total,
 * so reassociation only changes the last bits. */
#include "harness.h"

double sum_f64(int n, const double *x)
{
    double s = 10.0;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -0.5, 2.0);
        s2s_out_red("sum", sum_f64(n, s2s_tail(0, x, n * sizeof x[0])));
    }
    return 0;
}
