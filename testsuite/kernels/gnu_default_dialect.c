/* s2s-test: vectorized=1 tolerance=exact */
/* gnu_default_dialect: gcc and clang compile C as gnu17 by default, where
 * <math.h> defines M_PI; a user running `s2svec f.c -o g.c` on such a file
 * expects it to parse the same way.  (math.h comes first on purpose, before
 * harness.h could ask for _DEFAULT_SOURCE.) */
#include <math.h>
#include "harness.h"

void to_radians(int n, const double *deg, double *rad)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        rad[i] = deg[i] * (M_PI / 180.0);
}

int main(int argc, char **argv)
{
    static double deg[S2S_CAP], rad[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(deg, n, -720.0, 720.0);
        s2s_fill_f64(rad, S2S_CAP, 1.0, 1.0);
        to_radians(n, s2s_tail(0, deg, n * sizeof deg[0]), rad);
        S2S_OUT("rad", rad, n + S2S_GUARD);
    }
    return 0;
}
