/* s2s-test: vectorized=1 tolerance=exact */
/* compare_to_int: double comparisons stored as int 0/1 (the mask of a
 * 64-bit compare narrowed to 32-bit lanes), with NaN operands where every
 * ordered comparison is false and != is true. */
#include "harness.h"

void cmps(int n, const double *a, const double *b, int *lt, int *ge, int *ne, int *eq)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        lt[i] = a[i] < b[i];
        ge[i] = a[i] >= b[i];
        ne[i] = a[i] != b[i];
        eq[i] = (a[i] == b[i]) * 5 + !(a[i] <= b[i]);
    }
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], b[S2S_CAP];
    static int lt[S2S_CAP], ge[S2S_CAP], ne[S2S_CAP], eq[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) {
            a[i] = (double)s2s_int(-3, 3);
            b[i] = (double)s2s_int(-3, 3);
            if (i % 9 == 4) a[i] = NAN;
            if (i % 13 == 6) b[i] = NAN;
            if (i % 17 == 8) { a[i] = 0.0; b[i] = -0.0; }
        }
        s2s_fill_i32(lt, S2S_CAP, 9, 9);
        s2s_fill_i32(ge, S2S_CAP, 9, 9);
        s2s_fill_i32(ne, S2S_CAP, 9, 9);
        s2s_fill_i32(eq, S2S_CAP, 9, 9);
        cmps(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), lt, ge, ne, eq);
        S2S_OUT("lt", lt, n + S2S_GUARD);
        S2S_OUT("ge", ge, n + S2S_GUARD);
        S2S_OUT("ne", ne, n + S2S_GUARD);
        S2S_OUT("eq", eq, n + S2S_GUARD);
    }
    return 0;
}
