/* s2s-test: vectorized=2 tolerance=exact */
/* addr_linear_pointer: linear variables whose address is taken live in
 * per-lane stack storage: lane k's copy starts at start + k*step in its
 * iteration; j is advanced through a pointer in one arm of a divergent
 * branch and by an inlined function through &j in the other; k has a
 * run-time step and is read through a pointer under a branch.  After the
 * loop both hold their sequential final values. */
#include "harness.h"

static void advance(int *j, int by)
{
    *j += by;
}

int pack_pairs(int n, const double *x, double *y)
{
    int j = 1;
#pragma omp simd linear(j:2)
    for (int i = 0; i < n; i++) {
        int *p = &j;
        if (x[i] > 0.0) {
            y[*p] = x[i];
            *p += 2;
        } else {
            y[j - 1] = -x[i];
            advance(&j, 2);
        }
    }
    return j;
}

long long stepped(int n, int st, const int *x, long long *y)
{
    long long k = -3;
#pragma omp simd linear(k:st)
    for (int i = 0; i < n; i++) {
        long long *q = &k;
        y[i] = x[i] > 0 ? *q * 3 : -1;
        *q += st;
    }
    return k;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[2 * S2S_CAP + 2];
    static int xi[S2S_CAP];
    static long long yl[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p += 2) {
            for (int i = 0; i < n; i++) {
                x[i] = s2s_f64(0.5, 2.0);
                if (!s2s_pattern(p, i, n)) x[i] = -x[i];
            }
            s2s_fill_f64(y, 2 * S2S_CAP + 2, 5.0, 6.0);
            s2s_out_i64("j", pack_pairs(n, s2s_tail(0, x, n * sizeof x[0]), y));
            S2S_OUT("y", y, 2 * n + S2S_GUARD);
        }
        s2s_fill_i32(xi, n, -5, 5);
        for (int i = 0; i < S2S_CAP; i++) yl[i] = 9;
        s2s_out_i64("k", stepped(n, 3 - (n % 5), s2s_tail(0, xi, n * sizeof xi[0]), yl));
        S2S_OUT("yl", yl, n + S2S_GUARD);
    }
    return 0;
}
