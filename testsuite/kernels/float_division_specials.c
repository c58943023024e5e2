/* s2s-test: vectorized=1 tolerance=exact */
/* float_division_specials: x / y with y = +-0 (+-inf, NaN for 0/0), inf
 * operands and NaN propagation through + and *; -0.0 from negation. */
#include "harness.h"

void divs(int n, const double *x, const double *y, double *q, double *s)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        q[i] = x[i] / y[i];
        s[i] = -(x[i] * 0.0) + y[i] * x[i];
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP], q[S2S_CAP], s[S2S_CAP];
    static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 1e-310};
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -5.0, 5.0);
        s2s_fill_f64(y, n, -5.0, 5.0);
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) x[i] = special[s2s_u32() % 8];
            if (i % 4 == 1) y[i] = special[s2s_u32() % 8];
        }
        s2s_fill_f64(q, S2S_CAP, 0, 0);
        s2s_fill_f64(s, S2S_CAP, 0, 0);
        divs(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, y, n * sizeof y[0]), q, s);
        S2S_OUT_FP("q", q, n + S2S_GUARD);
        S2S_OUT_FP("s", s, n + S2S_GUARD);
    }
    return 0;
}
