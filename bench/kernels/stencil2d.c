/* stencil2d: one Jacobi sweep of a 2-D 5-point stencil on a row-major double
 * grid; the inner (column) loop is annotated, the row index is uniform in it.
 * bench-rtol: 1e-10
 * bench-class: control
 * Prints the kernel time in ns and a checksum (sum of the final grid). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROWS 256
#define COLS 512           /* 2 grids x 1 MiB of doubles: L2/L3 */
#define REPS 400

__attribute__((noinline))
void stencil2d(int rows, int cols, const double *in, double *out)
{
    for (int i = 1; i < rows - 1; i++) {
#pragma omp simd
        for (int j = 1; j < cols - 1; j++)
            out[i * cols + j] = 0.2 * (in[i * cols + j]
                                       + in[(i - 1) * cols + j]
                                       + in[(i + 1) * cols + j]
                                       + in[i * cols + j - 1]
                                       + in[i * cols + j + 1]);
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
    double *a = aligned_alloc(64, ROWS * COLS * sizeof(double));
    double *b = aligned_alloc(64, ROWS * COLS * sizeof(double));
    for (int i = 0; i < ROWS * COLS; i++) {
        a[i] = (double)((i * 7919) % 1024) / 1024.0;
        b[i] = a[i];    /* the fixed boundary is the same in both grids */
    }
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        stencil2d(ROWS, COLS, a, b);   /* a -> b, then b -> a */
        stencil2d(ROWS, COLS, b, a);
        __asm__ volatile("" : : : "memory");
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    double sum = 0.0;
    for (int i = 0; i < ROWS * COLS; i++)
        sum += a[i];
    printf("kernel stencil2d n=%dx%d reps=%d\n", ROWS, COLS, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", sum);
    free(a);
    free(b);
    return 0;
}
