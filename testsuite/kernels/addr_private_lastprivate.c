/* s2s-test: vectorized=2 tolerance=exact */
/* addr_private_lastprivate: private and lastprivate variables whose address
 * is taken live in per-lane stack storage: &w and &sg passed to an inlined
 * function, a pointer to the lastprivate 'last' written in both arms of a
 * divergent branch (every iteration assigns it, so it ends with the last
 * iteration's value), and &e, &ip passed to libm calls that run lane by
 * lane (each lane's call writes its own copy). */
#include "harness.h"

static void split(double v, double *whole, int *sign)
{
    *sign = v < 0.0;
    *whole = *sign ? -v : v;
}

double priv_last(int n, const double *x, double *y)
{
    double w = 0.0, last = -5.0;
    int sg = 0;
#pragma omp simd private(w, sg) lastprivate(last)
    for (int i = 0; i < n; i++) {
        split(x[i], &w, &sg);
        double *p = &last;
        if (sg)
            *p = w * 2.0;
        else
            *p = w - 1.0;
        y[i] = *p + w;
    }
    return last;
}

double frexp_modf(int n, const double *x, double *y, int *z)
{
    int e = 0;
    double ip = 0.0;
#pragma omp simd private(e) lastprivate(ip)
    for (int i = 0; i < n; i++) {
        double m = frexp(x[i], &e);
        y[i] = m + modf(x[i] * 0.75, &ip);
        z[i] = e + (int)ip;
    }
    return ip;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p += 3) {
            for (int i = 0; i < n; i++) {
                x[i] = s2s_f64(1.0, 100.0);
                if (s2s_pattern(p, i, n)) x[i] = -x[i];
            }
            s2s_fill_f64(y, S2S_CAP, 5.0, 6.0);
            double last = priv_last(n, s2s_tail(0, x, n * sizeof x[0]), y);
            if (n > 0) s2s_out_f64("last", last);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
        s2s_fill_f64(x, n, -1000.0, 1000.0);
        s2s_fill_f64(y, S2S_CAP, 5.0, 6.0);
        for (int i = 0; i < S2S_CAP; i++) z[i] = -7;
        double ip = frexp_modf(n, s2s_tail(0, x, n * sizeof x[0]), y, z);
        if (n > 0) s2s_out_f64("ip", ip);
        S2S_OUT("y2", y, n + S2S_GUARD);
        S2S_OUT("z", z, n + S2S_GUARD);
    }
    return 0;
}
