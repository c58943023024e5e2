/* mixed_int_double: int data and int arithmetic next to double arithmetic in
 * one loop (conversions both ways): W comes from the doubles, the ints can
 * live in half-width registers.
 * bench-rtol: 1e-12
 * bench-class: control
 * Prints the kernel time in ns and a checksum (sum of y plus sum of q). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N (1 << 16)        /* x, y: 512 KiB each; k, q: 256 KiB each */
#define REPS 1600

__attribute__((noinline))
void mixed(int n, const int *k, const double *x, double *y, int *q, double s)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int m = k[i] * 3 + (k[i] >> 2);
        double v = x[i] * s + (double)m;
        y[i] = v;
        q[i] = (int)v - m + i;
    }
}

/* Wall time (CLOCK_MONOTONIC, the reported time) and this thread's CPU time
 * (not charged while another process has the core: steadier when loaded). */
static long long clock_ns(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : REPS;
    int *k = aligned_alloc(64, N * sizeof(int));
    int *q = aligned_alloc(64, N * sizeof(int));
    double *x = aligned_alloc(64, N * sizeof(double));
    double *y = aligned_alloc(64, N * sizeof(double));
    for (int i = 0; i < N; i++) {
        k[i] = (i * 131) % 2000 - 1000;
        x[i] = (double)(i % 251) * 0.37;
    }
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        mixed(N, k, x, y, q, 1.0 + (r % 16) * 0.125);
        __asm__ volatile("" : : : "memory");
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    double sy = 0.0;
    long long sq = 0;
    for (int i = 0; i < N; i++) {
        sy += y[i];
        sq += q[i];
    }
    printf("kernel mixed_int_double n=%d reps=%d\n", N, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", sy + (double)sq);
    free(k);
    free(q);
    free(x);
    free(y);
    return 0;
}
