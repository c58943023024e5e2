/* s2s-test: vectorized=1 tolerance=exact args="--math exact" */
/* divergent_gb_cascade: a generalized-Born-like descreening sum (the shape
 * of nab's effective Born radii loop, written anew): each lane is an atom
 * with a per-lane neighbour count (a divergent inner loop over its
 * neighbour list, coordinates gathered), a cut-off `continue`, a second
 * `continue` on the neighbour's radius, then a five-way else-if cascade on
 * the distance whose arms use sqrt, log and divisions.  --math exact keeps
 * log() bit-identical; sqrt is exact anyway. */
#include "harness.h"

#define MAXNB 24
#define RCUT 9.0

void born(int n, const double *xyz, const double *rad, const int32_t *nbcount,
          const int32_t *nblist, double *sum_out, int32_t *arms)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double xi = xyz[3 * i], yi = xyz[3 * i + 1], zi = xyz[3 * i + 2];
        double ri = rad[i], ri1 = 1.0 / ri;
        double s = 0.0;
        int32_t tally = 0;
        for (int32_t k = 0; k < nbcount[i]; k++) {
            int32_t j = nblist[i * MAXNB + k];
            double dx = xi - xyz[3 * j], dy = yi - xyz[3 * j + 1], dz = zi - xyz[3 * j + 2];
            double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 > RCUT * RCUT)
                continue;
            double d1 = 1.0 / sqrt(r2);
            double d = r2 * d1;
            double sj = 0.8 * rad[j];
            if (d > RCUT + sj)
                continue;
            double sj2 = sj * sj;
            if (d > RCUT - sj) {
                double u = 1.0 / (d - sj);
                s -= 0.125 * d1 * (1.0 + 2.0 * d * u + (r2 - 4.0 * RCUT * d - sj2) / (RCUT * RCUT)
                                   + 2.0 * log((d - sj) / RCUT));
                tally += 1;
            } else if (d > 4.0 * sj) {
                double d2 = d1 * d1, t = sj2 * d2;
                s -= sj * t * d2 * (0.33 + t * (0.4 + t * (0.43 + t * 0.44)));
                tally += 10;
            } else if (d > ri + sj) {
                s -= 0.5 * (sj / (r2 - sj2) + 0.5 * d1 * log((d - sj) / (d + sj)));
                tally += 100;
            } else if (d > fabs(ri - sj)) {
                double theta = 0.5 * ri1 * d1 * (r2 + ri * ri - sj2);
                double u = 1.0 / (d + sj);
                s -= 0.25 * (ri1 * (2.0 - theta) - u + d1 * log(ri * u));
                tally += 1000;
            } else if (ri < sj) {
                s -= 0.5 * (sj / (r2 - sj2) + 2.0 * ri1 + 0.5 * d1 * log((sj - ri) / (sj + ri)));
                tally += 10000;
            }
        }
        sum_out[i] = s;
        arms[i] = tally;
    }
}

int main(int argc, char **argv)
{
    static double xyz[3 * S2S_CAP], rad[S2S_CAP], sum[S2S_CAP];
    static int32_t nbc[S2S_CAP], nbl[S2S_CAP * MAXNB], arms[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        if (n == 0) continue;
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            double box = 4.0 + 0.5 * cbrt((double)n);
            s2s_fill_f64(xyz, 3 * n, 0.0, box);
            s2s_fill_f64(rad, n, 1.0, 2.2);
            for (int i = 0; i < n; i++) {
                nbc[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(MAXNB / 2, MAXNB) : (int32_t)s2s_int(0, 2);
                for (int k = 0; k < MAXNB; k++) {
                    int32_t j = (int32_t)s2s_int(0, n - 1);
                    nbl[i * MAXNB + k] = j == i ? (i + 1) % n : j;
                }
                if (i % 5 == 1 && n > 1) {   /* a close neighbour: the inner arms */
                    int32_t j = nbl[i * MAXNB];
                    xyz[3 * j] = xyz[3 * i] + s2s_f64(0.05, 2.5);
                    xyz[3 * j + 1] = xyz[3 * i + 1];
                    xyz[3 * j + 2] = xyz[3 * i + 2];
                }
            }
            s2s_fill_f64(sum, S2S_CAP, 3.0, 3.0);
            s2s_fill_i32(arms, S2S_CAP, -1, -1);
            born(n, xyz, s2s_tail(0, rad, n * sizeof rad[0]), s2s_tail(1, nbc, n * sizeof nbc[0]),
                 nbl, sum, arms);
            S2S_OUT_FP("sum", sum, n + S2S_GUARD);
            S2S_OUT("arms", arms, n + S2S_GUARD);
        }
    }
    return 0;
}
