/* s2s-test: vectorized=5 tolerance=exact */
/* gather_pointer_chain: gathers and scatters through a varying pointer made
 * from a uniform one (p = base + off[i]; p[k]), which s2svec emits with the
 * uniform base and the offsets summed into 64-bit indices: a binary search
 * in a row of a table chosen per lane (xs_lookup's pattern, a divergent
 * loop), a chain of three local pointers with a negative step and unsigned
 * offsets, 64-bit offsets into 32-bit elements, bytes (per lane on x86) and
 * a masked scatter through a row pointer (lanes may hit the same element:
 * the last lane wins).  Every table ends at a PROT_NONE page and inactive
 * lanes' offsets point far past it. */
#include "harness.h"

#define ROW 37

void search(int n, int *y, double *z, const double *grid, const int *row, const double *e)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        const double *g = grid + row[i] * ROW;
        int lo = 0, hi = ROW - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) >> 1;
            if (g[mid] > e[i])
                hi = mid;
            else
                lo = mid;
        }
        y[i] = lo;
        z[i] = g[lo] + g[hi];
    }
}

void chain(int n, float *y, const float *a, const int *off, const unsigned *k, const unsigned char *c)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        const float *p = a + off[i];
        const float *q = p - 3;
        const float *r = &q[c[i]];
        y[i] = r[k[i]] + q[1];
    }
}

void wide(int n, int *y, const int *a, const long *off, const long *k, int limit)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        const int *p = a + off[i];
        y[i] = k[i] < limit ? p[k[i]] : -1;
    }
}

void bytes(int n, signed char *y, const signed char *a, const int *off, const short *k)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        const signed char *p = a + off[i];
        y[i] = (signed char)(p[k[i]] + p[0]);
    }
}

void scatter(int n, double *out, const int *row, const int *col, const double *v)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double *r = out + row[i] * ROW;
        if (v[i] > 0.0)
            r[col[i]] = v[i];
    }
}

int main(int argc, char **argv)
{
    enum { ROWS = 8, TABLE = ROWS * ROW };
    static double grid[TABLE], e[S2S_CAP], z[S2S_CAP], v[S2S_CAP], out[TABLE];
    static float af[S2S_CAP + 8], yf[S2S_CAP];
    static int row[S2S_CAP], y[S2S_CAP], off[S2S_CAP], col[S2S_CAP], ai[S2S_CAP + 8];
    static unsigned k[S2S_CAP];
    static unsigned char c[S2S_CAP];
    static long loff[S2S_CAP], lk[S2S_CAP];
    static signed char ab[S2S_CAP + 8], yb[S2S_CAP];
    static short ks[S2S_CAP];
    (void)argc; (void)argv;
    for (int r = 0; r < ROWS; r++) {
        double at = 0.0;
        for (int p = 0; p < ROW; p++) {
            grid[r * ROW + p] = at;
            at += (double)s2s_int(1, 9);
        }
    }
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            int m = n + 8;
            s2s_fill_i32(row, n, 0, ROWS - 1);
            s2s_fill_f64(e, n, 0.0, 100.0);
            s2s_fill_i32(y, S2S_CAP, 7, 7);
            s2s_fill_f64(z, S2S_CAP, 1.0, 1.0);
            search(n, y, z, s2s_tail(0, grid, sizeof grid), s2s_tail(1, row, n * sizeof row[0]),
                   s2s_tail(2, e, n * sizeof e[0]));
            S2S_OUT("search_lo", y, n + S2S_GUARD);
            S2S_OUT("search_g", z, n + S2S_GUARD);

            s2s_fill_f32(af, m, -10.0f, 10.0f);
            for (int i = 0; i < n; i++) {
                off[i] = (int)s2s_int(3, m - 1);
                c[i] = (unsigned char)s2s_int(0, m - 1 - off[i] + 3);
                k[i] = (unsigned)s2s_int(0, m - 1 - off[i] + 3 - c[i]);
            }
            s2s_fill_f32(yf, S2S_CAP, 5.0f, 5.0f);
            chain(n, yf, s2s_tail(0, af, m * sizeof af[0]), s2s_tail(1, off, n * sizeof off[0]),
                  s2s_tail(2, k, n * sizeof k[0]), s2s_tail(3, c, n));
            S2S_OUT("chain", yf, n + S2S_GUARD);

            s2s_fill_i32(ai, m, -1000, 1000);
            for (int i = 0; i < n; i++) {
                loff[i] = s2s_int(0, m - 1);
                lk[i] = s2s_pattern(p, i, n) ? s2s_int(-loff[i], m - 1 - loff[i])
                                             : m + s2s_int(0, 1LL << 40);
            }
            s2s_fill_i32(y, S2S_CAP, 7, 7);
            wide(n, y, s2s_tail(0, ai, m * sizeof ai[0]), s2s_tail(1, loff, n * sizeof loff[0]),
                 s2s_tail(2, lk, n * sizeof lk[0]), m);
            S2S_OUT("wide", y, n + S2S_GUARD);

            for (int i = 0; i < m; i++)
                ab[i] = (signed char)s2s_int(-128, 127);
            for (int i = 0; i < n; i++) {
                off[i] = (int)s2s_int(0, m - 1);
                ks[i] = (short)s2s_int(-off[i], m - 1 - off[i]);
            }
            for (int i = 0; i < S2S_CAP; i++)
                yb[i] = 3;
            bytes(n, yb, s2s_tail(0, ab, m), s2s_tail(1, off, n * sizeof off[0]),
                  s2s_tail(2, ks, n * sizeof ks[0]));
            S2S_OUT("bytes", yb, n + S2S_GUARD);

            for (int i = 0; i < n; i++) {
                col[i] = (int)s2s_int(0, ROW - 1);
                v[i] = s2s_pattern(p, i, n) ? (double)s2s_int(1, 99) : -1.0;
                if (v[i] < 0.0)
                    col[i] = 1 << 28;  /* never written: the store is guarded */
            }
            s2s_fill_f64(out, TABLE, 0.0, 0.0);
            scatter(n, out, s2s_tail(1, row, n * sizeof row[0]), col, v);
            S2S_OUT("scatter", out, TABLE);
        }
    }
    return 0;
}
