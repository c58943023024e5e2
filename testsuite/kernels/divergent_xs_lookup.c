/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_xs_lookup: an XSBench-like macroscopic cross-section lookup.
 * Each lane takes a material (a per-lane number of nuclides: a divergent
 * loop), and for every nuclide binary-searches that nuclide's sorted
 * energy grid (per-nuclide length, so the search's trip count differs per
 * lane) for the interval holding the lane's energy, then interpolates
 * linearly between the two grid points for three reaction channels and
 * accumulates them weighted by the concentration.  Energies below or
 * above the grid take the end intervals. */
#include "harness.h"

#define NNUC 12
#define MAXG 300
#define NCH 3
#define NMAT 4

void lookup(int n, const double *energy, const int32_t *mat, const int32_t *mat_len,
            const int32_t *mat_nuc, const double *conc, const int32_t *glen,
            const double *egrid, const double *xs, double *macro)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double e = energy[i];
        double acc[NCH] = {0.0, 0.0, 0.0};
        int32_t m = mat[i];
        for (int32_t k = 0; k < mat_len[m]; k++) {
            int32_t nuc = mat_nuc[m * NNUC + k];
            const double *g = egrid + nuc * MAXG;
            int32_t lo = 0, hi = glen[nuc] - 1;
            if (e <= g[0]) {
                hi = 1;
            } else if (e >= g[hi]) {
                lo = hi - 1;
            } else {
                while (hi - lo > 1) {
                    int32_t mid = (lo + hi) / 2;
                    if (g[mid] > e)
                        hi = mid;
                    else
                        lo = mid;
                }
            }
            double f = (e - g[lo]) / (g[hi] - g[lo]);
            const double *a = xs + (nuc * MAXG + lo) * NCH;
            const double *b = xs + (nuc * MAXG + hi) * NCH;
            for (int c = 0; c < NCH; c++)
                acc[c] += conc[m * NNUC + k] * (a[c] + f * (b[c] - a[c]));
        }
        for (int c = 0; c < NCH; c++)
            macro[i * NCH + c] = acc[c];
    }
}

int main(int argc, char **argv)
{
    static double energy[S2S_CAP], conc[NMAT * NNUC], egrid[NNUC * MAXG], xs[NNUC * MAXG * NCH];
    static double macro[S2S_CAP * NCH];
    static int32_t mat[S2S_CAP], mat_len[NMAT], mat_nuc[NMAT * NNUC], glen[NNUC];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int nuc = 0; nuc < NNUC; nuc++) {
            glen[nuc] = (int32_t)s2s_int(2, MAXG);
            double e = s2s_f64(0.0, 0.01);
            for (int g = 0; g < glen[nuc]; g++) {
                egrid[nuc * MAXG + g] = e;
                e += s2s_f64(0.001, 0.1);
            }
            s2s_fill_f64(xs + nuc * MAXG * NCH, glen[nuc] * NCH, 0.0, 50.0);
        }
        for (int m = 0; m < NMAT; m++) {
            mat_len[m] = m == 0 ? 0 : m == 1 ? 1 : (int32_t)s2s_int(2, NNUC);
            for (int k = 0; k < NNUC; k++) {
                mat_nuc[m * NNUC + k] = (int32_t)s2s_int(0, NNUC - 1);
                conc[m * NNUC + k] = s2s_f64(0.0, 2.0);
            }
        }
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                mat[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(2, NMAT - 1) : (int32_t)s2s_int(0, 1);
                energy[i] = s2s_f64(-1.0, 32.0);
                if (i % 7 == 3) energy[i] = egrid[s2s_int(0, 2)];  /* exactly a grid point */
            }
            s2s_fill_f64(macro, S2S_CAP * NCH, 1.0, 1.0);
            lookup(n, s2s_tail(0, energy, n * sizeof energy[0]), s2s_tail(1, mat, n * sizeof mat[0]),
                   mat_len, mat_nuc, conc, glen, egrid, xs, macro);
            S2S_OUT("macro", macro, (n + S2S_GUARD) * NCH);
        }
    }
    return 0;
}
