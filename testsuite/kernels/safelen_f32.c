/* s2s-test: vectorized=1 tolerance=exact maxwidth=2 scalable_vectorized=0 */
/* safelen_f32: distance-2 dependence on floats with safelen(2): W must be 2
 * even though 4/8/16 floats fit in a register. */
#include "harness.h"

void recur2(int n, float *a)
{
#pragma omp simd safelen(2)
    for (int i = 2; i < n; i++)
        a[i] = a[i - 2] + 1.0f;
}

int main(int argc, char **argv)
{
    static float a[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(a, S2S_CAP, 0.0, 10.0);
        recur2(n, a);
        S2S_OUT("a", a, n + S2S_GUARD);
    }
    return 0;
}
