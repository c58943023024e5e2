/* s2s-test: vectorized=1 tolerance=exact report="memory.contiguous=3 memory.gather=1 memory.scatter=0" */
/* gather_index: y[i] = a[idx[i]] * 2 + b[i]; indices random, with repeats,
 * covering the first and the last element of a. */
#include "harness.h"

void gather(int n, const double *a, const int *idx, const double *b, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = a[idx[i]] * 2.0 + b[i];
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], b[S2S_CAP], y[S2S_CAP];
    static int idx[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int m = n + 3;
        s2s_fill_f64(a, m, -10.0, 10.0);
        s2s_fill_f64(b, n, -1.0, 1.0);
        s2s_fill_i32(idx, n, 0, m - 1);
        if (n > 0) idx[0] = m - 1;
        if (n > 1) idx[n - 1] = 0;
        s2s_fill_f64(y, S2S_CAP, 5.0, 6.0);
        gather(n, s2s_tail(0, a, m * sizeof a[0]), s2s_tail(1, idx, n * sizeof idx[0]),
               s2s_tail(2, b, n * sizeof b[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
