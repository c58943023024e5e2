/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 args="--refill-ratio 0 --math exact" grep="0x40000000ULL" */
/* refill_reduction_search: lane refill (transform/refill.py) with two
 * reductions (a double sum updated inside the divergent loop, an int max
 * after it), a loop variable declared before the loop with a step of 3 and
 * a lower bound of 1 (its final value is live out), a divergent search loop
 * with a break, and a store after the loop under a per-lane condition.
 * --refill-ratio 0 refills it on every target whatever the cost model says. */
#include "harness.h"
#include <math.h>

double walk(int n, const double *x, const int32_t *lim, double *out, int32_t *deep, int32_t *last)
{
    double s = 0.0;
    int32_t dmax = -1;
    int i;
#pragma omp simd reduction(+:s) reduction(max:dmax)
    for (i = 1; i < n; i += 3) {
        double v = x[i];
        int32_t k = 0, m = lim[i];
        while (k < m) {
            v = sqrt(fabs(v) + 1.0) - 0.25 * v;
            s += v;
            if (v > 1.5)
                break;
            k++;
        }
        if (k > dmax)
            dmax = k;
        if (k & 1)
            out[i] = v;
        deep[i] = k;
    }
    *last = i;
    return s + dmax;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], out[S2S_CAP];
    static int32_t lim[S2S_CAP], deep[S2S_CAP], last;
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_f64(x, n, -4.0, 4.0);
            for (int i = 0; i < n; i++)
                lim[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(0, 40) : (int32_t)s2s_int(0, 2);
            s2s_fill_f64(out, S2S_CAP, -1.0, -1.0);
            s2s_fill_i32(deep, S2S_CAP, -1, -1);
            double r = walk(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, lim, n * sizeof lim[0]),
                            out, deep, &last);
            s2s_out_red("r", r);
            S2S_OUT("last", &last, 1);
            S2S_OUT("out", out, n + S2S_GUARD);
            S2S_OUT("deep", deep, n + S2S_GUARD);
        }
    }
    return 0;
}
