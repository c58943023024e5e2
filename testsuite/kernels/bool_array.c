/* s2s-test: vectorized=1 tolerance=exact */
/* bool_array: _Bool loads (0/1 bytes) used in arithmetic and _Bool stores
 * of comparisons (any nonzero value converts to 1). */
#include "harness.h"

void flags(int n, const _Bool *f, const int *x, _Bool *g, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        g[i] = x[i] & 12;
        y[i] = f[i] * 10 + (x[i] > 0) - !f[i];
    }
}

int main(int argc, char **argv)
{
    static _Bool f[S2S_CAP], g[S2S_CAP];
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p += 3) {
            for (int i = 0; i < n; i++) f[i] = (_Bool)s2s_pattern(p, i, n);
            s2s_fill_i32(x, n, -20, 20);
            memset(g, 0, sizeof g);
            s2s_fill_i32(y, S2S_CAP, 0, 0);
            flags(n, s2s_tail(0, f, n), s2s_tail(1, x, n * sizeof x[0]), g, y);
            S2S_OUT("g", (const unsigned char *)g, n + S2S_GUARD);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
