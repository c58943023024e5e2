/* s2s-test: vectorized=1 tolerance=exact */
/* uniform_store_last_lane: every iteration stores to the same address; after
 * the loop it must hold the value of the sequentially last iteration. */
#include "harness.h"

void last(int n, const int *x, int *y, int *last_val, int *last_i)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        y[i] = x[i] + 1;
        *last_val = x[i] * 2;
        last_i[0] = i;
    }
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int lv = -1, li = -1;
        s2s_fill_i32(x, n, -100, 100);
        s2s_fill_i32(y, S2S_CAP, 0, 0);
        last(n, s2s_tail(0, x, n * sizeof x[0]), y, &lv, &li);
        s2s_out_i64("last_val", lv);
        s2s_out_i64("last_i", li);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
