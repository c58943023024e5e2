/* s2s-test: vectorized=1 tolerance=exact */
/* unannotated_loop_untouched: only the annotated loop changes; the plain
 * loops (one of them before, one after) are kept byte for byte (every line
 * marked s2s-keep must be in the output exactly once). */
#include "harness.h"

void prefix_then_scale(int n, double *a, const double *x)
{
    for (int i = 1; i < n; i++)              /* s2s-keep: a true recurrence */
        a[i] = a[i - 1] + x[i];              /* s2s-keep */
#pragma omp simd
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 0.5;
    for (int i = n - 2; i >= 0; i--)         /* s2s-keep: backwards recurrence */
        a[i] -= a[i + 1] * 0.25;             /* s2s-keep */
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(a, S2S_CAP, -1.0, 1.0);
        s2s_fill_f64(x, n, -1.0, 1.0);
        prefix_then_scale(n, a, x);
        S2S_OUT("a", a, n + S2S_GUARD);
    }
    return 0;
}
