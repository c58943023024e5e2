/* s2s-test: vectorized=2 tolerance=exact args="--interleave 4 --refill-ratio 0" */
/* scan_inner_loop_wide: scan_inner_loop with four vectors per trip and refill asked for wherever it can be built.
 * scan_inner_loop: scans whose input phase holds a data-dependent inner
 * loop (divergent: lanes leave it at different trips).  Lane refill, which
 * would start a lane's next iteration before the others' and so take
 * iterations out of order, is off for scan loops; the running total must
 * still see the iterations in order.  Run with the default options and,
 * in scan_inner_loop_wide, with four vectors per trip. */
#include "harness.h"

long scan_digits(int n, const unsigned *a, long *b)
{
    long x = 0;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        unsigned v = a[i] % 100000u;
        while (v != 0) {
            x += (long)(v % 10u);
            v /= 10u;
        }
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

unsigned scan_steps(int n, const unsigned *a, unsigned *b)
{
    unsigned x = 1u;
#pragma omp simd reduction(inscan, ^: x)
    for (int i = 0; i < n; i++) {
        b[i] = x;
#pragma omp scan exclusive(x)
        for (unsigned v = a[i] & 63u; v > 1u; v = (v & 1u) ? 3u * v + 1u : v / 2u)
            x ^= v;
    }
    return x;
}

int main(int argc, char **argv)
{
    static unsigned a[S2S_CAP], c[S2S_CAP];
    static long b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u32(a, n);
        const unsigned *ta = s2s_tail(0, a, n * sizeof a[0]);
        for (int i = 0; i < S2S_CAP; i++) b[i] = -1;
        s2s_out_i64("digits", scan_digits(n, ta, b));
        S2S_OUT("b", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) c[i] = 9u;
        s2s_out_i64("steps", (long long)scan_steps(n, ta, c));
        S2S_OUT("c", c, n + S2S_GUARD);
    }
    return 0;
}
