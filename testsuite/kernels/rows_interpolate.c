/* s2s-test: vectorized=1 tolerance=exact */
/* rows_interpolate: the pattern of a cross-section lookup -- a binary search
 * per lane, then the two rows lo and lo + 1 of a table of 4 channels and
 * the grid points lo and lo + 1, read under the mask of the in-range lanes.
 * The loads of each row become one copy per active lane and a transpose
 * (s2s.analysis.rows) instead of a gather per element.  The table ends at
 * an inaccessible page, so a row copied one element too long faults, and an
 * out-of-range lane's search index is never used to read. */
#include "harness.h"

#define NG 37
#define NC 4

void interp(int n, const double *e, const double *grid, const double *tab, double *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double v = -1.0;
        if (e[i] >= grid[0] && e[i] < grid[NG - 1]) {
            long lo = 0, hi = NG - 1;
            while (hi - lo > 1) {
                long mid = lo + (hi - lo) / 2;
                if (grid[mid] > e[i])
                    hi = mid;
                else
                    lo = mid;
            }
            const double *below = tab + lo * NC, *above = below + NC;
            double f = (e[i] - grid[lo]) / (grid[lo + 1] - grid[lo]);
            v = 0.0;
            for (int c = 0; c < NC; c++)
                v += (c + 1) * (below[c] + f * (above[c] - below[c]));
        }
        out[i] = v;
    }
}

int main(int argc, char **argv)
{
    static double e[S2S_CAP], out[S2S_CAP + S2S_GUARD];
    static double grid[NG], tab[NG * NC];
    (void)argc; (void)argv;
    for (int k = 0; k < NG; k++)
        grid[k] = (k + s2s_f64(0.0, 0.5)) / NG;
    for (int k = 0; k < NG * NC; k++)
        tab[k] = s2s_f64(-10.0, 10.0);
    const double *g = s2s_tail(1, grid, sizeof grid);
    const double *t = s2s_tail(2, tab, sizeof tab);
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) /* the pattern's lanes in range, the others not */
                e[i] = s2s_pattern(p, i, n) ? s2s_f64(grid[0], grid[NG - 1]) : s2s_f64(1.5, 9.0);
            if (n > 2)
                e[n / 2] = grid[NG - 2] + 0.5 * (grid[NG - 1] - grid[NG - 2]); /* the last rows */
            for (int i = 0; i < n + S2S_GUARD; i++)
                out[i] = 7.0;
            interp(n, s2s_tail(0, e, n * sizeof e[0]), g, t, out);
            for (int i = 0; i < n + S2S_GUARD; i++)
                s2s_out_f64("out", out[i]);
        }
    }
    return 0;
}
