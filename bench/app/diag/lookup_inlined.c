/* diag/lookup_inlined.c -- NOT part of the application: lookup.c with every
 * call of the hot loop inlined by hand (rng_skip, rng_next, pick_material,
 * macro_xs with grid_search and micro_xs, lookup_hash with largest_channel
 * and mix64), statement for statement, for bench/app/diag/make_variant.sh.
 * It shows what s2svec makes of the loop once the calls are inlined, before
 * s2svec can do that itself (issue 19).  Same results, same hash. */
#include "xsproxy.h"

#define RNG_MUL 6364136223846793005ULL
#define RNG_ADD 1442695040888963407ULL

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
        /* rng_skip(seed, 2 * i) */
        uint64_t n = 2 * (uint64_t)i, mul = 1, add = 0;
        uint64_t step_mul = RNG_MUL, step_add = RNG_ADD;
        while (n > 0) {
            if (n & 1) {
                mul *= step_mul;
                add = add * step_mul + step_add;
            }
            step_add *= step_mul + 1;
            step_mul *= step_mul;
            n >>= 1;
        }
        uint64_t state = mul * seed + add;
        /* rng_next, twice */
        state = state * RNG_MUL + RNG_ADD;
        double e = (double)(state >> 11) * 0x1p-53;
        state = state * RNG_MUL + RNG_ADD;
        double u = (double)(state >> 11) * 0x1p-53;
        /* pick_material */
        int mat = 0;
        while (mat < n_mats - 1 && u >= mat_cdf[mat])
            mat++;
        /* macro_xs */
        double macro[XS_NCHAN];
        long found = 0;
        for (int c = 0; c < XS_NCHAN; c++)
            macro[c] = 0.0;
        for (int k = 0; k < mat_count[mat]; k++) {
            int nuc = mat_nuc[mat * row + k];
            double density = mat_dens[mat * row + k];
            const double *grid = egrid + nuc * n_grid;
            /* grid_search */
            long lo = 0, hi = n_grid - 1;
            while (hi - lo > 1) {
                long mid = lo + (hi - lo) / 2;
                if (grid[mid] > e)
                    hi = mid;
                else
                    lo = mid;
            }
            /* micro_xs */
            double micro[XS_NCHAN];
            const double *below = xs + nuc * n_grid * XS_NCHAN + lo * XS_NCHAN;
            const double *above = below + XS_NCHAN;
            double f = (e - grid[lo]) / (grid[lo + 1] - grid[lo]);
            for (int c = 0; c < XS_NCHAN; c++)
                micro[c] = below[c] + f * (above[c] - below[c]);
            for (int c = 0; c < XS_NCHAN; c++)
                macro[c] += density * micro[c];
            found += lo;
        }
        /* lookup_hash: largest_channel, mix64 */
        int best = 1;
        for (int c = 2; c < XS_NCHAN; c++)
            if (macro[c] > macro[best])
                best = c;
        uint64_t x = ((uint64_t)found << 8) | ((uint64_t)mat << 3) | (uint64_t)best;
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ULL;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebULL;
        x ^= x >> 31;
        hash += x;
        total_sum += macro[0];
    }

    XsTally tally = {hash, total_sum};
    return tally;
}
