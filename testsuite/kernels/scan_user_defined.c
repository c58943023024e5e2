/* s2s-test: vectorized=3 tolerance=exact candidate_cflags="-fopenmp" */
/* scan_user_defined: '#pragma omp scan' of reductions declared with
 * '#pragma omp declare reduction': an int maximum whose initializer is
 * INT_MIN (inclusive), a long product whose initializer sets omp_priv
 * through a call (exclusive), a double sum of squares whose initializer
 * reads omp_orig (inclusive; integer values, so exact in any order).  Each
 * iteration's private copy starts at the initializer's value and the
 * running total is combined with the combiner.  The candidate is built
 * with -fopenmp: the scalar copies keep the declarations. */
#include "harness.h"
#include <limits.h>

static void start_at_one(long *p)
{
    *p = 1;
}

#pragma omp declare reduction(imax : int : omp_out = omp_out > omp_in ? omp_out : omp_in) \
    initializer(omp_priv = INT_MIN)
#pragma omp declare reduction(lmul : long : omp_out *= omp_in) initializer(start_at_one(&omp_priv))
#pragma omp declare reduction(sumsq : double : omp_out = omp_out + omp_in) \
    initializer(omp_priv = omp_orig * 0.0)

int scan_imax(int n, const int *a, int *b)
{
    int m = -5;
#pragma omp simd reduction(inscan, imax : m)
    for (int i = 0; i < n; i++) {
        m = a[i] > m ? a[i] : m;
#pragma omp scan inclusive(m)
        b[i] = m;
    }
    return m;
}

long scan_lmul(int n, const long *f, long *b)
{
    long p = 3;
#pragma omp simd reduction(inscan, lmul : p)
    for (int i = 0; i < n; i++) {
        b[i] = p;
#pragma omp scan exclusive(p)
        p *= f[i];
    }
    return p;
}

double scan_sumsq(int n, const double *x, double *b)
{
    double q = 2.0;
#pragma omp simd reduction(inscan, sumsq : q)
    for (int i = 0; i < n; i++) {
        q = q + x[i] * x[i];
#pragma omp scan inclusive(q)
        b[i] = q;
    }
    return q;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], ib[S2S_CAP];
    static long f[S2S_CAP], lb[S2S_CAP];
    static double x[S2S_CAP], db[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) {
            a[i] = (int)s2s_int(-1000, 1000);
            f[i] = (i % 9 == 0) ? -1 : (i % 7 == 0 ? 2 : 1);
            x[i] = (double)s2s_int(-50, 50);
        }
        for (int i = 0; i < S2S_CAP; i++) { ib[i] = 9; lb[i] = 9; db[i] = 9.0; }
        s2s_out_i64("imax", scan_imax(n, s2s_tail(0, a, n * sizeof a[0]), ib));
        S2S_OUT("ib", ib, n + S2S_GUARD);
        s2s_out_i64("lmul", scan_lmul(n, s2s_tail(1, f, n * sizeof f[0]), lb));
        S2S_OUT("lb", lb, n + S2S_GUARD);
        s2s_out_f64("sumsq", scan_sumsq(n, s2s_tail(2, x, n * sizeof x[0]), db));
        S2S_OUT("db", db, n + S2S_GUARD);
    }
    return 0;
}
