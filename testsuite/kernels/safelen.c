/* s2s-test: vectorized=1 tolerance=exact maxwidth=4 scalable_vectorized=0 */
/* safelen: a loop-carried dependence at distance 4, legal with safelen(4).
 * A vector length above 4 (e.g. 8 doubles on AVX-512) would read values not
 * yet written; the tool must cap W at 4. */
#include "harness.h"

void recur(int n, double *a, const double *b)
{
#pragma omp simd safelen(4)
    for (int i = 4; i < n; i++)
        a[i] = a[i - 4] * 0.5 + b[i];
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(a, S2S_CAP, -1.0, 1.0);
        s2s_fill_f64(b, n, -1.0, 1.0);
        recur(n, a, b);
        S2S_OUT("a", a, n + S2S_GUARD);
    }
    return 0;
}
