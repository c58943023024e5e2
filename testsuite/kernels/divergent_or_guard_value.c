/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_or_guard_value: `k < 0 || q[k] > 0.5` as a value: the right
 * operand of || gathers through an index that is garbage (huge or
 * negative) where the left operand is true; and `d == 0 || 1000 / d > 10`
 * where the division is only defined when the left operand is false. */
#include "harness.h"

void orval(int n, const int32_t *k, const double *q, const int32_t *d, int32_t *f, int32_t *g)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        f[i] = k[i] < 0 || q[k[i]] > 0.5;
        g[i] = d[i] == 0 || 1000 / d[i] > 10;
    }
}

int main(int argc, char **argv)
{
    static int32_t k[S2S_CAP], d[S2S_CAP], f[S2S_CAP], g[S2S_CAP];
    static double q[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_f64(q, n, 0.0, 1.0);
            for (int i = 0; i < n; i++) {
                int on = s2s_pattern(p, i, n);
                k[i] = on ? -(int32_t)s2s_int(1, 1 << 30) : (int32_t)s2s_int(0, n - 1);
                d[i] = on ? 0 : (int32_t)s2s_int(-200, 200);
                if (d[i] == 0 && !on) d[i] = 1;
            }
            s2s_fill_i32(f, S2S_CAP, 9, 9);
            s2s_fill_i32(g, S2S_CAP, 9, 9);
            orval(n, s2s_tail(0, k, n * sizeof k[0]), s2s_tail(1, q, n * sizeof q[0]),
                  s2s_tail(2, d, n * sizeof d[0]), f, g);
            S2S_OUT("f", f, n + S2S_GUARD);
            S2S_OUT("g", g, n + S2S_GUARD);
        }
    }
    return 0;
}
