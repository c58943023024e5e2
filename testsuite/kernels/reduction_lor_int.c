/* s2s-test: vectorized=1 tolerance=exact */
/* reduction_lor_int: reduction(||) over lane patterns; the body's value is
 * an int that is not 0/1, so the result must still be normalised to 1. */
#include "harness.h"

int any_set(int n, const int *x)
{
    int any = 0;
#pragma omp simd reduction(||:any)
    for (int i = 0; i < n; i++)
        any = any || (x[i] & 6);
    return any;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) x[i] = s2s_pattern(p, i, n) ? 4 : 9;
            s2s_out_i64("any", any_set(n, s2s_tail(0, x, n * sizeof x[0])));
        }
    }
    return 0;
}
