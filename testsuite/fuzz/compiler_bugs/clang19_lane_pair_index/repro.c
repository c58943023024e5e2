/* clang 19 x86 miscompile (README.md here): prints 15; clang-19 -O2 -mavx2
 * (or -O3 -march=x86-64-v4) builds a load at p + 4 * (ix[0] | ix[1] << 32)
 * and crashes.  gcc, clang 14, and clang-19 at -O1 or without AVX2 print 15;
 * -fsanitize=undefined reports nothing before the crash. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) int32_t f(const int32_t *p, int32_t k)
{
    __m128i v = _mm_add_epi32(_mm_set1_epi32(k & 254), _mm_setr_epi32(0, 1, 0, 0));
    int32_t ix[2];
    _mm_storel_epi64((__m128i *)(void *)ix, v);     /* lanes 0 and 1: 8 bytes */
    int32_t r = 0;
    for (int j = 0; j < 2; j++)
        r += p[ix[j]] * (ix[j] & 7);
    return r + _mm_cvtsi128_si32(_mm_cvttps_epi32(_mm_cvtepi32_ps(v)));
}

int main(void)
{
    static int32_t a[256];
    for (int i = 0; i < 256; i++)
        a[i] = i;
    printf("%d\n", (int)f(a, 2));   /* ix = {2, 3}: 2 * 2 + 3 * 3 + 2 */
    return 0;
}
