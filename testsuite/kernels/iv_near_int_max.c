/* s2s-test: vectorized=2 tolerance=exact */
/* iv_near_int_max: i runs up to INT_MAX - 1 (bound INT_MAX); the iv itself
 * never overflows, but "i + W" or "hi - lo + 1" computed in int would. */
#include "harness.h"

void near_max(int n, const int *x, int *y)
{
    int lo = 2147483647 - n;
#pragma omp simd
    for (int i = lo; i < 2147483647; i++)
        y[i - lo] = x[i - lo] + (i & 0xff);
}

void near_min(int n, const int *x, int *y)
{
    int hi = -2147483647 - 1 + n;
#pragma omp simd
    for (int i = hi; i > -2147483647 - 1; i--)
        y[hi - i] = x[hi - i] - (i & 0xff);
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -1000, 1000);
        s2s_fill_i32(y, S2S_CAP, 0, 0);
        near_max(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("max", y, n + S2S_GUARD);
        s2s_fill_i32(y, S2S_CAP, 0, 0);
        near_min(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("min", y, n + S2S_GUARD);
    }
    return 0;
}
