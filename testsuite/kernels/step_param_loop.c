/* s2s-test: vectorized=1 tolerance=exact */
/* step_param_loop: i += s with a loop-invariant run-time step s (1..5),
 * vectorized under a run-time test of its sign (issue 21 item 3). */
#include "harness.h"

void stepped(int n, int s, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i += s)
        y[i] = x[i] * 3.0 - i;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int s = 1; s <= 5; s += 2) {
            s2s_fill_f64(x, n, -1.0, 1.0);
            s2s_fill_f64(y, S2S_CAP, 4.0, 4.0);
            stepped(n, s, s2s_tail(0, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
