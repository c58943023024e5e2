/* s2s-test: vectorized=2 tolerance=exact */
/* scan_logical: '&&' and '||' scans of int flags: an inclusive && (does
 * every element so far pass?) and an exclusive || (did any before this
 * one?); identities 1 and 0.  The flags mostly pass, so the && stays true
 * over whole vectors on some sizes and turns false inside one on others. */
#include "harness.h"

int scan_land(int n, const int *a, int *b)
{
    int x = 1;
#pragma omp simd reduction(inscan, &&: x)
    for (int i = 0; i < n; i++) {
        x = x && a[i] > -990;
#pragma omp scan inclusive(x)
        b[i] = x ? i : -i;
    }
    return x;
}

int scan_lor(int n, const int *a, int *b)
{
    int x = 0;
#pragma omp simd reduction(inscan, ||: x)
    for (int i = 0; i < n; i++) {
        b[i] = x;
#pragma omp scan exclusive(x)
        x = x || a[i] > 990;
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
        for (int i = 0; i < S2S_CAP; i++) b[i] = 5;
        s2s_out_i64("land", scan_land(n, ta, b));
        S2S_OUT("b_land", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) b[i] = 5;
        s2s_out_i64("lor", scan_lor(n, ta, b));
        S2S_OUT("b_lor", b, n + S2S_GUARD);
    }
    return 0;
}
