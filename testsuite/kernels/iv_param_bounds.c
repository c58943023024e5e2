/* s2s-test: vectorized=1 tolerance=exact */
/* iv_param_bounds: lower and upper bound both parameters, lower not a
 * multiple of W, and an empty range when lo >= hi. */
#include "harness.h"

void range(int lo, int hi, const int *x, int *y)
{
#pragma omp simd
    for (int i = lo; i < hi; i++)
        y[i] = x[i] * x[i] - lo;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP + 8], y[S2S_CAP + 8];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int lo = 0; lo <= 7; lo += 3) {
            s2s_fill_i32(x, S2S_CAP + 8, -40000, 40000);
            s2s_fill_i32(y, S2S_CAP + 8, 5, 5);
            range(lo, n, x, y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
