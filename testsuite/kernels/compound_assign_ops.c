/* s2s-test: vectorized=1 tolerance=exact */
/* compound_assign_ops: += -= *= /= %= <<= >>= &= |= ^= on a local int and
 * on array elements, plus ++ and -- on locals. */
#include "harness.h"

void ops(int n, const int *a, int *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int t = a[i];
        t += 17; t -= i; t *= 3; t /= 5; t %= 1000;
        t <<= 2; t >>= 1; t &= 0x7fff; t |= 0x10; t ^= 0x5a5a;
        t++; --t; t--;
        b[i] += t;
        b[i] ^= a[i];
    }
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000000, 1000000);
        s2s_fill_i32(b, S2S_CAP, -1000, 1000);
        ops(n, s2s_tail(0, a, n * sizeof a[0]), b);
        S2S_OUT("b", b, n + S2S_GUARD);
    }
    return 0;
}
