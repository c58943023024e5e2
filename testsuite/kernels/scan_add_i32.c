/* s2s-test: vectorized=3 tolerance=exact */
/* scan_add_i32: '#pragma omp scan' prefix sums of ints (OpenMP 5.2 5.6):
 * inclusive (the scan phase after the directive sees this iteration's
 * contribution), exclusive (the scan phase before the directive does not),
 * and an inclusive '-' scan (contributions combined with +).  x starts at a
 * value other than the identity and ends with the whole sum; every size
 * around the width, n = 0 included, so the vector loop, its tail and the
 * running total from one vector to the next are all checked.  Integers:
 * exact.  s2svec makes the prefix lane by lane in iteration order. */
#include "harness.h"

int scan_incl(int n, const int *a, int *b)
{
    int x = 7;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        x += a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

int scan_excl(int n, const int *a, int *b)
{
    int x = -3;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        b[i] = 2 * x + 1;
#pragma omp scan exclusive(x)
        x += a[i] * 3;
    }
    return x;
}

int scan_sub(int n, const int *a, int *b)
{
    int x = 100;
#pragma omp simd reduction(inscan, -: x)
    for (int i = 0; i < n; i++) {
        x -= a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        const int *ta = s2s_tail(0, a, n * sizeof a[0]);
        for (int i = 0; i < S2S_CAP; i++) b[i] = -1;
        s2s_out_i64("incl", scan_incl(n, ta, b));
        S2S_OUT("b_incl", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) b[i] = -1;
        s2s_out_i64("excl", scan_excl(n, ta, b));
        S2S_OUT("b_excl", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) b[i] = -1;
        s2s_out_i64("sub", scan_sub(n, ta, b));
        S2S_OUT("b_sub", b, n + S2S_GUARD);
    }
    return 0;
}
