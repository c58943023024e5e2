/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_newton_sqrt: Newton iteration for sqrt(a) in double with a
 * per-lane stop (relative change below 1e-15, or 60 steps), a do-while
 * loop; a <= 0 lanes skip it through a divergent if.  The root and the
 * number of steps are live out. */
#include "harness.h"

void newton(int n, const double *a, double *root, int32_t *iters)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double r = 0.0;
        int32_t k = 0;
        if (a[i] > 0.0) {
            double x = a[i] > 1.0 ? a[i] : 1.0;
            double d;
            do {
                double nx = 0.5 * (x + a[i] / x);
                d = fabs(nx - x);
                x = nx;
                k++;
            } while (d > 1e-15 * x && k < 60);
            r = x;
        }
        root[i] = r;
        iters[i] = k;
    }
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], root[S2S_CAP];
    static int32_t it[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                if (!s2s_pattern(p, i, n))
                    a[i] = -s2s_f64(0.0, 10.0);
                else if (i % 4 == 0)
                    a[i] = s2s_f64(0.0, 1e-6);
                else if (i % 4 == 1)
                    a[i] = 1.0;
                else
                    a[i] = s2s_f64(1.0, 1e12);
            }
            s2s_fill_f64(root, S2S_CAP, 3.0, 3.0);
            s2s_fill_i32(it, S2S_CAP, -1, -1);
            newton(n, s2s_tail(0, a, n * sizeof a[0]), root, it);
            S2S_OUT("root", root, n + S2S_GUARD);
            S2S_OUT("it", it, n + S2S_GUARD);
        }
    }
    return 0;
}
