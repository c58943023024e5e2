/* Annotated loops of an ordinary OpenMP program. */
#include <math.h>
#include <omp.h>
#include "params.h"

static void scale_add(int n, double *restrict y, const double *restrict x)
{
#pragma omp parallel for simd
    for (int i = 0; i < n; i++)
        y[i] = SCALE * x[i] + y[i];
}

static double damped_sum(int n, const double *x)
{
    double s = 0.0;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++) {
        double v = x[i];
        if (v > THRESHOLD)
            s += exp(-v);
        else
            s += v * v;
    }
    return s;
}

static double count_hits(int n, const double *x)
{
    double hits = 0.0;
#pragma omp parallel for simd reduction(+:hits)
    for (int i = 0; i < n; i++)
        hits += x[i] > THRESHOLD ? 1.0 : 0.0;
    return hits;
}

void kernels_run(int n, double *x, double *y, double *sum, double *hits)
{
    scale_add(n, y, x);
    *sum = damped_sum(n, y);
    *hits = count_hits(n, y) + 0.0 * omp_get_max_threads();
}
