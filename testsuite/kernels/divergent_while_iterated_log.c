/* s2s-test: vectorized=1 tolerance=exact args="--math exact" */
/* divergent_while_iterated_log: the iterated logarithm log*(x) of a double,
 * a while loop calling log() with a per-lane trip count (0 for x <= 1,
 * up to 5 for huge x, none for NaN); the last value and the count are
 * live out.  --math exact keeps log() bit-identical. */
#include "harness.h"

void log_star(int n, const double *x, int32_t *k_out, double *last)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double v = x[i];
        int32_t k = 0;
        while (v > 1.0) {
            v = log(v);
            k++;
        }
        k_out[i] = k;
        last[i] = v;
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], last[S2S_CAP];
    static int32_t k[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                if (s2s_pattern(p, i, n))
                    x[i] = exp(s2s_f64(0.0, 700.0));
                else
                    x[i] = s2s_f64(-2.0, 1.0);
            }
            if (n > 3) x[n / 2] = NAN;
            if (n > 5) x[n / 3] = 1e308;
            if (n > 7) x[n / 5] = 1.0;        /* exactly 1: no step */
            s2s_fill_i32(k, S2S_CAP, -1, -1);
            s2s_fill_f64(last, S2S_CAP, 7.0, 7.0);
            log_star(n, s2s_tail(0, x, n * sizeof x[0]), k, last);
            S2S_OUT("k", k, n + S2S_GUARD);
            S2S_OUT_FP("last", last, n + S2S_GUARD);
        }
    }
    return 0;
}
