/* s2s-test: vectorized=4 tolerance=exact */
/* narrow_values_wrap: values of narrow types that wrap between the lanes of
 * one vector, as C defines it: a conversion of the loop variable to signed
 * char / short, and linear variables of unsigned char / unsigned short
 * types.  Widening them again must follow the wrap (lanes saw 128, 129, ...
 * instead of -128, -127, and stored to a[256], a[257] ...). */
#include "harness.h"

void to_schar(int n, int base, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        signed char c = (signed char)(i + base);
        y[i] = c * 3;
    }
}

void to_short(int n, int base, long long *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        short s = (short)(i * 7 + base);
        y[i] = s;
    }
}

unsigned char linear_uchar(int n, unsigned char j, int *a, int *y)
{
#pragma omp simd linear(j)
    for (int i = 0; i < n; i++) {
        a[j] += i + 1;
        y[i] = j;
        j++;
    }
    return j;
}

unsigned short linear_ushort(int n, unsigned short j, int *a)
{
#pragma omp simd linear(j:3)
    for (int i = 0; i < n; i++) {
        a[j & 1023] = j;
        j += 3;
    }
    return j;
}

int main(int argc, char **argv)
{
    static int y[S2S_CAP], a[1024 + S2S_GUARD];
    static long long yl[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(y, S2S_CAP, -9, -1);
        to_schar(n, 100 + n % 13, y);
        S2S_OUT("to_schar", y, n + S2S_GUARD);

        s2s_fill_i64(yl, S2S_CAP, -9, -1);
        to_short(n, 32700 - n, yl);
        S2S_OUT("to_short", yl, n + S2S_GUARD);

        int m = n < 256 ? n : 256;   /* j visits each value once */
        s2s_fill_i32(a, 1024 + S2S_GUARD, 0, 0);
        s2s_fill_i32(y, S2S_CAP, -9, -1);
        s2s_out_i64("linear_uchar.j", linear_uchar(m, (unsigned char)(250 - n % 7), a, y));
        S2S_OUT("linear_uchar.a", a, 1024 + S2S_GUARD);
        S2S_OUT("linear_uchar.y", y, m + S2S_GUARD);

        s2s_fill_i32(a, 1024 + S2S_GUARD, -9, -1);
        s2s_out_i64("linear_ushort.j",
                    linear_ushort(n < 300 ? n : 300, (unsigned short)(65500 + n % 5), a));
        S2S_OUT("linear_ushort.a", a, 1024 + S2S_GUARD);
    }
    return 0;
}
