/* s2s-test: vectorized=? tolerance=exact grep="_ZGV[a-z]N[0-9]+vv_twice_plus\(" */
/* declare_simd_macro_return_type: a declare simd function whose return
 * type is a macro (gcc's vect-simd-clone tests write them so).  The
 * definition's extent then starts at the macro, before the function's own
 * pragma, and s2svec took that pragma for one in the body: the function
 * was refused ("'#pragma omp declare' in the body"), the loop calling it
 * serialized. */
#include "harness.h"

#define RESULT_TYPE int
#define ARG_TYPE int

#pragma omp declare simd notinbranch
RESULT_TYPE twice_plus(ARG_TYPE x, ARG_TYPE y)
{
    return x * 2 + (y > x ? y : -y);
}

void kern(int n, const int *a, const int *b, int *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o[i] = twice_plus(a[i], b[i]);
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP], o[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_i32(b, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) o[i] = 9;
        kern(n, a, b, o);
        S2S_OUT("o", o, n + S2S_GUARD);
    }
    return 0;
}
