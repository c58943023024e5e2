/* data.c -- builds the nuclide grids and the materials of xsproxy.
 *
 * Every number here is exact in binary floating point (small integers times
 * powers of two), so the tables are bit-identical whatever the compiler and
 * its flags (-ffast-math included) make of this file: only the lookups'
 * arithmetic can differ between builds. */
#include <stdlib.h>
#include "xsproxy.h"

/* Nuclides per material, in 64ths of the nuclide count: material 0 is the
 * fuel, which holds most nuclides; the others (cladding, coolant, structure,
 * ...) hold a few each. */
static const int mat_share64[XS_NMATS] = {48, 6, 4, 4, 24, 18, 16, 14, 12, 10, 8, 8};
/* How often each material is hit, in 1024ths (the sum is 1024). */
static const int mat_weight1024[XS_NMATS] = {140, 60, 30, 30, 110, 80, 80, 80, 80, 80, 114, 140};

/* The set-up's own generator (xorshift64*), separate from the lookups'. */
static uint64_t setup_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dULL;
}

/* One nuclide's grid: grid[0] = 0, grid[n-1] = 1, strictly increasing, each
 * inner point placed at random in its own slot of width 2^40/(n-1). */
static void make_grid(double *grid, long n, uint64_t *s)
{
    const uint64_t top = (uint64_t)1 << XS_ENERGY_BITS;
    const uint64_t slot = top / (uint64_t)(n - 1);
    const double unit = 1.0 / (double)top;
    grid[0] = 0.0;
    for (long j = 1; j < n - 1; j++)
        grid[j] = (double)((uint64_t)j * slot + setup_next(s) % slot) * unit;
    grid[n - 1] = 1.0;
}

/* The channels at each grid point: elastic and absorption at random, fission
 * a part of absorption for fissile nuclides (none otherwise), nu-fission 2.5
 * times fission, total = elastic + absorption.  All multiples of 2^-8. */
static void make_channels(double *xs, long n, int fissile, uint64_t *s)
{
    for (long j = 0; j < n; j++) {
        double *p = xs + j * XS_NCHAN;
        double elastic = (double)(1 + (setup_next(s) >> 52)) * 0x1p-8;
        double absorb = (double)(1 + (setup_next(s) >> 52)) * 0x1p-8;
        double fission = fissile ? (double)(setup_next(s) >> 53) * 0x1p-8 : 0.0;
        if (fission > absorb)
            fission = absorb;
        p[0] = elastic + absorb;
        p[1] = elastic;
        p[2] = absorb;
        p[3] = fission;
        p[4] = 2.5 * fission;
    }
}

/* Material m: a random choice of distinct nuclides (a partial shuffle). */
static void make_materials(XsData *d, uint64_t *s)
{
    int *pool = xs_alloc((size_t)d->n_nuclides, sizeof(int));
    int cum = 0;
    for (int m = 0; m < d->n_mats; m++) {
        int count = mat_share64[m] * d->n_nuclides / 64;
        if (count < 1)
            count = 1;
        d->mat_count[m] = count;
        for (int k = 0; k < d->n_nuclides; k++)
            pool[k] = k;
        for (int k = 0; k < count; k++) {
            int pick = k + (int)(setup_next(s) % (uint64_t)(d->n_nuclides - k));
            int t = pool[k];
            pool[k] = pool[pick];
            pool[pick] = t;
            d->mat_nuc[m * d->max_mat_nucs + k] = pool[k];
            d->mat_dens[m * d->max_mat_nucs + k] = (double)(1 + setup_next(s) % 1024) * 0x1p-10;
        }
        cum += mat_weight1024[m];
        d->mat_cdf[m] = (double)cum * 0x1p-10;
    }
    free(pool);
}

int xs_data_init(XsData *d, int n_nuclides, long n_grid, uint64_t seed)
{
    if (n_nuclides < 1 || n_grid < 2 || n_grid > ((long)1 << 30))
        return -1;
    uint64_t s = seed ? seed : 1;
    d->n_nuclides = n_nuclides;
    d->n_grid = n_grid;
    d->n_mats = XS_NMATS;
    d->max_mat_nucs = n_nuclides;
    d->egrid = xs_alloc((size_t)n_nuclides * (size_t)n_grid, sizeof(double));
    d->xs = xs_alloc((size_t)n_nuclides * (size_t)n_grid * XS_NCHAN, sizeof(double));
    d->mat_count = xs_alloc(XS_NMATS, sizeof(int));
    d->mat_nuc = xs_alloc((size_t)XS_NMATS * (size_t)n_nuclides, sizeof(int));
    d->mat_dens = xs_alloc((size_t)XS_NMATS * (size_t)n_nuclides, sizeof(double));
    d->mat_cdf = xs_alloc(XS_NMATS, sizeof(double));
    for (int k = 0; k < n_nuclides; k++) {
        make_grid(d->egrid + (size_t)k * (size_t)n_grid, n_grid, &s);
        /* about a third of the nuclides are fissile */
        make_channels(d->xs + (size_t)k * (size_t)n_grid * XS_NCHAN, n_grid, k % 3 == 0, &s);
    }
    make_materials(d, &s);
    return 0;
}

void xs_data_free(XsData *d)
{
    free(d->egrid);
    free(d->xs);
    free(d->mat_count);
    free(d->mat_nuc);
    free(d->mat_dens);
    free(d->mat_cdf);
}

/* Bytes of the two tables the lookups search and interpolate. */
size_t xs_data_bytes(const XsData *d)
{
    return (size_t)d->n_nuclides * (size_t)d->n_grid * (1 + XS_NCHAN) * sizeof(double);
}

/* Mean number of nuclides a lookup visits. */
double xs_mean_nuclides(const XsData *d)
{
    double mean = 0.0, prev = 0.0;
    for (int m = 0; m < d->n_mats; m++) {
        mean += (d->mat_cdf[m] - prev) * d->mat_count[m];
        prev = d->mat_cdf[m];
    }
    return mean;
}
