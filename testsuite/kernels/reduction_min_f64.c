/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_min_f64: min with a ternary; exact in any order (no NaN, no
 * signed-zero ties in the data).  The minimum sits at the first, the last,
 * or a random position. */
#include "harness.h"

double min_f64(int n, const double *x)
{
    double m = 1e300;
#pragma omp simd reduction(min:m)
    for (int i = 0; i < n; i++)
        m = x[i] < m ? x[i] : m;
    return m;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int where = 0; where < 3; where++) {
            s2s_fill_f64(x, n, -100.0, 100.0);
            int at = where == 0 ? 0 : where == 1 ? n - 1 : (int)s2s_int(0, n > 0 ? n - 1 : 0);
            if (n > 0) x[at] = -500.0 - where;
            s2s_out_f64("min", min_f64(n, s2s_tail(0, x, n * sizeof x[0])));
        }
    }
    return 0;
}
