/* gather: out[i] = a[idx[i]] * s + b[i], an indexed (gather) load from a
 * 512 KiB table with pseudo-random int indices.
 * bench-rtol: 1e-12
 * bench-class: control
 * Prints the kernel time in ns and a checksum (sum of out). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N (1 << 16)        /* out, b: 512 KiB each, idx: 256 KiB */
#define TABLE (1 << 16)    /* a: 512 KiB */
#define REPS 2500

__attribute__((noinline))
void gather(int n, const double *a, const int *idx, const double *b,
            double *out, double s)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = a[idx[i]] * s + b[i];
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
    double *a = aligned_alloc(64, TABLE * sizeof(double));
    double *b = aligned_alloc(64, N * sizeof(double));
    double *out = aligned_alloc(64, N * sizeof(double));
    int *idx = aligned_alloc(64, N * sizeof(int));
    unsigned state = 12345u;
    for (int i = 0; i < TABLE; i++)
        a[i] = (double)(i % 977) * 0.01;
    for (int i = 0; i < N; i++) {
        state = state * 1664525u + 1013904223u;   /* LCG: fixed, portable */
        idx[i] = (int)((state >> 8) % TABLE);
        b[i] = (double)(i % 31);
    }
    double total = 0.0;
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        gather(N, a, idx, b, out, 1.0 + r * 1e-4);
        __asm__ volatile("" : : : "memory");
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < N; i++)
        total += out[i];
    printf("kernel gather n=%d reps=%d\n", N, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", total);
    free(a);
    free(b);
    free(out);
    free(idx);
    return 0;
}
