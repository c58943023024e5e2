/* s2s-test: vectorized=1 tolerance=exact */
/* neon_plain_char_constant: (char)(-1) is 255 where plain char is unsigned
 * (AArch64), so 255 / d; s2svec's NEON code divides -1 (vdupq_n_s32(-1)),
 * as if the cast to plain char were signed.  Found by testsuite/fuzz seed 1005
 * (gcc-neon, clang19-neon: wrong output; x86 fine: char is signed there). */
#include "harness.h"

void f(int n, const char *a, char *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = (char)((char)(-1) / (char)(a[i] | 1));
}

int main(int argc, char **argv)
{
    static char a[S2S_CAP], out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int j = 0; j < S2S_CAP; j++) {
            a[j] = (char)s2s_u32();
            out[j] = (char)s2s_u32();
        }
        f(n, s2s_tail(0, a, (size_t)n), out);
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
