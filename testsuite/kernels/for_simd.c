/* s2s-test: vectorized=1 tolerance=exact grep="^\s*#\s*pragma\s+omp\s+for\b" */
/* for_simd: an orphaned `for simd` (one thread when not in a parallel
 * region); the `for` worksharing pragma stays on the vector loop. */
#include "harness.h"

void fs(int n, const int *x, int *y)
{
#pragma omp for simd
    for (int i = 0; i < n; i++)
        y[i] = x[i] << 2;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -100000, 100000);
        s2s_fill_i32(y, S2S_CAP, 1, 1);
        fs(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
