/* s2s-test: vectorized=1 tolerance=exact report="calls.inlined=3" */
/* call_inline_array_params: callees whose parameters are declared as
 * arrays (``double m[5]``, ``const double m[5]``: pointers in C) fill and
 * read a local array of the loop body; once inlined the array is indexed
 * by the callees' loop variables (per-lane storage) and by constants. */
#include "harness.h"

#define NCH 5

static void fill(double m[NCH], double e)
{
    for (int c = 0; c < NCH; c++)
        m[c] = e * (c + 1) - (double)c;
}

static double pick(const double m[NCH])
{
    return m[1] + m[4];
}

static int largest(const double m[NCH])
{
    int best = 0;
    for (int c = 1; c < NCH; c++)
        if (m[c] > m[best])
            best = c;
    return best;
}

void run(int n, const double *x, double *y, int32_t *k)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double m[NCH];
        fill(m, x[i]);
        y[i] = pick(m);
        k[i] = largest(m);
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int32_t k[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -3.0, 3.0);
        s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
        s2s_fill_i32(k, S2S_CAP, 9, 9);
        run(n, s2s_tail(0, x, n * sizeof x[0]), y, k);
        S2S_OUT("y", y, n + S2S_GUARD);
        S2S_OUT("k", k, n + S2S_GUARD);
    }
    return 0;
}
