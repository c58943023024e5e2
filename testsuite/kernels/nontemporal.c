/* s2s-test: vectorized=1 tolerance=exact */
/* nontemporal: nontemporal(y) stores (streaming stores where alignment
 * allows); the values written must be the same. */
#include "harness.h"

void stream(int n, const double *x, double *y)
{
#pragma omp simd nontemporal(y)
    for (int i = 0; i < n; i++)
        y[i] = x[i] + 1.0;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP + 1];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(y, S2S_CAP + 1, 3.0, 4.0);
        stream(n, s2s_tail(0, x, n * sizeof x[0]), y + 1);   /* deliberately misaligned */
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
