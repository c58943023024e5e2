/* s2s-test: vectorized=1 tolerance=exact report="calls.inlined=2 calls.serialized=4" */
/* call_inline_declined: calls that must stay calls, run lane by lane
 * under their masks, next to calls that are inlined: a recursive function
 * (its caller is inlined, the recursion stays a call), a function reading
 * a global that a parameter of the loop's function hides (inlined, the
 * vector code would read the parameter), one reading a global declared
 * after the loop, and one with variable arguments.  Results identical. */
#include "harness.h"
#include <stdarg.h>

static double scale = 1.5;

static int64_t gcd(int64_t a, int64_t b)
{
    return b == 0 ? a : gcd(b, a % b);
}

static int64_t reduced(int64_t a, int64_t b)
{
    return a / gcd(a, b);
}

static double scaled(double v)
{
    return v * scale;
}

static double late(double v);

static double sum_of(int count, ...)
{
    va_list ap;
    va_start(ap, count);
    double s = 0.0;
    for (int k = 0; k < count; k++)
        s += va_arg(ap, double);
    va_end(ap);
    return s;
}

void run(int n, const int64_t *a, const int64_t *b, const double *x, double scale_in,
         double *y, int64_t *z)
{
    double scale = scale_in;  /* hides the global the callee reads */
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double v = x[i];
        if (v > 0.5)
            v = scaled(v) + scale + late(v);
        else if (v < -0.5)
            v = sum_of(2, v, 0.25);
        y[i] = v;
        z[i] = a[i] > 0 ? reduced(a[i], b[i]) : 0;
    }
}

static double offset = 0.125;

static double late(double v)
{
    return v - offset;
}

int main(int argc, char **argv)
{
    static int64_t a[S2S_CAP], b[S2S_CAP], z[S2S_CAP];
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                a[i] = s2s_pattern(p, i, n) ? s2s_int(1, 100000) : -s2s_int(0, 5);
                b[i] = s2s_int(1, 100000);
            }
            s2s_fill_f64(x, n, -2.0, 2.0);
            s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
            s2s_fill_i64(z, S2S_CAP, 7, 7);
            run(n, a, b, s2s_tail(0, x, n * sizeof x[0]), 0.75, y, z);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("z", z, n + S2S_GUARD);
        }
    }
    return 0;
}
