/* s2s-test: vectorized=5 tolerance=reduction-fp rel=1e-12 cflags="-fopenmp" grep="^\s*#\s*pragma\s+omp\s+taskloop\s+reduction\(\+:s\) grainsize\(\(\(5\) \+ (\d+ULL|s2s_vl) - 1\) / (\d+ULL|s2s_vl)\) lastprivate\(j\)$" */
/* combined_taskloop_simd: `taskloop simd` (in a parallel region, and
 * orphaned), `master taskloop simd`, `masked taskloop simd` and `parallel
 * master taskloop simd`, built with -fopenmp (issue 21 item 7): taskloop
 * stays on the loop over vector blocks, its tasks take blocks of W
 * iterations (the last one the scalar remainder); grainsize, which counts
 * iterations, is divided by W; linear variables (and the loop variable when
 * declared outside) leave the tasks as lastprivate.  Reductions, lastprivate,
 * divergent branches and loops. */
#include "harness.h"

/* tasks of at least 5 iterations, a linear variable */
long long tl(int n, const int32_t *a, int32_t *b, int *jout)
{
    long long s = 0;
    int j = 5;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp taskloop simd reduction(+:s) grainsize(5) linear(j:2)
        for (int i = 0; i < n; i++) {
            b[i] = a[i] > 0 ? a[i] + j : j - a[i];
            s += b[i];
            j += 2;
        }
    }
    *jout = j;
    return s;
}

/* an orphaned taskloop (one thread runs its tasks), lastprivate, a
 * divergent loop; the loop variable is declared outside the loop */
int tl_orphan(int n, const int32_t *a, int32_t *b, int *last)
{
    int lp = -1, i = -3;
#pragma omp taskloop simd num_tasks(3) lastprivate(lp)
    for (i = 0; i < n; i++) {
        int v = a[i], k = 0;
        while (v > 1) {
            v >>= 1;
            k++;
        }
        b[i] = k;
        lp = k + i;
    }
    if (n > 0)
        *last = lp;  /* lastprivate after no iteration: unspecified */
    return i;  /* its value after the loop (unchanged when it ran no iteration) */
}

/* master taskloop simd: the master thread makes the tasks */
double mtl(int n, const double *x, double *y)
{
    double s = 0.0;
#pragma omp parallel num_threads(2)
    {
#pragma omp master taskloop simd reduction(+:s) num_tasks(4)
        for (int i = 0; i < n; i++) {
            double v = x[i];
            if (v < 0.0) {
                y[i] = 0.0;
                continue;
            }
            y[i] = v * v;
            s += y[i];
        }
    }
    return s;
}

/* masked taskloop simd with a filter */
int mskl(int n, const int32_t *a, int32_t *b)
{
    int m = -2147483647 - 1;
#pragma omp parallel num_threads(2)
    {
#pragma omp masked taskloop simd filter(0) reduction(max: m) grainsize(16)
        for (int i = 0; i < n; i++) {
            b[i] = a[i] ^ (i & 15);
            m = b[i] > m ? b[i] : m;
        }
    }
    return m;
}

/* the combined parallel master taskloop simd, grainsize(strict:) */
long long pmtl(int n, const int32_t *a, int32_t *b)
{
    long long s = 0;
#pragma omp parallel master taskloop simd num_threads(2) reduction(+:s) grainsize(strict: 24)
    for (int i = 0; i < n; i++) {
        int v = a[i];
        b[i] = v % 3 == 0 ? v / 3 : (v % 3 == 1 ? -v : v * 2);
        s += b[i];
    }
    return s;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int32_t a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int j = 0, last = -7;
        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tl", tl(n, s2s_tail(1, a, n * sizeof a[0]), b, &j));
        s2s_out_i64("j", j);
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(a, n, 0, 1 << 30);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tl_orphan", tl_orphan(n, s2s_tail(1, a, n * sizeof a[0]), b, &last));
        s2s_out_i64("last", last);
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_f64(x, n, -2.0, 3.0);
        s2s_fill_f64(y, S2S_CAP, -1.0, 0.0);
        s2s_out_red("mtl", mtl(n, s2s_tail(0, x, n * sizeof x[0]), y));
        S2S_OUT("y", y, n + S2S_GUARD);

        s2s_fill_i32(a, n, -100000, 100000);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("mskl", mskl(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("pmtl", pmtl(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);
    }
    return 0;
}
