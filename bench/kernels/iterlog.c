/* iterlog: iterated logarithm, simd over inputs: while x > 1, x = log(x),
 * counting the steps.  A divergent while loop (0 to 5 trips) whose body is
 * one log call: per lane, a vector math call under a loop mask.
 * bench-rtol: 0 (integer counts; no input lies within rounding of a step)
 * bench-class: divergent
 * Prints the kernel time in ns and a checksum (sum of the counts). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N (1 << 16)
#define REPS 24

__attribute__((noinline))
void iterlog(int n, const double *x, int *steps)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double v = x[i];
        int count = 0;
        while (v > 1.0) {
            v = log(v);
            count++;
        }
        steps[i] = count;
    }
}

static unsigned long long lcg_state = 77;

static double uniform01(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) * (1.0 / 9007199254740992.0);
}

static long long clock_ns(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : REPS;
    double *x = malloc(N * sizeof(double));
    int *steps = malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)  /* log-uniform over 1e-3 .. 1e300 */
        x[i] = pow(10.0, -3.0 + 303.0 * uniform01());
    long long total = 0;
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        iterlog(N, x, steps);
        __asm__ volatile("" : : : "memory");  /* the call cannot be hoisted */
        total += steps[r % N];
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < N; i++)
        total += steps[i];
    printf("kernel iterlog n=%d reps=%d\n", N, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %lld\n", total);
    free(x);
    free(steps);
    return 0;
}
