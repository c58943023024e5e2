/* s2s-test: vectorized=1 tolerance=exact */
/* aligned: aligned(x, y : 64); the arrays really are 64-byte aligned. */
#include "harness.h"

static _Alignas(64) double xs[S2S_CAP], ys[S2S_CAP];

void add_aligned(int n, const double *x, double *y)
{
#pragma omp simd aligned(x, y : 64)
    for (int i = 0; i < n; i++)
        y[i] = y[i] + x[i] * x[i];
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(xs, n, -2.0, 2.0);
        s2s_fill_f64(ys, S2S_CAP, -2.0, 2.0);
        add_aligned(n, xs, ys);
        S2S_OUT("y", ys, n + S2S_GUARD);
    }
    return 0;
}
