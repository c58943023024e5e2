/* s2s-test: vectorized=? tolerance=exact grep="_ZGVeN8vu_damp" report="calls.inlined=3" */
/* declare_simd_inlines_helper: the body of a declare simd function calls
 * plain functions of the file (a helper with a divergent loop, which calls
 * another): they are inlined into every vector variant, which stays
 * vectorized; the simd loop calls the variant. */
#include "harness.h"

static int32_t halvings(double v)
{
    int32_t k = 0;
    while (v > 1.0 && k < 60) {
        v *= 0.5;
        k++;
    }
    return k;
}

static double shrink(double v, double floor_)
{
    int32_t k = halvings(v);
    return k > 3 ? v / (double)k + floor_ : v;
}

#pragma omp declare simd uniform(f) notinbranch
double damp(double x, double f)
{
    if (x < 0.0)
        return -shrink(-x, f);
    return shrink(x, f);
}

void run(int n, const double *x, double *y, double f)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = damp(x[i], f) + 1.0;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -5000.0, 5000.0);
        s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
        run(n, s2s_tail(0, x, n * sizeof x[0]), y, 0.25);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
