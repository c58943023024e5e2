/* s2s-test: vectorized=1 tolerance=exact args="-D KSCALE=3 -D USE_OFFSET" cflags="-DKSCALE=3 -DUSE_OFFSET" */
/* cli_define_macro: the loop uses macros defined only on the command line
 * (-D reaches the parser; the output keeps the macro names, so the compiler
 * sees the same definitions). */
#include "harness.h"

#ifndef KSCALE
#error "KSCALE must come from -D"
#endif

void defined_scale(int n, const int *x, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
#ifdef USE_OFFSET
        y[i] = x[i] * KSCALE + 1;
#else
        y[i] = x[i] * KSCALE;
#endif
    }
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -1000, 1000);
        s2s_fill_i32(y, S2S_CAP, 0, 0);
        defined_scale(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
