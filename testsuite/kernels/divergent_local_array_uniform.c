/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_local_array_uniform: a local array written uniformly (the
 * same values in every iteration: a table built from a parameter) and
 * read at per-lane indices under a divergent condition, next to a local
 * array written at per-lane values.  The uniform one may stay a single
 * scalar array, the other must be per lane. */
#include "harness.h"

void lut(int n, int32_t base, const int32_t *x, int32_t *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t t[8], u[4];
        for (int k = 0; k < 8; k++)
            t[k] = base * k + k * k;
        for (int k = 0; k < 4; k++)
            u[k] = x[i] >> k;
        int32_t v = 0;
        if (x[i] > 0)
            v = t[x[i] & 7] + u[x[i] & 3];
        else if (x[i] < -10)
            v = t[(-x[i]) % 8] - u[1];
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 100000) : (int32_t)s2s_int(-100000, 0);
            s2s_fill_i32(y, S2S_CAP, 4, 4);
            lut(n, 1000 + n, s2s_tail(0, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
