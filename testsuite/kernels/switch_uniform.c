/* s2s-test: vectorized=1 tolerance=exact */
/* switch_uniform: a switch on a loop-invariant value with fall-through,
 * break and default. */
#include "harness.h"

void sw(int n, int op, const int *a, const int *b, int *c)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int r = 0;
        switch (op) {
        case 0:
            r = a[i] + b[i];
            break;
        case 1:
            r = a[i] * 3;
            /* fall through */
        case 2:
            r += b[i] - 1;
            break;
        case 5:
            r = a[i] & b[i];
            break;
        default:
            r = -a[i];
        }
        c[i] = r;
    }
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP], c[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int op = 0; op <= 6; op++) {
            s2s_fill_i32(a, n, -1000, 1000);
            s2s_fill_i32(b, n, -1000, 1000);
            s2s_fill_i32(c, S2S_CAP, 1, 1);
            sw(n, op, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]), c);
            S2S_OUT("c", c, n + S2S_GUARD);
        }
    }
    return 0;
}
