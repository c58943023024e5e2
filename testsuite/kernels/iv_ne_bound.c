/* s2s-test: vectorized=1 tolerance=exact */
/* iv_ne_bound: i != n as the loop test (allowed for unit steps since OpenMP 5.0). */
#include "harness.h"

void ne(int n, const int *x, int *y)
{
#pragma omp simd
    for (int i = 0; i != n; i++)
        y[i] = x[i] + i;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -50, 50);
        s2s_fill_i32(y, S2S_CAP, 3, 3);
        ne(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
