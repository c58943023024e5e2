/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_lastprivate_branch: lastprivate variables assigned under a
 * divergent branch (both arms assign one, only one arm changes the
 * other after an unconditional assignment): after the loop they must hold
 * the values of the sequentially last iteration, whatever its lane. */
#include "harness.h"

void lastp(int n, const int32_t *x, int32_t *out_a, double *out_b)
{
    int32_t a = -1;
    double b = -1.0;
#pragma omp simd lastprivate(a, b)
    for (int i = 0; i < n; i++) {
        b = (double)x[i];
        if (x[i] & 1) {
            a = x[i] * 3;
            b = b * 0.5;
        } else {
            a = -x[i];
        }
    }
    *out_a = a;
    *out_b = b;
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = (int32_t)s2s_int(-10000, 10000) * 2 + (s2s_pattern(p, i, n) ? 1 : 0);
            int32_t a = 77;
            double b = 77.0;
            lastp(n, s2s_tail(0, x, n * sizeof x[0]), &a, &b);
            if (n > 0) {
                s2s_out_i64("a", a);
                s2s_out_f64("b", b);
            }
        }
    }
    return 0;
}
