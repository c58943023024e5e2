/* s2s-test: vectorized=1 tolerance=exact */
/* order_concurrent: order(concurrent) is accepted and changes nothing. */
#include "harness.h"

void oc(int n, const unsigned *x, unsigned *y)
{
#pragma omp simd order(concurrent)
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 7u + 3u;
}

int main(int argc, char **argv)
{
    static unsigned x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u32(x, n);
        s2s_fill_u32(y, S2S_CAP);
        oc(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
