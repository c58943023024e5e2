/* s2s-test: vectorized=1 tolerance=exact report="memory.contiguous=2 memory.uniform=3" */
/* loop_invariant_load: *scale and table[k] are read every iteration from
 * addresses that do not depend on i (uniform loads, one broadcast). */
#include "harness.h"

void inv(int n, const double *scale, const double *table, int k, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = x[i] * *scale + table[k] - table[k + 1];
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP], table[8];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        double scale = s2s_f64(-2.0, 2.0);
        s2s_fill_f64(table, 8, -10.0, 10.0);
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(y, S2S_CAP, 3.0, 3.0);
        inv(n, &scale, table, 6, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
