/* s2s-test: vectorized=1 tolerance=exact */
/* int_div_by_const: division by constants (7, -3, 16) signed and unsigned,
 * where negative dividends round toward zero, not down. */
#include "harness.h"

void cdiv(int n, const int *a, int *s, unsigned *u, long long *l)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        s[i] = a[i] / 7 + a[i] % -3 + a[i] / 16;
        u[i] = (unsigned)a[i] / 7u + (unsigned)a[i] % 16u;
        l[i] = (long long)a[i] * 1000 / 9;
    }
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], s[S2S_CAP];
    static unsigned u[S2S_CAP];
    static long long l[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -2147483647 - 1, 2147483647);
        for (int i = 1; i < n; i += 3) a[i] = (int)s2s_int(-40, 40);
        s2s_fill_i32(s, S2S_CAP, 0, 0);
        s2s_fill_u32(u, S2S_CAP);
        s2s_fill_i64((int64_t *)l, S2S_CAP, 0, 0);
        cdiv(n, s2s_tail(0, a, n * sizeof a[0]), s, u, l);
        S2S_OUT("s", s, n + S2S_GUARD);
        S2S_OUT("u", u, n + S2S_GUARD);
        S2S_OUT("l", l, n + S2S_GUARD);
    }
    return 0;
}
