/* s2s-test: vectorized=1 tolerance=exact */
/* int_abs_clamp: abs via ?:, clamp to [lo, hi] via nested ?:, and int
 * min/max expressions. */
#include "harness.h"

void clampi(int n, int lo, int hi, const int *x, int *a, int *c)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        a[i] = x[i] < 0 ? -x[i] : x[i];
        c[i] = x[i] < lo ? lo : x[i] > hi ? hi : x[i];
    }
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], a[S2S_CAP], c[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -2147483647, 2147483647);
        for (int i = 1; i < n; i += 2) x[i] = (int)s2s_int(-20, 20);
        s2s_fill_i32(a, S2S_CAP, 0, 0);
        s2s_fill_i32(c, S2S_CAP, 0, 0);
        clampi(n, -10, 10, s2s_tail(0, x, n * sizeof x[0]), a, c);
        S2S_OUT("a", a, n + S2S_GUARD);
        S2S_OUT("c", c, n + S2S_GUARD);
    }
    return 0;
}
