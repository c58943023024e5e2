/* s2s-test: vectorized=1 tolerance=exact */
/* target_macro_typedef: the element type depends on the target's predefined
 * macros (int on AArch64, long long elsewhere); each target's vector code must
 * come from the file as that target's compiler sees it (issue 10, item 4). */
#include "harness.h"

#ifdef __aarch64__
typedef int elem_t;
#else
typedef long long elem_t;
#endif

void bump(int n, const elem_t *x, elem_t *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 3 + (elem_t)sizeof(elem_t);
}

int main(int argc, char **argv)
{
    static elem_t x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++)
            x[i] = (elem_t)(s2s_int(-100000, 100000));
        for (int i = 0; i < S2S_CAP; i++)
            y[i] = -1;
        bump(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
