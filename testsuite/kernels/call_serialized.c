/* s2s-test: vectorized=1 tolerance=exact report="calls.serialized=1 calls.vector_math=0 calls.inlined=0" */
/* call_serialized: a call to a user function that is not inlined (its
 * address is taken) and has no vector variant (no declare simd) is made
 * once per active lane with that lane's arguments. */
#include "harness.h"

static double userf(double v, int i)
{
    return v * v - 1.0 + (i & 3);
}

double (*const userf_pointer)(double, int) = userf;

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
        s2s_fill_f64(x, n, -2.0, 2.0);
        s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
        callit(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
