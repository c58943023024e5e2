/* aos_update: symplectic Euler step of harmonic oscillators stored as an
 * array of structs (48-byte records): every field access has a 48-byte stride.
 * bench-rtol: 1e-10
 * bench-class: control
 * Prints the kernel time in ns and a checksum (sum of all fields). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N (1 << 14)        /* 16384 x 48 B = 768 KiB: stays in L2 */
#define REPS 4000

struct particle {
    double x, y, z;
    double vx, vy, vz;
};

__attribute__((noinline))
void aos_update(int n, struct particle *p, double k, double dt)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        p[i].vx -= dt * k * p[i].x;
        p[i].vy -= dt * k * p[i].y;
        p[i].vz -= dt * k * p[i].z;
        p[i].x += dt * p[i].vx;
        p[i].y += dt * p[i].vy;
        p[i].z += dt * p[i].vz;
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
    struct particle *p = aligned_alloc(64, N * sizeof(struct particle));
    for (int i = 0; i < N; i++) {
        p[i].x = (double)(i % 101) - 50.0;
        p[i].y = (double)(i % 37) * 0.5;
        p[i].z = -(double)(i % 13);
        p[i].vx = 0.0;
        p[i].vy = (double)(i % 7) - 3.0;
        p[i].vz = 1.0;
    }
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        aos_update(N, p, 0.5, 1e-3);
        __asm__ volatile("" : : : "memory");
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += p[i].x + p[i].y + p[i].z + p[i].vx + p[i].vy + p[i].vz;
    printf("kernel aos_update n=%d reps=%d\n", N, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", sum);
    free(p);
    return 0;
}
