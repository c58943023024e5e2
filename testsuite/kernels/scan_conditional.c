/* s2s-test: vectorized=3 tolerance=exact */
/* scan_conditional: scans whose phases branch.  The scan phase under an if
 * (divergent lanes store different values, some lanes store nothing); an
 * input phase that contributes only on some lanes (the others contribute
 * the identity); two variables in one 'scan inclusive(s, m)', a sum and a
 * maximum (OpenMP allows no ordinary reduction beside inscan ones, so this
 * is the loop with another reduction). */
#include "harness.h"

int scan_if_after(int n, const int *a, int *b)
{
    int x = 0;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        x += a[i];
#pragma omp scan inclusive(x)
        if (a[i] > 0)
            b[i] = x;
        else if (a[i] < -500)
            b[i] = -x;
    }
    return x;
}

int scan_if_input(int n, const int *a, int *b)
{
    int x = 11;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        b[i] = x;
#pragma omp scan exclusive(x)
        if (a[i] & 1)
            x += a[i];
    }
    return x;
}

int scan_two(int n, const int *a, int *b, int *c)
{
    int s = 0, m = -2000;
#pragma omp simd reduction(inscan, +: s) reduction(inscan, max: m)
    for (int i = 0; i < n; i++) {
        s += a[i];
        m = a[i] > m ? a[i] : m;
#pragma omp scan inclusive(s, m)
        b[i] = s;
        c[i] = m - s;
    }
    return s ^ m;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP], c[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        const int *ta = s2s_tail(0, a, n * sizeof a[0]);
        for (int i = 0; i < S2S_CAP; i++) b[i] = 3;
        s2s_out_i64("if_after", scan_if_after(n, ta, b));
        S2S_OUT("b1", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) b[i] = 3;
        s2s_out_i64("if_input", scan_if_input(n, ta, b));
        S2S_OUT("b2", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) { b[i] = 3; c[i] = 4; }
        s2s_out_i64("two", scan_two(n, ta, b, c));
        S2S_OUT("b3", b, n + S2S_GUARD);
        S2S_OUT("c3", c, n + S2S_GUARD);
    }
    return 0;
}
