/* main.c -- xsproxy: a proxy application for the cross-section lookups of
 * Monte Carlo neutron transport.
 *
 *   xsproxy [-s small|default|large] [-l LOOKUPS] [-g GRIDPOINTS] [-n NUCLIDES]
 *
 * Builds the tables, runs the lookups (OMP_NUM_THREADS threads) and prints
 *
 *   time_ns <wall-clock ns of the lookups>
 *   cpu_ns <CPU ns of all threads during the lookups>
 *   hash <verification hash, hex: identical for every correct build>
 *   checksum <sum of the total cross sections: equal to rounding>
 *
 * after a line describing the problem.  Only the lookups are timed. */
#include <stdio.h>
#include <string.h>
#include "xsproxy.h"

#define DATA_SEED 0x5eed5eedULL
#define LOOKUP_SEED 0x1f2e3d4c5b6a7988ULL

static const XsSize sizes[] = {
    /* name      nuclides  grid points  lookups */
    {"small",    16,       256,         20000},
    {"default",  64,       4096,        600000},
    {"large",    128,      8192,        1500000},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: xsproxy [-s small|default|large] [-l LOOKUPS] "
                 "[-g GRIDPOINTS] [-n NUCLIDES]\n");
}

int main(int argc, char **argv)
{
    XsSize size = sizes[1];
    long lookups = 0, grid = 0, nuclides = 0;
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(opt, "-h") == 0 || strcmp(opt, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (val == NULL || opt[0] != '-' || strlen(opt) != 2) {
            usage(stderr);
            return 2;
        }
        a++;
        int ok = 1;
        switch (opt[1]) {
        case 's':
            ok = 0;
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
                if (strcmp(val, sizes[k].name) == 0) {
                    size = sizes[k];
                    ok = 1;
                }
            break;
        case 'l': ok = xs_parse_long(val, &lookups) == 0; break;
        case 'g': ok = xs_parse_long(val, &grid) == 0 && grid >= 2; break;
        case 'n': ok = xs_parse_long(val, &nuclides) == 0 && nuclides <= 100000; break;
        default: ok = 0;
        }
        if (!ok) {
            fprintf(stderr, "xsproxy: bad value '%s' for %s\n", val, opt);
            usage(stderr);
            return 2;
        }
    }
    if (lookups)
        size.n_lookups = lookups;
    if (grid)
        size.n_grid = grid;
    if (nuclides)
        size.n_nuclides = (int)nuclides;

    XsData data;
    if (xs_data_init(&data, size.n_nuclides, size.n_grid, DATA_SEED) != 0) {
        fprintf(stderr, "xsproxy: bad problem size\n");
        return 2;
    }
    printf("xsproxy size=%s nuclides=%d gridpoints=%ld materials=%d lookups=%ld "
           "threads=%d tables_MiB=%.1f nuclides_per_lookup=%.2f\n",
           size.name, data.n_nuclides, data.n_grid, data.n_mats, size.n_lookups,
           xs_threads(), xs_data_bytes(&data) / 1048576.0, xs_mean_nuclides(&data));

    int64_t cpu0 = xs_clock_ns(XS_CPU), wall0 = xs_clock_ns(XS_WALL);
    XsTally tally = xs_run_lookups(&data, size.n_lookups, LOOKUP_SEED);
    int64_t wall1 = xs_clock_ns(XS_WALL), cpu1 = xs_clock_ns(XS_CPU);

    printf("time_ns %lld\n", (long long)(wall1 - wall0));
    printf("cpu_ns %lld\n", (long long)(cpu1 - cpu0));
    printf("hash %016llx\n", (unsigned long long)tally.hash);
    printf("checksum %.17g\n", tally.total_sum);
    xs_data_free(&data);
    return 0;
}
