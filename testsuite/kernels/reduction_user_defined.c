/* s2s-test: vectorized=4 tolerance=exact candidate_cflags="-fopenmp" */
/* reduction_user_defined: reductions declared with '#pragma omp declare
 * reduction': each lane's private copy starts as the initializer makes it
 * (omp_priv = INT_MIN; a call that sets omp_priv through its address; none,
 * so 0; omp_orig read), the body updates it like the combiner would, and
 * the lanes are combined with the combiner after the loop (a ?: combiner, a
 * combiner calling a function, one under 'parallel for simd', which the
 * OpenMP runtime combines across threads with the same declaration).  The
 * candidate is built with -fopenmp, so the kept pragmas and the
 * declarations are compiled as OpenMP.  The values are integers (in double
 * too), so any order of combination gives the scalar loop's result. */
#include "harness.h"
#include <limits.h>

static double add_sq(double acc, double x)
{
    return acc + x * x;
}

static void start_at_one(long *p)
{
    *p = 1;
}

#pragma omp declare reduction(imax : int : omp_out = omp_out > omp_in ? omp_out : omp_in) \
    initializer(omp_priv = INT_MIN)
#pragma omp declare reduction(sumsq : double : omp_out = omp_out + omp_in) \
    initializer(omp_priv = omp_orig * 0.0)
#pragma omp declare reduction(lmul : long : omp_out *= omp_in) initializer(start_at_one(&omp_priv))
#pragma omp declare reduction(bits : unsigned int : omp_out |= omp_in)

void reduce(int n, const int *a, const double *x, const long *f, unsigned *res_bits,
            int *res_max, double *res_sq, long *res_mul)
{
    int m = -5;
#pragma omp simd reduction(imax : m)
    for (int i = 0; i < n; i++) {
        if (a[i] > 0)
            m = a[i] > m ? a[i] : m;
    }
    double q = 2.0;
#pragma omp simd reduction(sumsq : q)
    for (int i = 0; i < n; i++)
        q = add_sq(q, x[i]);
    long p = 3;
#pragma omp simd reduction(lmul : p)
    for (int i = 0; i < n; i++)
        p *= f[i];
    unsigned b = 0x100u;
#pragma omp parallel for simd reduction(bits : b)
    for (int i = 0; i < n; i++)
        b |= 1u << (a[i] & 31);
    *res_max = m;
    *res_sq = q;
    *res_mul = p;
    *res_bits = b;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP];
    static double x[S2S_CAP];
    static long f[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) {
            a[i] = (int)s2s_int(-1000, 1000);
            x[i] = (double)s2s_int(-50, 50);
            f[i] = (i % 9 == 0) ? -1 : 1;
        }
        int m;
        double q;
        long p;
        unsigned b;
        reduce(n, a, x, f, &b, &m, &q, &p);
        s2s_out_i64("max", m);
        s2s_out_f64("sq", q);
        s2s_out_i64("mul", p);
        s2s_out_i64("bits", b);
    }
    return 0;
}
