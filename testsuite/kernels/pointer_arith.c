/* s2s-test: vectorized=1 tolerance=exact */
/* pointer_arith: *(x + i), a local pointer p = y + 2*i, and p[1]; the
 * addresses are the same as with array subscripts. */
#include "harness.h"

void ptrs(int n, const int *x, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int *p = y + 2 * i;
        p[0] = *(x + i) + 1;
        p[1] = *(x + n - 1 - i) * 2;
    }
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[2 * S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -1000, 1000);
        s2s_fill_i32(y, 2 * S2S_CAP, 3, 3);
        ptrs(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, 2 * n + S2S_GUARD);
    }
    return 0;
}
