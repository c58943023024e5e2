/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_collapse_inner: collapse(2) over a 2-D iteration space (the
 * inner loop is vectorized, the outer stays) with a divergent while loop
 * in the body that depends on both indices. */
#include "harness.h"

#define COLS 13

void grid(int rows, const int32_t *g, int32_t *out)
{
#pragma omp simd collapse(2)
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < COLS; c++) {
            int32_t v = g[r * COLS + c] + r - c, k = 0;
            while (v > 0 && k < 40) {
                v -= (v & 7) + 1 + r;
                k++;
            }
            out[r * COLS + c] = k * 1000 + v;
        }
    }
}

int main(int argc, char **argv)
{
    static int32_t g[S2S_CAP * COLS], out[S2S_CAP * COLS];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int rows = n / 4 + 1;
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < rows * COLS; i++)
                g[i] = s2s_pattern(p, i, rows * COLS) ? (int32_t)s2s_int(0, 300) : (int32_t)s2s_int(-50, 0);
            s2s_fill_i32(out, S2S_CAP * COLS, 9, 9);
            grid(rows, s2s_tail(0, g, (size_t)rows * COLS * sizeof g[0]), out);
            S2S_OUT("out", out, rows * COLS + S2S_GUARD);
        }
    }
    return 0;
}
