/* s2s-test: vectorized=1 tolerance=exact width="avx2:4 avx512:8 neon:2" report="memory.contiguous=3 memory.gather=0 memory.scatter=0 memory.strided=0 memory.masked=0 branches.divergent=0" */
/* saxpy_f64: y = a*x + y on doubles, the simplest contiguous loop. */
#include "harness.h"

void saxpy_f64(int n, double a, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -4.0, 4.0);
        s2s_fill_f64(y, S2S_CAP, -1.0, 1.0);
        saxpy_f64(n, 1.5, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
