/* s2s-test: vectorized=3 tolerance=exact */
/* lastprivate_divergent: a lastprivate variable assigned under a divergent
 * branch ends with the value of the last iteration that assigned it (and
 * keeps its value when none did), as the scalar loop does; also the
 * conditional: modifier and a value assigned in a divergent inner loop. */
#include "harness.h"

int last_big(int n, const int *a, int *where)
{
    int last = -1, idx = -7;
#pragma omp simd lastprivate(last, idx)
    for (int i = 0; i < n; i++) {
        if (a[i] > 6) {
            last = a[i] * 10;
            idx = i;
        }
    }
    *where = idx;
    return last;
}

double last_neg(int n, const double *x)
{
    double v = 0.5;
#pragma omp simd lastprivate(conditional: v)
    for (int i = 0; i < n; i++)
        if (x[i] < -0.5)
            v = x[i];
    return v;
}

int last_steps(int n, const int *a)
{
    int steps = -3;
#pragma omp simd lastprivate(steps)
    for (int i = 0; i < n; i++) {
        int x = a[i];
        if (x > 3) {
            int s = 0;
            while (x > 1) { x = x / 2; s++; }
            steps = s;
        }
    }
    return steps;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP];
    static double x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                a[i] = s2s_pattern(p, i, n) ? (int)s2s_int(7, 99) : (int)s2s_int(-9, 6);
                x[i] = s2s_pattern(p, i, n) ? -1.0 - s2s_f64(0.0, 1.0) : s2s_f64(-0.5, 1.0);
            }
            int where = 0;
            int last = last_big(n, s2s_tail(0, a, n * sizeof a[0]), &where);
            s2s_out_i64("last", last);
            s2s_out_i64("where", where);
            double v = last_neg(n, s2s_tail(1, x, n * sizeof x[0]));
            S2S_OUT("v", &v, 1);
            s2s_out_i64("steps", last_steps(n, s2s_tail(0, a, n * sizeof a[0])));
        }
    }
    return 0;
}
