/* xs_lookup: macroscopic cross-section lookup in the style of XSBench, simd
 * over lookups.  Each lookup has a material with its own number of nuclides
 * (a divergent loop); for each nuclide a binary search over that nuclide's
 * energy grid (a divergent while loop, gathered loads) finds the bracketing
 * points, and three reaction channels are interpolated and summed.
 * bench-rtol: 1e-12 (fast-math and FMA contraction round differently)
 * bench-class: divergent
 * Prints the kernel time in ns and a checksum (sum of all cross sections). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NNUC 16            /* nuclides */
#define NGRID 2048         /* energy points per nuclide */
#define NMAT 4             /* materials hold 4, 8, 12 and 16 nuclides */
#define NLOOKUP 8192
#define NCHAN 3            /* reaction channels */
#define REPS 16

__attribute__((noinline))
void xs_lookup(int n, const double *energy, const int *material,
               const int *mat_count, const int *mat_nuclide, const double *mat_density,
               const double *grid, const double *xs, double *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double e = energy[i];
        int m = material[i];
        double total = 0.0, absorb = 0.0, fission = 0.0;
        for (int k = 0; k < mat_count[m]; k++) {
            int nuc = mat_nuclide[m * NNUC + k];
            const double *g = grid + nuc * NGRID;
            int lo = 0, hi = NGRID - 1;
            while (hi - lo > 1) {  /* g[lo] <= e < g[hi] */
                int mid = (lo + hi) >> 1;
                if (g[mid] > e)
                    hi = mid;
                else
                    lo = mid;
            }
            double f = (e - g[lo]) / (g[hi] - g[lo]);
            const double *a = xs + (nuc * NGRID + lo) * NCHAN;
            const double *b = a + NCHAN;
            double rho = mat_density[m * NNUC + k];
            total += rho * (a[0] + f * (b[0] - a[0]));
            absorb += rho * (a[1] + f * (b[1] - a[1]));
            fission += rho * (a[2] + f * (b[2] - a[2]));
        }
        out[i] = total + 0.5 * absorb + 0.25 * fission;
    }
}

static unsigned long long lcg_state = 2024;

static double uniform01(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) * (1.0 / 9007199254740992.0);
}

/* Each nuclide's grid: sorted energies in [0, 1) with uneven spacing, first
 * point 0 and last 1 so that every lookup energy is bracketed. */
static void make_grid(double *grid, double *xs)
{
    for (int nuc = 0; nuc < NNUC; nuc++) {
        double *g = grid + nuc * NGRID, e = 0.0;
        for (int p = 0; p < NGRID; p++) {
            g[p] = e;
            e += 0.2 + uniform01();
        }
        for (int p = 0; p < NGRID; p++)
            g[p] /= g[NGRID - 1];
        for (int p = 0; p < NGRID * NCHAN; p++)
            xs[nuc * NGRID * NCHAN + p] = 0.1 + 10.0 * uniform01();
    }
}

static void make_materials(int *count, int *nuclide, double *density)
{
    for (int m = 0; m < NMAT; m++) {
        count[m] = 4 * (m + 1);
        for (int k = 0; k < NNUC; k++) {
            nuclide[m * NNUC + k] = (k * 5 + m * 3) % NNUC;
            density[m * NNUC + k] = 0.01 + uniform01();
        }
    }
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
    double *grid = malloc((size_t)NNUC * NGRID * sizeof(double));
    double *xs = malloc((size_t)NNUC * NGRID * NCHAN * sizeof(double));
    double *energy = malloc(NLOOKUP * sizeof(double)), *out = malloc(NLOOKUP * sizeof(double));
    int *material = malloc(NLOOKUP * sizeof(int));
    int count[NMAT], nuclide[NMAT * NNUC];
    double density[NMAT * NNUC];
    make_grid(grid, xs);
    make_materials(count, nuclide, density);
    for (int i = 0; i < NLOOKUP; i++) {
        energy[i] = uniform01();
        material[i] = (int)(uniform01() * NMAT);
    }
    double total = 0.0;
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        xs_lookup(NLOOKUP, energy, material, count, nuclide, density, grid, xs, out);
        __asm__ volatile("" : : : "memory");  /* the call cannot be hoisted */
        total += out[r % NLOOKUP];
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < NLOOKUP; i++)
        total += out[i];
    printf("kernel xs_lookup n=%d reps=%d\n", NLOOKUP, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %.17g\n", total);
    free(grid); free(xs); free(energy); free(out); free(material);
    return 0;
}
