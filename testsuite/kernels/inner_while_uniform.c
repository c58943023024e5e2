/* s2s-test: vectorized=1 tolerance=exact */
/* inner_while_uniform: a while loop and a do-while with a uniform trip
 * count inside the simd loop. */
#include "harness.h"

void powers(int n, int e, const int *x, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int p = 1, k = 0;
        while (k < e) {
            p *= x[i];
            k++;
        }
        int q = x[i];
        do {
            q = q / 2 + 1;
            k--;
        } while (k > 0);
        y[i] = p + q;
    }
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int e = 0; e <= 3; e++) {
            s2s_fill_i32(x, n, -30, 30);
            s2s_fill_i32(y, S2S_CAP, 0, 0);
            powers(n, e, s2s_tail(0, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
