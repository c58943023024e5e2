/* s2s-test: vectorized=1 tolerance=exact args="-D WEIGHT=0.25 -D FAST" cflags="-DWEIGHT=0.25 -DFAST" grep="s2svec_macro_WEIGHT_changed" */
/* macro_values_checked: macro values and a conditional inside the loop come
 * from -D; the output checks at compile time that the build sees the same
 * values (issue 10, item 5) and computes with them. */
#include "harness.h"

#ifndef WEIGHT
#define WEIGHT 0.5
#endif
#define TWICE(x) ((x) + (x))

void weigh(int n, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
#ifdef FAST
        y[i] = TWICE(x[i]) * WEIGHT;
#else
        y[i] = x[i] * WEIGHT;
#endif
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(y, S2S_CAP, 7.0, 8.0);
        weigh(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
