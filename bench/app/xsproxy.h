/* xsproxy.h -- declarations shared by the files of xsproxy, a proxy of the
 * cross-section lookups of a Monte Carlo neutron-transport code.
 *
 * Data: N nuclides, each with its own sorted energy grid of G points and
 * XS_NCHAN cross-section channels per point; materials are lists of
 * nuclides with densities, picked per lookup from a cumulative distribution.
 * The hot loop (lookup.c) draws an energy and a material per lookup and sums
 * the interpolated cross sections of the material's nuclides. */
#ifndef __XSPROXY_H__
#define __XSPROXY_H__

#include <stddef.h>
#include <stdint.h>

#define XS_NCHAN 5          /* total, elastic, absorption, fission, nu-fission */
#define XS_NMATS 12         /* materials */
#define XS_ENERGY_BITS 40   /* grid energies are integers times 2^-40 in [0, 1] */

/* Problem sizes (main.c holds the table). */
typedef struct {
    const char *name;
    int n_nuclides;
    long n_grid;            /* points per nuclide */
    long n_lookups;
} XsSize;

/* The tables the lookups read (data.c builds them). */
typedef struct {
    int n_nuclides;
    long n_grid;
    int n_mats;
    int max_mat_nucs;       /* row length of mat_nuc and mat_dens */
    double *egrid;          /* [n_nuclides][n_grid]: sorted, first 0.0, last 1.0 */
    double *xs;             /* [n_nuclides][n_grid][XS_NCHAN] */
    int *mat_count;         /* [n_mats] nuclides in each material */
    int *mat_nuc;           /* [n_mats][max_mat_nucs] nuclide numbers */
    double *mat_dens;       /* [n_mats][max_mat_nucs] densities */
    double *mat_cdf;        /* [n_mats] cumulative probability of each material */
} XsData;

/* What a run of lookups produces: an order-independent hash of the integer
 * results (must be identical for every build and thread count) and the sum
 * of the total macroscopic cross sections (equal to rounding). */
typedef struct {
    uint64_t hash;
    double total_sum;
} XsTally;

/* data.c */
int xs_data_init(XsData *d, int n_nuclides, long n_grid, uint64_t seed);
void xs_data_free(XsData *d);
size_t xs_data_bytes(const XsData *d);
double xs_mean_nuclides(const XsData *d);

/* lookup.c */
XsTally xs_run_lookups(const XsData *d, long n_lookups, uint64_t seed);

/* util.c */
void *xs_alloc(size_t count, size_t size);
int64_t xs_clock_ns(int which);    /* XS_WALL or XS_CPU */
#define XS_WALL 0
#define XS_CPU 1
int xs_threads(void);
int xs_parse_long(const char *text, long *value);

#endif /* __XSPROXY_H__ */
