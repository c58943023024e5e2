/* s2s-test: vectorized=1 tolerance=exact */
/* call_serialized: a call to a user function without a vector variant is
 * made once per lane, in lane order (the function counts its calls, so a
 * missing, extra or reordered call shows). */
#include "harness.h"

static int calls;
static int trace[S2S_CAP];

static double userf(double v, int i)
{
    trace[calls++] = i;
    return v * v - 1.0;
}

void callit(int n, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = userf(x[i], i) + 0.5;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        calls = 0;
        s2s_fill_f64(x, n, -2.0, 2.0);
        s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
        callit(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
        s2s_out_i64("calls", calls);
    }
    return 0;
}
