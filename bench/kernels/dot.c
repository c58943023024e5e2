/* dot: s = sum x[i] * y[i] on doubles, a '+' reduction.
 * bench-rtol: 1e-10
 * bench-class: control
 * Prints the kernel time in ns and a checksum (sum of all results). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N (1 << 16)        /* 2 x 512 KiB of doubles: stays in L2 */
#define REPS 2000

__attribute__((noinline))
double dot(int n, const double *x, const double *y)
{
    double s = 0.0;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
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
    double *x = aligned_alloc(64, N * sizeof(double));
    double *y = aligned_alloc(64, N * sizeof(double));
    for (int i = 0; i < N; i++) {
        x[i] = (double)((i * 37) % 1000) * 1e-3;
        y[i] = 1.0 + (double)(i % 17) * 0.25;
    }
    double total = 0.0;
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        total += dot(N, x, y);
        /* x and y escape into the asm, so its memory clobber covers them and
         * the call cannot be hoisted (clang 19 did hoist it with a bare clobber) */
        __asm__ volatile("" : : "r"(x), "r"(y) : "memory");
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    printf("kernel dot n=%d reps=%d\n", N, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", total);
    free(x);
    free(y);
    return 0;
}
