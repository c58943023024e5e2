/* s2s-test: vectorized=1 tolerance=exact */
/* logical_and_or: && and || on comparisons give int 0/1; the right operands
 * are side-effect free and safe, so short-circuiting is not observable. */
#include "harness.h"

void logic(int n, const int *a, const int *b, int *both, int *either, int *mixed)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        both[i] = a[i] > 0 && b[i] < 5;
        either[i] = a[i] == 3 || b[i] != 0;
        mixed[i] = (a[i] > b[i] && a[i] < 7) || !(b[i] >= -2);
    }
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP], both[S2S_CAP], either[S2S_CAP], mixed[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                a[i] = s2s_pattern(p, i, n) ? (int)s2s_int(1, 9) : (int)s2s_int(-9, 0);
                b[i] = (int)s2s_int(-5, 9);
            }
            s2s_fill_i32(both, S2S_CAP, 7, 7);
            s2s_fill_i32(either, S2S_CAP, 7, 7);
            s2s_fill_i32(mixed, S2S_CAP, 7, 7);
            logic(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), both, either, mixed);
            S2S_OUT("both", both, n + S2S_GUARD);
            S2S_OUT("either", either, n + S2S_GUARD);
            S2S_OUT("mixed", mixed, n + S2S_GUARD);
        }
    }
    return 0;
}
