/* s2s-test: vectorized=? tolerance=exact */
/* declare_simd_small_vectors: variants whose vectors are smaller than a
 * register (simdlen(2) of char and short: gcc passes them as 2- and 4-byte
 * vectors), called with and without a condition.  Two fuzz programs found:
 * the typedefs of such a variant's char and short parameters had the same
 * name (the output did not compile); a loop keeping 4 shorts in the low
 * half of an SSE register cast it to the variant's 8-byte vector; an
 * unmasked call from an AVX-512 loop took an AVX2 variant's vector mask
 * as a bit mask.  Each such call goes to a variant whose vectors the loop's
 * registers hold as they are, or runs per lane. */
#include <stdint.h>
#include "harness.h"

#pragma omp declare simd simdlen(2) inbranch
short mix2(signed char c, short s)
{
    return (short)(s * 3 - c);
}

#pragma omp declare simd simdlen(4) notinbranch
short mix4(short a, short b)
{
    return (short)((a ^ b) + 1);
}

#pragma omp declare simd simdlen(4) inbranch uniform(k)
uint64_t step(uint64_t k, uint64_t x)
{
    return x * 6364136223846793005ull + k;
}

void kern(int n, const signed char *c, const short *s, short *o, short *p,
          const uint64_t *x, uint64_t *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        if (s[i] > 0)
            o[i] = mix2(c[i], s[i]);
#pragma omp simd
    for (int i = 0; i < n; i++)
        p[i] = mix4(s[i], (short)c[i]);
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = step(7, x[i]);
}

int main(int argc, char **argv)
{
    static signed char c[S2S_CAP];
    static short s[S2S_CAP], o[S2S_CAP], p[S2S_CAP];
    static uint64_t x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) {
            c[i] = (signed char)(i * 37 - 100);
            s[i] = (short)(i * 1013 % 4001 - 2000);
            x[i] = (uint64_t)i * 0x9E3779B97F4A7C15ull;
        }
        for (int i = 0; i < S2S_CAP; i++) { o[i] = 5; p[i] = 6; y[i] = 7; }
        kern(n, c, s, o, p, x, y);
        S2S_OUT("o", o, n + S2S_GUARD);
        S2S_OUT("p", p, n + S2S_GUARD);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
