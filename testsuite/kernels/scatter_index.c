/* s2s-test: vectorized=1 tolerance=exact report="memory.contiguous=2 memory.scatter=1 memory.gather=0" */
/* scatter_index: y[perm[i]] = x[i] + 1 with a permutation (no two lanes hit
 * the same element, so the loop is a valid simd loop). */
#include "harness.h"

void scatter(int n, const double *x, const int *perm, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[perm[i]] = x[i] + 1.0;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int perm[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) perm[i] = i;
        for (int i = n - 1; i > 0; i--) {          /* Fisher-Yates */
            int j = (int)s2s_int(0, i), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        s2s_fill_f64(x, n, -3.0, 3.0);
        s2s_fill_f64(y, S2S_CAP, 7.0, 8.0);
        scatter(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, perm, n * sizeof perm[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
