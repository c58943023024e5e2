/* s2s-test: vectorized=1 tolerance=exact */
/* atomic_shared_scalar: `#pragma omp atomic` on variables of the
 * enclosing function that the loop shares (no data-sharing clause), under
 * a divergent branch: a counter, a double sum (lanes in iteration order:
 * exact), and a capture `slot = pos++` that packs the selected elements in
 * iteration order (the stream compaction must equal the scalar one). */
#include "harness.h"

int select_pos(int n, const double *x, const int32_t *take, double *out, double *sum,
               long long *odd)
{
    int count = 0, pos = 0;
    double s = 0.0;
    long long o = 0;
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (take[i]) {
#pragma omp atomic
            count++;
#pragma omp atomic
            s += x[i];
            int slot;
#pragma omp atomic capture
            slot = pos++;
            out[slot] = x[i] * 2.0;
        } else if (i & 1) {
#pragma omp atomic
            o -= i;
        }
    }
    *sum = s;
    *odd = o;
    return count * 1000 + pos;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], out[S2S_CAP];
    static int32_t take[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                take[i] = s2s_pattern(p, i, n);
                x[i] = (double)s2s_int(-5000, 5000) / 16.0;
            }
            s2s_fill_f64(out, S2S_CAP, -1.0, -1.0);
            double sum = -7.0;
            long long odd = 3;
            int r = select_pos(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, take, n * sizeof take[0]),
                               out, &sum, &odd);
            s2s_out_i64("r", r);
            s2s_out_f64("sum", sum);
            s2s_out_i64("odd", odd);
            S2S_OUT("out", out, n + S2S_GUARD);
        }
    }
    return 0;
}
