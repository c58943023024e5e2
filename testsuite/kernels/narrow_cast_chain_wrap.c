/* s2s-test: vectorized=4 tolerance=exact */
/* narrow_cast_chain_wrap (fuzz seed 573352058, NEON): the loop variable
 * truncated to 8 or 16 bits, then converted to the other signedness of the
 * same width, then widened.  The value wrapped in the truncation; the
 * same-width conversion must not hide that from the widening (lanes saw
 * base - 2, base - 4, ... past -128 instead of wrapping to 127, 125, ...).
 * Plain char is unsigned on AArch64, so `(int8_t)(char)i` is this chain
 * there: the form the generator found. */
#include "harness.h"
#include <stdint.h>

void schar_of_uchar(int n, int *y)
{
#pragma omp simd simdlen(8)
    for (int i = 64000 + n; i > 64000; i -= 2) {
        int k = i - 64001;
        y[k] = (int8_t)(uint8_t)i;
    }
}

void plain_char_compare(int n, int lim, int *y)
{
#pragma omp simd
    for (int i = 64000 + n; i > 64000; i -= 2) {
        int k = i - 64001;
        if ((int8_t)(char)i < lim)
            y[k] = k * 3;
    }
}

void short_of_ushort(int n, int base, long long *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        short s = (short)(unsigned short)(i * 7 + base);
        y[i] = s;
    }
}

void uchar_of_schar(int n, int base, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = (uint8_t)(int8_t)(i * 3 + base);
}

int main(int argc, char **argv)
{
    static int y[S2S_CAP];
    static long long yl[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(y, S2S_CAP, -9, -1);
        schar_of_uchar(n, y);
        S2S_OUT("schar_of_uchar", y, n + S2S_GUARD);

        s2s_fill_i32(y, S2S_CAP, -9, -1);
        plain_char_compare(n, 5 - n % 11, y);
        S2S_OUT("plain_char_compare", y, n + S2S_GUARD);

        s2s_fill_i64(yl, S2S_CAP, -9, -1);
        short_of_ushort(n, 32700 - n, yl);
        S2S_OUT("short_of_ushort", yl, n + S2S_GUARD);

        s2s_fill_i32(y, S2S_CAP, -9, -1);
        uchar_of_schar(n, 100 - n % 13, y);
        S2S_OUT("uchar_of_schar", y, n + S2S_GUARD);
    }
    return 0;
}
