/* saxpy_l1: out[i] = a * x[i] + y[i] on 4,096 floats (48 KiB: in L1/L2),
 * out of place.  The loop is short and hot: what counts is how many
 * independent vectors a trip runs (the compilers unroll and interleave).
 * bench-rtol: 1e-5
 * bench-class: control
 * Prints the kernel time in ns and a checksum (sum of out) for bench/run.py. */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 4096
#define REPS 200000

__attribute__((noinline))
void saxpy_oop(int n, float a, const float *restrict x, const float *restrict y,
               float *restrict out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = a * x[i] + y[i];
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
    float *out = aligned_alloc(64, N * sizeof(float));
    for (int i = 0; i < N; i++) {
        x[i] = (float)((i * 37) % 1000) * 1e-3f;
        y[i] = (float)(i % 17);
        out[i] = 0.0f;
    }
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        saxpy_oop(N, 1e-3f * (float)(r & 7), x, y, out);
        __asm__ volatile("" : : : "memory");  /* keep every repetition */
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += out[i];
    printf("kernel saxpy_l1 n=%d reps=%d\n", N, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", sum);
    free(x);
    free(y);
    free(out);
    return 0;
}
