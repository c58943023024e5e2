/* s2s-test: vectorized=? tolerance=exact */
/* local_array_in_body: a small array declared in the loop body (one copy
 * per lane, or a uniform alloca if it can be shown uniform).  Correctness
 * only: per-lane stacks are a later capability. */
#include "harness.h"

void local_arr(int n, const int *x, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int t[4];
        for (int k = 0; k < 4; k++)
            t[k] = x[i] * (k + 1);
        y[i] = t[0] + t[3] - t[x[i] & 3];
    }
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -1000, 1000);
        s2s_fill_i32(y, S2S_CAP, 0, 0);
        local_arr(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
