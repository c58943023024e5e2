/* s2s-test: vectorized=1 tolerance=exact */
/* iv_negative_start: a long iv from a negative start; negative values of
 * the iv in arithmetic (i / 2 rounds toward zero, i % 3 is negative). */
#include "harness.h"

void negstart(long n, long *y)
{
#pragma omp simd
    for (long i = -7; i < n - 7; i++)
        y[i + 7] = i / 2 + i % 3 * 100;
}

int main(int argc, char **argv)
{
    static long y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i64((int64_t *)y, S2S_CAP, 5, 5);
        negstart(n, y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
