/* s2s-test: vectorized=1 tolerance=exact */
/* shift_left_inplace: a[i] = a[i + 1] + b[i] in place (an anti-dependence:
 * every lane must read a[i + 1] before the chunk's stores overwrite it). */
#include "harness.h"

void shift_in_place(int n, double *a, const double *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        a[i] = a[i + 1] + b[i];
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP + 1], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(a, S2S_CAP + 1, -1.0, 1.0);
        s2s_fill_f64(b, n, -1.0, 1.0);
        shift_in_place(n, a, s2s_tail(0, b, n * sizeof b[0]));
        S2S_OUT("a", a, n + 1 + S2S_GUARD);
    }
    return 0;
}
