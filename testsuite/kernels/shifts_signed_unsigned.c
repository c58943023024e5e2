/* s2s-test: vectorized=1 tolerance=exact */
/* shifts_signed_unsigned: >> is arithmetic on negative ints (gcc/clang
 * define it so) and logical on unsigned; per-lane shift counts 0..31, and
 * constant shifts; 64-bit shifts too. */
#include "harness.h"

void shifts(int n, const int *a, const int *c, int *sr, unsigned *ur, int *sl, long long *lr)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        sr[i] = a[i] >> c[i];
        ur[i] = (unsigned)a[i] >> c[i];
        sl[i] = (int)((unsigned)a[i] << c[i]) + (a[i] >> 3);
        lr[i] = ((long long)a[i] << 20) >> (c[i] + 5);
    }
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], c[S2S_CAP], sr[S2S_CAP], sl[S2S_CAP];
    static unsigned ur[S2S_CAP];
    static long long lr[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -2147483647 - 1, 2147483647);
        s2s_fill_i32(c, n, 0, 31);
        s2s_fill_i32(sr, S2S_CAP, 0, 0);
        s2s_fill_i32(sl, S2S_CAP, 0, 0);
        s2s_fill_u32(ur, S2S_CAP);
        s2s_fill_i64((int64_t *)lr, S2S_CAP, 0, 0);
        shifts(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, c, n * sizeof c[0]), sr, ur, sl, lr);
        S2S_OUT("sr", sr, n + S2S_GUARD);
        S2S_OUT("ur", ur, n + S2S_GUARD);
        S2S_OUT("sl", sl, n + S2S_GUARD);
        S2S_OUT("lr", lr, n + S2S_GUARD);
    }
    return 0;
}
