/* s2s-test: vectorized=1 tolerance=exact maxwidth=8 scalable_vectorized=0 */
/* simdlen_safelen: simdlen(4) safelen(8) on ints with a distance-8 dependence. */
#include "harness.h"

void recur8(int n, int *a)
{
#pragma omp simd simdlen(4) safelen(8)
    for (int i = 8; i < n; i++)
        a[i] = a[i - 8] * 3 + i;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, S2S_CAP, -100, 100);
        recur8(n, a);
        S2S_OUT("a", a, n + S2S_GUARD);
    }
    return 0;
}
