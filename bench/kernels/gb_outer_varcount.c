/* gb_outer_varcount: generalized-Born descreening, simd over atoms, as in
 * gb_outer, but every atom has its own number of neighbours (8..88): the
 * inner loop's trip count differs between lanes (a divergent loop), and the
 * five-way distance cascade with log calls sits inside it.
 * bench-rtol: 1e-9 (vector log is within 4 ulp; fast-math reassociates)
 * bench-class: divergent
 * Prints the kernel time in ns and a checksum (sum of the effective radii). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NATOM 2048
#define MIN_NB 8           /* neighbours per atom: MIN_NB .. MAX_NB */
#define MAX_NB 88
#define MAX_OFFSET 64      /* neighbours lie within this many chain steps */
#define REPS 16

/* Integral of 1/r^4 over the part of a sphere of radius s at distance r
 * that lies between radii lo and up around the atom.  A macro, not a
 * function: a plain call inside the simd loop would be serialized. */
#define SHELL(r, s, lo, up)                                                  \
    (0.5 * (1.0 / (lo) - 1.0 / (up)                                          \
            + 0.25 * ((r) - (s) * (s) / (r)) * (1.0 / ((up) * (up))          \
                                                - 1.0 / ((lo) * (lo)))       \
            + 0.5 / (r) * log((lo) / (up))))

__attribute__((noinline))
void gb_descreen(int n, const int *first, const int *count, const int *nbr,
                 const double *x, const double *y, const double *z,
                 const double *rho, const double *scale, double rgbmax,
                 double *reff)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double xi = x[i], yi = y[i], zi = z[i], ri = rho[i];
        double sum = 0.0;
        for (int k = first[i]; k < first[i] + count[i]; k++) {
            int j = nbr[k];
            double dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
            double r = sqrt(dx * dx + dy * dy + dz * dz);
            double sj = scale[j] * rho[j];
            if (r > rgbmax + sj) {
                /* beyond the cut-off: nothing */
            } else if (r > rgbmax - sj) {
                sum += SHELL(r, sj, r - sj, rgbmax);
            } else if (r > 4.0 * sj) {
                /* far sphere: a series in (s/r)^2, no log */
                double t = sj * sj / (r * r);
                sum += sj * t / (r * r) * (1.0 / 3.0 + t * (0.4 + t * (3.0 / 7.0
                                                        + t * (4.0 / 9.0))));
            } else if (r > ri + sj) {
                sum += SHELL(r, sj, r - sj, r + sj);
            } else if (r > fabs(ri - sj)) {
                /* spheres overlap: integrate from the atom's own radius */
                sum += SHELL(r, sj, ri, r + sj) + 0.25 / ri * (1.0 - ri / r);
            } else if (ri < sj) {
                /* the atom lies inside the neighbour's sphere */
                sum += SHELL(r, sj, sj - r, r + sj) + 2.0 * (1.0 / ri - 1.0 / (sj - r));
            }
        }
        double inv = 1.0 / ri - sum;  /* clamped: a radius stays finite */
        reff[i] = inv > 0.05 ? 1.0 / inv : 20.0;
    }
}

static unsigned long long lcg_state = 12345;

static double uniform01(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) * (1.0 / 9007199254740992.0);
}

/* A random-walk chain with 1.5 A steps: atoms close in index are close in
 * space, so the neighbour distances cover every arm of the cascade. */
static void make_chain(int n, double *x, double *y, double *z)
{
    x[0] = y[0] = z[0] = 0.0;
    for (int i = 1; i < n; i++) {
        double ux = uniform01() - 0.5, uy = uniform01() - 0.5, uz = uniform01() - 0.5;
        double len = sqrt(ux * ux + uy * uy + uz * uz) + 1e-9;
        x[i] = x[i - 1] + 1.5 * ux / len;
        y[i] = y[i - 1] + 1.5 * uy / len;
        z[i] = z[i - 1] + 1.5 * uz / len;
    }
}

static int random_neighbour(int i, int n)
{
    int off = 1 + (int)(uniform01() * MAX_OFFSET);
    return (uniform01() < 0.5 ? i + off : i - off + n) % n;
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
    double *x = malloc(NATOM * sizeof(double)), *y = malloc(NATOM * sizeof(double));
    double *z = malloc(NATOM * sizeof(double)), *rho = malloc(NATOM * sizeof(double));
    double *scale = malloc(NATOM * sizeof(double)), *reff = malloc(NATOM * sizeof(double));
    int *first = malloc(NATOM * sizeof(int)), *count = malloc(NATOM * sizeof(int));
    int *nbr = malloc((size_t)NATOM * MAX_NB * sizeof(int));
    make_chain(NATOM, x, y, z);
    int next = 0;
    for (int i = 0; i < NATOM; i++) {
        rho[i] = 1.2 + 0.7 * uniform01();
        scale[i] = 0.7 + 0.2 * uniform01();
        first[i] = next;
        count[i] = MIN_NB + (int)(uniform01() * (MAX_NB - MIN_NB + 1));
        for (int k = 0; k < count[i]; k++)
            nbr[next++] = random_neighbour(i, NATOM);
    }
    double total = 0.0;
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        gb_descreen(NATOM, first, count, nbr, x, y, z, rho, scale, 10.0, reff);
        __asm__ volatile("" : : : "memory");  /* the call cannot be hoisted */
        total += reff[r % NATOM];
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < NATOM; i++)
        total += reff[i];
    printf("kernel gb_outer_varcount n=%d reps=%d\n", NATOM, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", total);
    free(x); free(y); free(z); free(rho); free(scale); free(reff); free(nbr);
    free(first); free(count);
    return 0;
}
