/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_bisection_two_exits: bisection for the root of x^3 - c on
 * [lo, hi] with two exits that leave different values live out: an exact
 * hit (|f(mid)| < tol: break with mid and exit code 1) or an interval
 * narrower than eps (loop condition: the midpoint of the bracket, exit
 * code 2); also a cap on the steps (exit code 3). */
#include "harness.h"

void bisect(int n, const double *c, const double *tol, double *root, int32_t *how, int32_t *steps)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double lo = 0.0, hi = 100.0, r;
        int32_t code = 2, k = 0;
        while (hi - lo > 1e-9) {
            double mid = 0.5 * (lo + hi);
            double f = mid * mid * mid - c[i];
            if (fabs(f) < tol[i]) {
                r = mid;
                code = 1;
                break;
            }
            if (f < 0.0)
                lo = mid;
            else
                hi = mid;
            k++;
            if (k >= 40) {
                code = 3;
                break;
            }
        }
        if (code != 1)
            r = 0.5 * (lo + hi);
        root[i] = r;
        how[i] = code;
        steps[i] = k;
    }
}

int main(int argc, char **argv)
{
    static double c[S2S_CAP], tol[S2S_CAP], root[S2S_CAP];
    static int32_t how[S2S_CAP], steps[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                c[i] = s2s_f64(0.0, 1e6);
                if (i % 5 == 2) c[i] = 125000.0;              /* root 50: first midpoint */
                tol[i] = s2s_pattern(p, i, n) ? s2s_f64(1e-3, 10.0) : 0.0;
            }
            s2s_fill_f64(root, S2S_CAP, 1.0, 1.0);
            s2s_fill_i32(how, S2S_CAP, 0, 0);
            s2s_fill_i32(steps, S2S_CAP, 0, 0);
            bisect(n, s2s_tail(0, c, n * sizeof c[0]), s2s_tail(1, tol, n * sizeof tol[0]), root, how, steps);
            S2S_OUT("root", root, n + S2S_GUARD);
            S2S_OUT("how", how, n + S2S_GUARD);
            S2S_OUT("steps", steps, n + S2S_GUARD);
        }
    }
    return 0;
}
