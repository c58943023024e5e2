/* s2s-test: vectorized=0 regions=1 tolerance=exact */
/* unsupported_goto_stays_scalar: a goto inside the simd loop is not
 * supported: the loop must stay the original scalar text (with a warning)
 * and still compute the right result. */
#include "harness.h"

void with_goto(int n, const int *x, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int v = x[i];
        if (v > 100)
            goto big;
        y[i] = v + 1;
        continue;
    big:
        y[i] = 100;
    }
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, 0, 200);
        s2s_fill_i32(y, S2S_CAP, 0, 0);
        with_goto(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
