/* s2s-test: vectorized=3 tolerance=reduction-fp rel=1e-12 cflags="-fopenmp" */
/* taskloop_simd_in_reduction: 'taskloop simd in_reduction(op: x)' inside a
 * task reduction: each task's copy of x is the simd loop's reduction
 * variable (its lanes combined into it after the loop, as gcc vectorizes
 * it); the in_reduction clause stays on the taskloop that the vector code
 * keeps.  The same on 'target simd' run on the host (its variable is not
 * mapped besides: gcc rejects that). */
#include "harness.h"

static long dot(int n, const int *a, const int *b)
{
    long sum = 3;
#pragma omp parallel reduction(task, +: sum) num_threads(2)
#pragma omp single
#pragma omp taskloop simd in_reduction(+: sum) grainsize(64)
    for (int i = 0; i < n; i++) {
        if (a[i] > b[i])
            sum += (long)a[i] * b[i];
        else
            sum -= a[i];
    }
    return sum;
}

static double weighted(int n, const double *x)
{
    double acc = 0.5;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: acc)
    {
#pragma omp taskloop simd in_reduction(+: acc) num_tasks(3)
        for (int i = 0; i < n; i++)
            acc += x[i] > 0.0 ? x[i] * 0.25 : -x[i];
    }
    return acc;
}

static int count_small(int n, const int *a)
{
    int c = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskgroup task_reduction(+: c)
    {
#pragma omp target simd in_reduction(+: c) map(to: a[0:n])
        for (int i = 0; i < n; i++)
            c += a[i] < 100 && a[i] > -300;
    }
    return c;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP];
    static double x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_i32(b, n, -1000, 1000);
        s2s_fill_f64(x, n, -4.0, 4.0);
        long s = dot(n, a, b);
        double w = weighted(n, x);
        int c = count_small(n, a);
        S2S_OUT("s", &s, 1);
        S2S_OUT("c", &c, 1);
        s2s_out_red("w", w);
    }
    return 0;
}
