/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_or_shortcircuit: `k < 0 || q[k] > t || 1000 / d > 10`: the
 * right operands of || read through an index that is only valid when the
 * left operand is false, or divide by a value that is only nonzero then;
 * the || is used both as a value and directly as an if condition. */
#include "harness.h"

void orguard(int n, const int32_t *k, const double *q, const int32_t *d, int32_t *flag, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int f = k[i] < 0 || q[k[i]] > 0.5 || 1000 / d[i] > 10;
        flag[i] = f;
        if (k[i] < 0 || q[k[i]] < 0.25)
            y[i] = 1.0;
        else
            y[i] = q[k[i]] * 2.0;
    }
}

int main(int argc, char **argv)
{
    static int32_t k[S2S_CAP], d[S2S_CAP], flag[S2S_CAP];
    static double q[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_f64(q, n, 0.0, 1.0);
            for (int i = 0; i < n; i++) {
                k[i] = s2s_pattern(p, i, n) ? -(int32_t)s2s_int(1, 1 << 30) : (int32_t)s2s_int(0, n - 1);
                /* d is 0 only where the division is never evaluated */
                d[i] = (k[i] < 0 || q[k[i]] > 0.5) ? 0 : (int32_t)s2s_int(1, 200);
            }
            s2s_fill_i32(flag, S2S_CAP, 9, 9);
            s2s_fill_f64(y, S2S_CAP, 9.0, 9.0);
            orguard(n, s2s_tail(0, k, n * sizeof k[0]), s2s_tail(1, q, n * sizeof q[0]),
                    s2s_tail(2, d, n * sizeof d[0]), flag, y);
            S2S_OUT("flag", flag, n + S2S_GUARD);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
