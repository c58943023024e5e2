/* s2s-test: vectorized=1 tolerance=exact */
/* ternary_minmax_nan_zero: a < b ? a : b is NOT fmin: with a NaN operand it
 * gives b, and with +0/-0 it gives b; a vector min/max instruction is only
 * right with the operands in the matching order.  NaNs here are all the
 * same constant, so their bits are well defined (a copy, not arithmetic). */
#include "harness.h"

void minmax_sel(int n, const float *a, const float *b, float *lo, float *hi)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        lo[i] = a[i] < b[i] ? a[i] : b[i];
        hi[i] = a[i] > b[i] ? a[i] : b[i];
    }
}

int main(int argc, char **argv)
{
    static float a[S2S_CAP], b[S2S_CAP], lo[S2S_CAP], hi[S2S_CAP];
    static const float special[] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 1.0f, -1.0f};
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(a, n, -2.0, 2.0);
        s2s_fill_f32(b, n, -2.0, 2.0);
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) a[i] = special[s2s_u32() % 7];
            if (i % 3 == 0) b[i] = special[s2s_u32() % 7];
        }
        s2s_fill_f32(lo, S2S_CAP, 5.0, 5.0);
        s2s_fill_f32(hi, S2S_CAP, 5.0, 5.0);
        minmax_sel(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), lo, hi);
        S2S_OUT("lo", lo, n + S2S_GUARD);
        S2S_OUT("hi", hi, n + S2S_GUARD);
    }
    return 0;
}
