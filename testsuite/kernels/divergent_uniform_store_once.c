/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_uniform_store_once: a store to one uniform address under a
 * divergent condition that holds for at most one iteration (the keys are
 * distinct), so the program is race-free: where the key sits, and a second
 * uniform slot written from the same branch.  When no iteration matches,
 * the slots keep their old values. */
#include "harness.h"

void find_key(int n, int32_t key, const int32_t *x, int32_t *where, double *what, const double *val)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (x[i] == key) {
            *where = i;
            what[0] = val[i] * 2.0;
        }
    }
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP];
    static double val[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) x[i] = 3 * i + 1;       /* distinct */
        for (int i = n - 1; i > 0; i--) {
            int j = (int)s2s_int(0, i), t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
        s2s_fill_f64(val, n, -1.0, 1.0);
        for (int t = 0; t < 6; t++) {
            int32_t key = t == 0 ? 0 : t == 1 && n > 0 ? x[0] : t == 2 && n > 0 ? x[n - 1]
                        : n > 0 ? x[s2s_int(0, n - 1)] : 5;
            int32_t where[2] = {-1, -2};
            double what[2] = {9.0, 8.0};
            find_key(n, key, s2s_tail(0, x, n * sizeof x[0]), where, what, s2s_tail(1, val, n * sizeof val[0]));
            S2S_OUT("where", where, 2);
            S2S_OUT("what", what, 2);
        }
    }
    return 0;
}
