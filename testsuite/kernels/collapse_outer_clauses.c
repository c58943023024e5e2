/* s2s-test: vectorized=6 tolerance=exact cflags="-fopenmp" */
/* collapse_outer_clauses: private / lastprivate naming the loop variables
 * of a collapse(2) / collapse(3) nest, also under `for simd` and
 * `parallel for simd`.  The body must see the outer variables' real values
 * (not 0 or garbage), and afterwards lastprivate(i, j) holds the values the
 * sequential nest leaves (i == ROWS, j == n; n > 0: an empty nest leaves them
 * unspecified): a wrong i also made the outer loop run forever.  Built
 * with -fopenmp: the reference follows OpenMP, and `parallel for simd`
 * really runs on threads. */
#include "harness.h"

#define ROWS 3
#define PLANES 2

int gi, gj;   /* loop variables at file scope */

void last_ij(int n, const int *x, int *out, int *pi, int *pj)
{
    int i, j;
#pragma omp simd collapse(2) lastprivate(i, j)
    for (i = 0; i < ROWS; i++)
        for (j = 0; j < n; j++)
            out[i * n + j] = x[j] * (i + 1) + i;
    *pi = i;
    *pj = j;
}

void last_global(int n, const int *x, int *out)
{
#pragma omp simd collapse(2) lastprivate(gi, gj)
    for (gi = 0; gi < ROWS; gi++)
        for (gj = 0; gj < n; gj++)
            out[gi * n + gj] = x[gj] - 7 * gi;
}

void priv_i(int n, const int *x, int *out)
{
    int i;
#pragma omp simd collapse(2) private(i)
    for (i = 0; i < ROWS; i++)
        for (int j = 0; j < n; j++)
            out[i * n + j] = x[j] + 100 * i;
}

void last_ijk(int n, const int *x, int *out, int *pijk)
{
    int i, j, k;
#pragma omp simd collapse(3) lastprivate(i, j, k)
    for (i = 0; i < PLANES; i++)
        for (j = 0; j < ROWS; j++)
            for (k = 0; k < n; k++)
                out[(i * ROWS + j) * n + k] = x[k] + 1000 * i + 10 * j;
    pijk[0] = i;
    pijk[1] = j;
    pijk[2] = k;
}

int fi, fj;   /* an orphaned `for` may only make shared variables lastprivate */

void for_simd_last(int n, const int *x, int *out, int *pi, int *pj)
{
#pragma omp for simd collapse(2) lastprivate(fi, fj)
    for (fi = 0; fi < ROWS; fi++)
        for (fj = 0; fj < n; fj++)
            out[fi * n + fj] = x[fj] ^ fi;
    *pi = fi;
    *pj = fj;
}

void par_for_simd_priv(int n, const int *x, int *out)
{
    int i;
#pragma omp parallel for simd collapse(2) private(i)
    for (i = 0; i < ROWS; i++)
        for (int j = 0; j < n; j++)
            out[i * n + j] = x[j] * 2 - i;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], out[PLANES * ROWS * S2S_CAP + S2S_GUARD];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int last[3];
        s2s_fill_i32(x, n, -1000, 1000);
        const int *xt = s2s_tail(0, x, n * sizeof x[0]);

        s2s_fill_i32(out, PLANES * ROWS * S2S_CAP, -9, -1);
        last_ij(n, xt, out, &last[0], &last[1]);
        S2S_OUT("last_ij", out, ROWS * n + S2S_GUARD);
        if (n > 0)  /* no iteration: OpenMP leaves them as they were */
            S2S_OUT("last_ij.ij", last, 2);

        s2s_fill_i32(out, PLANES * ROWS * S2S_CAP, -9, -1);
        gi = gj = -5;
        last_global(n, xt, out);
        last[0] = gi;
        last[1] = gj;
        S2S_OUT("last_global", out, ROWS * n + S2S_GUARD);
        if (n > 0)  /* no iteration: OpenMP leaves them as they were */
            S2S_OUT("last_global.ij", last, 2);

        s2s_fill_i32(out, PLANES * ROWS * S2S_CAP, -9, -1);
        priv_i(n, xt, out);
        S2S_OUT("priv_i", out, ROWS * n + S2S_GUARD);

        s2s_fill_i32(out, PLANES * ROWS * S2S_CAP, -9, -1);
        last_ijk(n, xt, out, last);
        S2S_OUT("last_ijk", out, PLANES * ROWS * n + S2S_GUARD);
        if (n > 0)  /* no iteration: OpenMP leaves them as they were */
            S2S_OUT("last_ijk.ijk", last, 3);

        s2s_fill_i32(out, PLANES * ROWS * S2S_CAP, -9, -1);
        for_simd_last(n, xt, out, &last[0], &last[1]);
        S2S_OUT("for_simd_last", out, ROWS * n + S2S_GUARD);
        if (n > 0)  /* no iteration: OpenMP leaves them as they were */
            S2S_OUT("for_simd_last.ij", last, 2);

        s2s_fill_i32(out, PLANES * ROWS * S2S_CAP, -9, -1);
        par_for_simd_priv(n, xt, out);
        S2S_OUT("par_for_simd_priv", out, ROWS * n + S2S_GUARD);
    }
    return 0;
}
