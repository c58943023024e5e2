/* s2s-test: vectorized=? tolerance=exact */
/* declare_simd_plain_char: declare simd functions with plain char and
 * signed char parameters and results, called from simd loops.  Plain char
 * is signed on x86-64 and unsigned on AArch64, so the variant's declared
 * types and the loop's values may differ in signedness (a fuzz program
 * did not compile for SVE: the unsigned bytes of the loop were passed to
 * a variant declared with signed ones, and SVE types take no casts).
 * The widest data size of `shift` is a short (its return): the char and
 * the signed char travel unpacked in 16-bit lanes on SVE. */
#include "harness.h"

#pragma omp declare simd notinbranch
short shift(char c, signed char d, short s)
{
    int r = s;
    if (c > 100) r += c - d;
    else r -= d;
    return (short)r;
}

#pragma omp declare simd uniform(k)
char bump(char c, char k)
{
    return (char)(c + k);
}

void kern(int n, const char *c, const signed char *d, const short *s, short *o, char *oc)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o[i] = shift(c[i], d[i], s[i]);
#pragma omp simd
    for (int i = 0; i < n; i++)
        oc[i] = bump(c[i], 3);
}

int main(int argc, char **argv)
{
    static char c[S2S_CAP], oc[S2S_CAP];
    static signed char d[S2S_CAP];
    static short s[S2S_CAP], o[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u8((uint8_t *)c, n);
        s2s_fill_i8(d, n);
        s2s_fill_i16(s, n, -3000, 3000);
        for (int i = 0; i < S2S_CAP; i++) { o[i] = 7; oc[i] = 5; }
        kern(n, c, d, s, o, oc);
        S2S_OUT("o", o, n + S2S_GUARD);
        S2S_OUT("oc", oc, n + S2S_GUARD);
    }
    return 0;
}
