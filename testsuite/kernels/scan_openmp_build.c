/* s2s-test: vectorized=2 tolerance=exact candidate_cflags="-fopenmp" */
/* scan_openmp_build: scans in a program built with -fopenmp.  A 'parallel
 * for simd' inscan loop runs on one thread of the team, vectorized (kernel
 * scan_worksharing has more); a simd scan with 'if(simd: n > 40)' is
 * vectorized, and its scalar copy for small n, its remainder loop, lose
 * the '#pragma omp scan' line (outside a simd construct OpenMP rejects it)
 * and compute the same prefix one iteration after another.  Integers:
 * exact. */
#include "harness.h"

long scan_threads(int n, const int *a, long *b)
{
    long x = 2;
#pragma omp parallel for simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        x += a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

int scan_if(int n, const int *a, int *b)
{
    int x = -1;
#pragma omp simd reduction(inscan, max: x) if(simd: n > 40)
    for (int i = 0; i < n; i++) {
        b[i] = x;
#pragma omp scan exclusive(x)
        x = a[i] > x ? a[i] : x;
    }
    return x;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], c[S2S_CAP];
    static long b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        const int *ta = s2s_tail(0, a, n * sizeof a[0]);
        for (int i = 0; i < S2S_CAP; i++) { b[i] = 3; c[i] = 3; }
        s2s_out_i64("threads", scan_threads(n, ta, b));
        S2S_OUT("b", b, n + S2S_GUARD);
        s2s_out_i64("if", scan_if(n, ta, c));
        S2S_OUT("c", c, n + S2S_GUARD);
    }
    return 0;
}
