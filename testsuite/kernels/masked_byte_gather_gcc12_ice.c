/* s2s-test: vectorized=1 tolerance=exact */
/* masked_byte_gather_gcc12_ice: a byte load under a mask, compared in 64-bit
 * lanes: s2svec's AVX-512 code gathers the bytes per lane into a buffer and
 * widens them with a masked _mm256_mask_cvtepi8_epi32-style conversion;
 * gcc 12 -O2 -march=native crashes ("unable to generate reloads" /
 * "could not split insn", internal compiler error in lra-constraints.cc).
 * gcc -O3 -march=x86-64-v4 and clang are fine.  The known "byte gathers
 * crash gcc 12 under AVX-512" bug (campaign seed 1014, CI seeds 36, 38). */
#include "harness.h"

void f(int n, const int64_t *m, const int8_t *tb, const int8_t *x, int64_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = ((m[i] != 0 ? tb[(uint64_t)i & 1023u] : (int8_t)(i & 63)) < x[i]) ? 9 : 255;
}

int main(int argc, char **argv)
{
    static int64_t m[S2S_CAP], out[S2S_CAP];
    static int8_t tb[1024], x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int p = (int)s2s_int(0, S2S_NPATTERNS - 1);
        for (int j = 0; j < S2S_CAP; j++) m[j] = s2s_pattern(p, j, n);
        s2s_fill_i8(tb, 1024);
        s2s_fill_i8(x, S2S_CAP);
        s2s_fill_i64(out, S2S_CAP, -5, 5);
        f(n, m, tb, x, out);
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
