/* s2s-test: vectorized=1 tolerance=exact */
/* simdlen_wide_int64: simdlen(16) on int64 is wider than a register of
 * every target (AVX-512: 8 lanes); the loop runs 16 iterations per trip in
 * as many registers as it takes (two on AVX-512, four on AVX2, eight on
 * NEON), with a divergent select and a reduction per register. */
#include "harness.h"

int64_t wide(int n, const int64_t *a, int64_t *b)
{
    int64_t s = 0;
#pragma omp simd simdlen(16) reduction(+ : s)
    for (int i = 0; i < n; i++) {
        int64_t v = a[i] > 5 ? a[i] * 3 : -a[i];
        b[i] = v;
        s += v;
    }
    return s;
}

int main(int argc, char **argv)
{
    static int64_t a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i64(a, n, -1000, 1000);
        s2s_fill_i64(b, S2S_CAP, 0, 0);
        int64_t s = wide(n, s2s_tail(0, a, n * sizeof a[0]), b);
        s2s_out_i64("s", s);
        S2S_OUT("b", b, n + S2S_GUARD);
    }
    return 0;
}
