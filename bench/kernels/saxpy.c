/* saxpy: y[i] = a * x[i] + y[i] on floats, the simplest contiguous loop.
 * bench-rtol: 1e-5
 * bench-class: control
 * Prints the kernel time in ns and a checksum (sum of y) for bench/run.py. */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N (1 << 16)        /* 2 x 256 KiB of floats: stays in L2 */
#define REPS 6000

__attribute__((noinline))
void saxpy(int n, float a, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
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
    float *x = aligned_alloc(64, N * sizeof(float));
    float *y = aligned_alloc(64, N * sizeof(float));
    for (int i = 0; i < N; i++) {
        x[i] = (float)((i * 37) % 1000) * 1e-3f;
        y[i] = (float)(i % 17);
    }
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        saxpy(N, 1e-3f, x, y);
        __asm__ volatile("" : : : "memory");  /* keep every repetition */
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += y[i];
    printf("kernel saxpy n=%d reps=%d\n", N, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", sum);
    free(x);
    free(y);
    return 0;
}
