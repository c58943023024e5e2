/* s2s-test: vectorized=1 tolerance=exact */
/* avx2_select_ne_gcc12_avx512: a select on a != comparison (s2svec emits
 * _mm256_xor_si256(_mm256_cmpeq_epi64(a, 0), all-ones) and
 * _mm256_blendv_epi8) gives wrong lanes when gcc 12 compiles the AVX2 code
 * with AVX-512VL enabled: gcc-native-avx2only and gcc-v4-avx2only fail,
 * clang and gcc -mavx2 pass; == instead of != passes; 32-bit lanes fail too.
 * The known "AVX2 selects under -march=native with gcc 12" bug.  Reduced
 * from testsuite/fuzz seed 2 (and campaign seed 1033). */
#include "harness.h"

void f(int n, const int32_t *a, uint64_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = ((uint64_t)a[i] & 1) != 0 ? 16 : (uint64_t)i;
}

int main(int argc, char **argv)
{
    static uint64_t out[S2S_CAP];
    static int32_t a[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int j = 0; j < S2S_CAP; j++) {
            a[j] = (int32_t)s2s_u32();
            out[j] = s2s_u64();
        }
        f(n, s2s_tail(0, a, (size_t)n * sizeof a[0]), out);
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
