/* s2s-test: vectorized=1 tolerance=exact report="calls.inlined=7 calls.serialized=0" */
/* call_inline_xs_chain: an XSBench-like lookup written the way proxy
 * applications write it: the loop calls functions of the same file, which
 * call further ones -- a random-number step (64-bit LCG), a material pick
 * from a cumulative distribution (a divergent search loop), and per
 * nuclide of the material a binary search on the nuclide's grid (a
 * divergent while loop) plus linear interpolation.  The tables are static
 * globals the callees read (passed to the vector code by address).  Every
 * call is inlined into the loop; the result is identical bit for bit. */
#include "harness.h"

#define NNUC 10
#define MAXG 200
#define NMAT 4

static double egrid[NNUC][MAXG];
static double xs_total[NNUC][MAXG];
static int32_t glen[NNUC];
static double mat_cdf[NMAT];
static int32_t mat_len[NMAT];
static int32_t mat_nuc[NMAT][NNUC];
static double conc[NMAT][NNUC];

static inline uint64_t rng_step(uint64_t s)
{
    return s * 6364136223846793005ull + 1442695040888963407ull;
}

static double rng_unit(uint64_t *s)
{
    *s = rng_step(*s);
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

static int32_t pick_material(double u)
{
    int32_t m = 0;
    while (m < NMAT - 1 && u > mat_cdf[m])
        m++;
    return m;
}

static int32_t grid_search(int32_t nuc, double e)
{
    int32_t lo = 0, hi = glen[nuc] - 1;
    if (e <= egrid[nuc][0])
        return 0;
    if (e >= egrid[nuc][hi])
        return hi - 1;
    while (hi - lo > 1) {
        int32_t mid = (lo + hi) / 2;
        if (egrid[nuc][mid] > e)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

static double micro_xs(int32_t nuc, double e)
{
    int32_t k = grid_search(nuc, e);
    double f = (e - egrid[nuc][k]) / (egrid[nuc][k + 1] - egrid[nuc][k]);
    return xs_total[nuc][k] + f * (xs_total[nuc][k + 1] - xs_total[nuc][k]);
}

double macro_xs(int32_t m, double e)
{
    double acc = 0.0;
    for (int32_t k = 0; k < mat_len[m]; k++)
        acc += conc[m][k] * micro_xs(mat_nuc[m][k], e);
    return acc;
}

void lookups(int n, const uint64_t *seeds, double *out, int32_t *mat_out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint64_t s = seeds[i];
        double e = rng_unit(&s) * 22.0 - 1.0;
        int32_t m = pick_material(rng_unit(&s));
        out[i] = macro_xs(m, e);
        mat_out[i] = m;
    }
}

int main(int argc, char **argv)
{
    static uint64_t seeds[S2S_CAP];
    static double out[S2S_CAP];
    static int32_t mat_out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int nuc = 0; nuc < NNUC; nuc++) {
            glen[nuc] = (int32_t)s2s_int(2, MAXG);
            double e = s2s_f64(0.0, 0.01);
            for (int g = 0; g < glen[nuc]; g++) {
                egrid[nuc][g] = e;
                xs_total[nuc][g] = s2s_f64(0.0, 40.0);
                e += s2s_f64(0.001, 0.2);
            }
        }
        double c = 0.0;
        for (int m = 0; m < NMAT; m++) {
            c += s2s_f64(0.05, 0.5);
            mat_cdf[m] = c;
            mat_len[m] = m == 0 ? 0 : (int32_t)s2s_int(1, NNUC);
            for (int k = 0; k < NNUC; k++) {
                mat_nuc[m][k] = (int32_t)s2s_int(0, NNUC - 1);
                conc[m][k] = s2s_f64(0.0, 2.0);
            }
        }
        for (int m = 0; m < NMAT; m++)
            mat_cdf[m] /= c;
        for (int i = 0; i < n; i++)
            seeds[i] = (uint64_t)s2s_int(0, 1 << 30) * 2654435761u + (uint64_t)i;
        s2s_fill_f64(out, S2S_CAP, 1.0, 1.0);
        lookups(n, s2s_tail(0, seeds, n * sizeof seeds[0]), out, mat_out);
        S2S_OUT("out", out, n + S2S_GUARD);
        S2S_OUT("mat", mat_out, n);
    }
    return 0;
}
