/* s2s-test: vectorized=1 tolerance=exact */
/* strided_store: writes b[3i] and b[3i+1] (scatters), leaving b[3i+2] and
 * everything past the last iteration untouched. */
#include "harness.h"

void strided_store(int n, const double *x, double *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        b[3 * i] = x[i];
        b[3 * i + 1] = -x[i] * 0.5;
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], b[3 * S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -3.0, 3.0);
        s2s_fill_f64(b, 3 * S2S_CAP, 10.0, 11.0);
        strided_store(n, s2s_tail(0, x, n * sizeof x[0]), b);
        S2S_OUT("b", b, 3 * n + S2S_GUARD);
    }
    return 0;
}
