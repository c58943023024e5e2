/* s2s-test: vectorized=1 tolerance=exact cflags="-fopenmp" grep="^\s*#\s*pragma\s+omp\s+parallel\s+for\b" */
/* atomic_parallel_for_simd: `#pragma omp atomic` in a `parallel for simd`
 * loop built with -fopenmp: the updates of the vector code must stay atomic
 * with respect to the other threads (a histogram of colliding bins, a
 * shared counter and a shared sum of integers held in doubles: exact in
 * any order). */
#include "harness.h"

#define BINS 16

long long pfs_hist(int n, const int32_t *idx, const int32_t *v, int32_t *bins, double *total)
{
    long long count = 0;
    double s = 0.0;
#pragma omp parallel for simd num_threads(4)
    for (int i = 0; i < n; i++) {
#pragma omp atomic
        bins[idx[i]] += v[i];
        if (v[i] > 0) {
#pragma omp atomic
            count++;
#pragma omp atomic
            s += (double)v[i];
        }
    }
    *total = s;
    return count;
}

int main(int argc, char **argv)
{
    static int32_t idx[S2S_CAP], v[S2S_CAP];
    int32_t bins[BINS];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int rep = 0; rep < 20; rep++) {   /* races show in some runs only */
            for (int i = 0; i < n; i++) {
                idx[i] = (int32_t)s2s_int(0, rep < 10 ? 1 : BINS - 1);
                v[i] = (int32_t)s2s_int(-3, 5);
            }
            for (int b = 0; b < BINS; b++)
                bins[b] = b;
            double total = 0.5;
            long long count = pfs_hist(n, s2s_tail(0, idx, n * sizeof idx[0]),
                                       s2s_tail(1, v, n * sizeof v[0]), bins, &total);
            s2s_out_i64("count", count);
            s2s_out_f64("total", total);
            S2S_OUT("bins", bins, BINS);
        }
    }
    {   /* long enough for the threads to meet on bins 0 and 1 */
        static int32_t bidx[1 << 21], bv[1 << 21];
        int nb = 1 << 21;
        s2s_seed(99);
        for (int i = 0; i < nb; i++) {
            bidx[i] = (int32_t)(s2s_u32() & 1u);
            bv[i] = (int32_t)s2s_int(-3, 5);
        }
        for (int b = 0; b < BINS; b++)
            bins[b] = 0;
        double total = 0.0;
        long long count = pfs_hist(nb, bidx, bv, bins, &total);
        s2s_out_i64("big count", count);
        s2s_out_f64("big total", total);
        S2S_OUT("big bins", bins, BINS);
    }
    return 0;
}
