/* s2s-test: vectorized=1 tolerance=exact */
/* int_division: signed / and % with varying divisors of both signs (C
 * truncates toward zero; the remainder takes the dividend's sign).  No
 * vector ISA here divides integers: the tool must emulate it exactly. */
#include "harness.h"

void idiv(int n, const int *a, const int *b, int *q, int *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP], q[S2S_CAP], r[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -2147483647, 2147483647);
        for (int i = 0; i < n; i++) {
            int d = (int)s2s_int(-70000, 70000);
            if (i % 4 == 1) d = (int)s2s_int(-9, 9);
            if (i % 8 == 2) a[i] = (int)s2s_int(-20, 20);
            b[i] = d == 0 ? 1 : d;
        }
        if (n > 0) { a[0] = -2147483647 - 1; b[0] = 1; }      /* INT_MIN / 1 */
        if (n > 3) { a[3] = 2147483647; b[3] = -1; }
        s2s_fill_i32(q, S2S_CAP, 0, 0);
        s2s_fill_i32(r, S2S_CAP, 0, 0);
        idiv(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), q, r);
        S2S_OUT("q", q, n + S2S_GUARD);
        S2S_OUT("r", r, n + S2S_GUARD);
    }
    return 0;
}
