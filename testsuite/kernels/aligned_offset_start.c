/* s2s-test: vectorized=1 tolerance=exact */
/* aligned_offset_start: aligned(x, y : 64) promises the BASE pointers are
 * aligned; the loop starts at i = lo (1, 3, ...), so x + i is not, and an
 * aligned vector load/store at x + i would fault. */
#include "harness.h"

static _Alignas(64) double xs[S2S_CAP + 8], ys[S2S_CAP + 8];

void from(int lo, int n, const double *x, double *y)
{
#pragma omp simd aligned(x, y : 64)
    for (int i = lo; i < n; i++)
        y[i] = x[i] * 2.0 + 1.0;
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int lo = 1; lo <= 3; lo += 2) {
            s2s_fill_f64(xs, n + 8, -2.0, 2.0);
            s2s_fill_f64(ys, S2S_CAP + 8, 9.0, 9.0);
            from(lo, n, xs, ys);
            S2S_OUT("y", ys, n + S2S_GUARD);
        }
    }
    return 0;
}
