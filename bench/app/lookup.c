/* lookup.c -- the hot loop of xsproxy: macroscopic cross-section lookups.
 *
 * Every lookup is independent of the others and of the thread that runs it:
 * it derives its own random-number state from the run's seed and its index
 * (rng_skip), draws an energy and a material, and for each nuclide of the
 * material finds the energy's interval on the nuclide's grid (a binary
 * search), interpolates the channels there and adds them, weighted by the
 * nuclide's density, to the material's macroscopic cross sections.
 *
 * The loop calls functions defined in this file, which call further ones,
 * as an application is written: nothing here is shaped for a vectorizer. */
#include "xsproxy.h"

/* The lookups' random numbers: the 64-bit linear congruential generator
 * x' = RNG_MUL * x + RNG_ADD (mod 2^64), Knuth's MMIX constants. */
#define RNG_MUL 6364136223846793005ULL
#define RNG_ADD 1442695040888963407ULL

/* The generator's state n steps after `state`, in O(log n) steps: the map
 * x -> RNG_MUL x + RNG_ADD applied n times is again x -> mul x + add, built
 * from the maps of 1, 2, 4, ... steps selected by the bits of n. */
static uint64_t rng_skip(uint64_t state, uint64_t n)
{
    uint64_t mul = 1, add = 0;                       /* n steps so far */
    uint64_t step_mul = RNG_MUL, step_add = RNG_ADD; /* 2^k steps */
    while (n > 0) {
        if (n & 1) {
            mul *= step_mul;
            add = add * step_mul + step_add;
        }
        step_add *= step_mul + 1;
        step_mul *= step_mul;
        n >>= 1;
    }
    return mul * state + add;
}

/* One step of the generator; a uniform double in [0, 1) (53 random bits,
 * so the conversion and the scaling are exact). */
static double rng_next(uint64_t *state)
{
    *state = *state * RNG_MUL + RNG_ADD;
    return (double)(*state >> 11) * 0x1p-53;
}

/* The material of a draw u in [0, 1): the first one whose cumulative
 * probability exceeds u. */
static int pick_material(double u, const double *cdf, int n_mats)
{
    int m = 0;
    while (m < n_mats - 1 && u >= cdf[m])
        m++;
    return m;
}

/* The interval [grid[lo], grid[lo + 1]) of a sorted grid of n points that
 * holds e, for grid[0] <= e < grid[n - 1]. */
static long grid_search(const double *grid, long n, double e)
{
    long lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (grid[mid] > e)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

/* One nuclide's cross sections at e, interpolated linearly between the grid
 * points lo and lo + 1. */
static void micro_xs(const double *grid, const double *xs, long lo, double e,
                     double micro[XS_NCHAN])
{
    const double *below = xs + lo * XS_NCHAN;
    const double *above = below + XS_NCHAN;
    double f = (e - grid[lo]) / (grid[lo + 1] - grid[lo]);
    for (int c = 0; c < XS_NCHAN; c++)
        micro[c] = below[c] + f * (above[c] - below[c]);
}

/* The macroscopic cross sections of material mat at energy e: the sum over
 * its nuclides of density times microscopic cross section.  Returns the sum
 * of the grid intervals found (for the verification hash). */
static long macro_xs(double e, int mat, const double *egrid, const double *xs,
                     long n_grid, const int *mat_count, const int *mat_nuc,
                     const double *mat_dens, int row, double macro[XS_NCHAN])
{
    long found = 0;
    for (int c = 0; c < XS_NCHAN; c++)
        macro[c] = 0.0;
    for (int k = 0; k < mat_count[mat]; k++) {
        int nuc = mat_nuc[mat * row + k];
        double density = mat_dens[mat * row + k];
        const double *grid = egrid + nuc * n_grid;
        long lo = grid_search(grid, n_grid, e);
        double micro[XS_NCHAN];
        micro_xs(grid, xs + nuc * n_grid * XS_NCHAN, lo, e, micro);
        for (int c = 0; c < XS_NCHAN; c++)
            macro[c] += density * micro[c];
        found += lo;
    }
    return found;
}

/* The largest of the partial channels (elastic .. nu-fission); the first
 * one on a tie. */
static int largest_channel(const double macro[XS_NCHAN])
{
    int best = 1;
    for (int c = 2; c < XS_NCHAN; c++)
        if (macro[c] > macro[best])
            best = c;
    return best;
}

/* splitmix64's finalizer: every input bit affects every output bit. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* A lookup's contribution to the run's hash: its material, the intervals
 * its searches found, and its largest channel. */
static uint64_t lookup_hash(int mat, long found, const double macro[XS_NCHAN])
{
    return mix64(((uint64_t)found << 8) | ((uint64_t)mat << 3)
                 | (uint64_t)largest_channel(macro));
}

XsTally xs_run_lookups(const XsData *d, long n_lookups, uint64_t seed)
{
    const double *egrid = d->egrid, *xs = d->xs;
    const double *mat_dens = d->mat_dens, *mat_cdf = d->mat_cdf;
    const int *mat_count = d->mat_count, *mat_nuc = d->mat_nuc;
    const long n_grid = d->n_grid;
    const int n_mats = d->n_mats, row = d->max_mat_nucs;
    uint64_t hash = 0;
    double total_sum = 0.0;

#pragma omp parallel for simd schedule(static) reduction(+:hash, total_sum)
    for (long i = 0; i < n_lookups; i++) {
        uint64_t state = rng_skip(seed, 2 * (uint64_t)i);
        double e = rng_next(&state);
        int mat = pick_material(rng_next(&state), mat_cdf, n_mats);
        double macro[XS_NCHAN];
        long found = macro_xs(e, mat, egrid, xs, n_grid, mat_count, mat_nuc,
                              mat_dens, row, macro);
        hash += lookup_hash(mat, found, macro);
        total_sum += macro[0];
    }

    XsTally tally = {hash, total_sum};
    return tally;
}
