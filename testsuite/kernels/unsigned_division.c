/* s2s-test: vectorized=1 tolerance=exact */
/* unsigned_division: unsigned / and % on values above 2^31 (a conversion
 * through signed int or float would get these wrong). */
#include "harness.h"

void udiv(int n, const unsigned *a, const unsigned *b, unsigned *q, unsigned *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

int main(int argc, char **argv)
{
    static unsigned a[S2S_CAP], b[S2S_CAP], q[S2S_CAP], r[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u32(a, n);
        for (int i = 0; i < n; i++) {
            unsigned d = s2s_u32() >> (s2s_u32() % 32);
            b[i] = d ? d : 3u;
        }
        if (n > 1) { a[1] = 0xffffffffu; b[1] = 0xfffffffeu; }
        s2s_fill_u32(q, S2S_CAP);
        s2s_fill_u32(r, S2S_CAP);
        udiv(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), q, r);
        S2S_OUT("q", q, n + S2S_GUARD);
        S2S_OUT("r", r, n + S2S_GUARD);
    }
    return 0;
}
