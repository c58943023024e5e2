/* s2s-test: vectorized=1 tolerance=exact */
/* collapse2: collapse(2) over a rows x n iteration space (lanes cross row
 * boundaries when n is not a multiple of W). */
#include "harness.h"

#define ROWS 3

void outer(int n, const double *x, const double *w, double *out)
{
#pragma omp simd collapse(2)
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < n; c++)
            out[r * n + c] = x[c] * w[r] + r;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], w[ROWS], out[ROWS * S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -1.0, 1.0);
        s2s_fill_f64(w, ROWS, -4.0, 4.0);
        s2s_fill_f64(out, ROWS * S2S_CAP, 7.0, 8.0);
        outer(n, s2s_tail(0, x, n * sizeof x[0]), w, out);
        S2S_OUT("out", out, ROWS * n + S2S_GUARD);
    }
    return 0;
}
