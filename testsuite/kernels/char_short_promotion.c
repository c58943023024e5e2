/* s2s-test: vectorized=1 tolerance=exact */
/* char_short_promotion: narrow types promote to int before arithmetic:
 * unsigned char sums wrap only when stored back, signed char * signed char
 * fits an int, short products truncate on the store, and a comparison of
 * unsigned char with a negative int is done in int. */
#include "harness.h"

void promote(int n, const unsigned char *a, const unsigned char *b, const signed char *c,
             const short *s, unsigned char *sum8, int *avg, short *prod16, int *cmp)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        sum8[i] = a[i] + b[i];
        avg[i] = (a[i] + b[i]) / 2 + c[i] * c[i];
        prod16[i] = s[i] * s[i];
        cmp[i] = (a[i] > c[i]) + (c[i] < -100) * 2;
    }
}

int main(int argc, char **argv)
{
    static unsigned char a[S2S_CAP], b[S2S_CAP], sum8[S2S_CAP];
    static signed char c[S2S_CAP];
    static short s[S2S_CAP], prod16[S2S_CAP];
    static int avg[S2S_CAP], cmp[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u8(a, n);
        s2s_fill_u8(b, n);
        s2s_fill_i8((int8_t *)c, n);
        s2s_fill_i16(s, n, -32768, 32767);
        s2s_fill_u8(sum8, S2S_CAP);
        s2s_fill_i32(avg, S2S_CAP, 0, 0);
        s2s_fill_i16(prod16, S2S_CAP, 0, 0);
        s2s_fill_i32(cmp, S2S_CAP, 0, 0);
        promote(n, s2s_tail(0, a, n), s2s_tail(1, b, n), s2s_tail(2, c, n),
                s2s_tail(3, s, n * sizeof s[0]), sum8, avg, prod16, cmp);
        S2S_OUT("sum8", sum8, n + S2S_GUARD);
        S2S_OUT("avg", avg, n + S2S_GUARD);
        S2S_OUT("prod16", prod16, n + S2S_GUARD);
        S2S_OUT("cmp", cmp, n + S2S_GUARD);
    }
    return 0;
}
