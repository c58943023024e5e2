/* s2s-test: vectorized=1 tolerance=exact */
/* stencil_2d: a 5-point stencil; the inner (column) loop is annotated, the
 * row loop around it stays scalar. */
#include "harness.h"

#define ROWS 6
#define COLS (S2S_MAXN + 2)

void stencil(int n, double a[ROWS][COLS], double b[ROWS][COLS])
{
    for (int r = 1; r < ROWS - 1; r++) {
#pragma omp simd
        for (int c = 1; c <= n; c++)
            b[r][c] = 0.2 * (a[r][c] + a[r - 1][c] + a[r + 1][c] + a[r][c - 1] + a[r][c + 1]);
    }
}

int main(int argc, char **argv)
{
    static double a[ROWS][COLS], b[ROWS][COLS];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(&a[0][0], ROWS * COLS, -1.0, 1.0);
        s2s_fill_f64(&b[0][0], ROWS * COLS, 3.0, 4.0);
        stencil(n, a, b);
        for (int r = 0; r < ROWS; r++) S2S_OUT("b", b[r], n + 2);
    }
    return 0;
}
