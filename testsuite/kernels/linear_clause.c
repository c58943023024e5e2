/* s2s-test: vectorized=1 tolerance=exact */
/* linear_clause: j advances by 2 per iteration (linear(j:2)); its final
 * value after the loop is the sequential one. */
#include "harness.h"

int pack_pairs(int n, const double *x, double *y)
{
    int j = 1;
#pragma omp simd linear(j:2)
    for (int i = 0; i < n; i++) {
        y[j] = x[i];
        y[j - 1] = -x[i];
        j += 2;
    }
    return j;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[2 * S2S_CAP + 2];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(y, 2 * S2S_CAP + 2, 5.0, 6.0);
        s2s_out_i64("j", pack_pairs(n, s2s_tail(0, x, n * sizeof x[0]), y));
        S2S_OUT("y", y, 2 * n + S2S_GUARD);
    }
    return 0;
}
