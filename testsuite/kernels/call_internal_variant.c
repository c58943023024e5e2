/* s2s-test: vectorized=1 tolerance=exact report="calls.vector_variant=3 calls.inlined=0 calls.serialized=0" */
/* call_internal_variant: a callee too large to inline at each of its three
 * calls (a loop with an if-cascade, a second loop, lookups in a global
 * table) gets internal vector variants of s2svec's own, one per shape of
 * its calls: varying x with a linear k, varying x with a uniform k under a
 * divergent condition (masked), and a linear k from an expression. */
#include "harness.h"

static double table[64];

static double heavy(double x, int32_t k)
{
    double s = 0.0;
    for (int32_t j = 0; j < 8; j++) {
        double t = x * (j + 1) + table[(k + j) & 63];
        if (t > 10.0)
            t = t * 0.5 - 3.0;
        else if (t < -10.0)
            t = -t * 0.25 + 1.0;
        else
            t = t * t * 0.01 + t;
        s += t;
    }
    s += (s > 100.0) ? s * 0.001 : -s * 0.002;
    for (int32_t j = 0; j < 4; j++)
        s = s * 0.5 + table[j * 7 & 63] + x * 0.125 + (double)j;
    s += x * 3.0 + (double)k * 0.5 - table[k & 63] * 0.25 + table[(k * 3) & 63] * 0.125;
    s -= x * x * 0.0001 - table[(k * 5) & 63] * 0.0625 + table[(k * 7) & 63] * 0.03125;
    s += x * 1.5 + (double)k * 0.25 - table[(k + 1) & 63] * 0.25 + table[(k * 9) & 63] * 0.5;
    s -= x * x * 0.0003 - table[(k * 11) & 63] * 0.0625 + table[(k * 13) & 63] * 0.03125;
    s += x * 2.5 + (double)k * 0.75 - table[(k + 2) & 63] * 0.25 + table[(k * 15) & 63] * 0.5;
    s -= x * x * 0.0005 - table[(k * 17) & 63] * 0.0625 + table[(k * 19) & 63] * 0.03125;
    s += x * 3.5 + (double)k * 1.25 - table[(k + 3) & 63] * 0.25 + table[(k * 21) & 63] * 0.5;
    s -= x * x * 0.0007 - table[(k * 23) & 63] * 0.0625 + table[(k * 25) & 63] * 0.03125;
    return s;
}

void run(int n, const double *x, double *y, int32_t u)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double a = heavy(x[i], i);
        double b = x[i] > 0.0 ? heavy(-x[i], u) : 0.0;
        y[i] = a + b + heavy(a * 0.01, i + 3);
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(table, 64, -6.0, 6.0);
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? s2s_f64(0.0, 20.0) : s2s_f64(-20.0, 0.0);
            s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
            run(n, s2s_tail(0, x, n * sizeof x[0]), y, (int32_t)s2s_int(-3, 70));
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
