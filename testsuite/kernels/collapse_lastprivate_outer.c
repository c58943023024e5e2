/* s2s-test: vectorized=1 tolerance=exact */
/* collapse_lastprivate_outer: collapse(2) with lastprivate of the outer loop
 * variable: the vector code never ends (every target and compiler: timeout).
 * The known "collapse with lastprivate of the outer variable" bug; in the
 * fuzz runs it also shows as a wrong final r or wrong outputs (campaign
 * seeds 1034, 1036; CI seeds 7, 31, 33). */
#include "harness.h"

int f(int n, int rows, int *out)
{
    int r = -1;
#pragma omp simd collapse(2) lastprivate(r)
    for (r = 0; r < rows; r++)
        for (int c = 0; c < n; c++)
            out[r * n + c] = r + c;
    return r;
}

int main(int argc, char **argv)
{
    static int out[3 * S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int j = 0; j < 3 * S2S_CAP; j++) out[j] = (int)s2s_u32();
        int r = f(n, 3, out);
        if (n > 0) s2s_out_i64("r", r);
        S2S_OUT("out", out, 3 * n + S2S_GUARD);
    }
    return 0;
}
