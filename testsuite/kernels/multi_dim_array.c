/* s2s-test: vectorized=2 tolerance=exact */
/* multi_dim_array: a[r][c] with the simd loop over columns (contiguous) and
 * over rows (stride of one row: gathers/scatters). */
#include "harness.h"

#define R 5
#define C (S2S_MAXN + 1)

static double a[R][C], b[R][C], colsum[C];

void by_column(int n, int r)
{
#pragma omp simd
    for (int c = 0; c < n; c++)
        b[r][c] = a[r][c] * 2.0 + a[(r + 1) % R][c];
}

void by_row(int nrows, int c)
{
#pragma omp simd
    for (int r = 0; r < nrows; r++)
        b[r][c] = a[r][c] - a[r][c + 1];
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(&a[0][0], R * C, -3.0, 3.0);
        s2s_fill_f64(&b[0][0], R * C, 5.0, 5.0);
        for (int r = 0; r < R; r++) by_column(n, r);
        for (int c = 0; c < n && c < C - 1; c++) by_row(n % (R + 1), c);
        for (int r = 0; r < R; r++) S2S_OUT("b", b[r], n < C ? n + 1 : C);
    }
    (void)colsum;
    return 0;
}
