/* s2s-test: vectorized=13 tolerance=exact cflags="-fopenmp-simd" */
/* narrow_iv_bounds: loop variables of narrow types (unsigned char, unsigned
 * short, signed char, short) and 32-bit unsigned ones near UINT_MAX, with
 * bounds where the plain C loop would wrap.  The reference is built with
 * -fopenmp-simd, so it follows OpenMP as gcc and clang implement it: `!=`
 * with step +1 / -1 is `<` / `>` (c = 250; c != 4; c++ runs no iteration),
 * the count comes from the bounds in the comparison's type, and the variable
 * holds (T)(lb + k*step).  Only forms on which gcc and clang agree are
 * here (tests/test_loop_bounds.py has the others).  Each loop sets the
 * variable to lb first, so a loop without iterations leaves it at lb under
 * every reading; the lanes must never see values the type cannot hold (they
 * saw 256, 257, ... and stored past the end of `a`). */
#include "harness.h"
#include <limits.h>

#define A 1024

unsigned char uchar_ne_up(unsigned char lb, unsigned char ub, int *a)
{
    unsigned char c = lb;
#pragma omp simd
    for (c = lb; c != ub; c++)
        a[c] = c + 1;
    return c;
}

unsigned char uchar_ne_down(unsigned char lb, unsigned char ub, int *a)
{
    unsigned char c = lb;
#pragma omp simd
    for (c = lb; c != ub; c--)
        a[c] = c * 3 - 1;
    return c;
}

void uchar_ne_const(int *a)
{
#pragma omp simd
    for (unsigned char c = 250; c != 4; c++)
        a[c] = c + 1;
}

unsigned short ushort_ne_up(unsigned short lb, unsigned short ub, int *a)
{
    unsigned short c = lb;
#pragma omp simd
    for (c = lb; c != ub; c++)
        a[c & (A - 1)] = c;
    return c;
}

signed char schar_ne_up(signed char lb, signed char ub, int *a)
{
    signed char c = lb;
#pragma omp simd
    for (c = lb; c != ub; c++)
        a[c + 128] = c * 5;
    return c;
}

short short_ne_down(short lb, short ub, int *a)
{
    short c = lb;
#pragma omp simd
    for (c = lb; c != ub; c--)
        a[c & (A - 1)] = c - 7;
    return c;
}

unsigned uint_ne_up(unsigned lb, unsigned ub, unsigned *a)
{
    unsigned c = lb;
#pragma omp simd
    for (c = lb; c != ub; c++)
        a[c & (A - 1)] = c ^ 0x5a5a5a5au;
    return c;
}

unsigned uint_ne_down(unsigned lb, unsigned ub, unsigned *a)
{
    unsigned c = lb;
#pragma omp simd
    for (c = lb; c != ub; c--)
        a[c & (A - 1)] = c + 3u;
    return c;
}

/* int bound, unsigned char variable: compared in int (the caller keeps
 * ub <= 255, so the value after the loop fits too). */
unsigned char uchar_lt_int(unsigned char lb, int ub, int *a)
{
    unsigned char c = lb;
#pragma omp simd
    for (c = lb; c < ub; c++)
        a[c] = c * 2;
    return c;
}

/* counting down to 1: the value after the loop is 0 */
unsigned char uchar_gt_zero(unsigned char lb, int *a)
{
    unsigned char c = lb;
#pragma omp simd
    for (c = lb; c > 0; c--)
        a[c] = c + 9;
    return c;
}

unsigned short ushort_step3(unsigned short lb, unsigned short ub, int *a)
{
    unsigned short c = lb;
#pragma omp simd
    for (c = lb; c < ub; c += 3)
        a[c & (A - 1)] = c;
    return c;
}

/* the outer loop of a collapsed nest reads its bounds the same way */
unsigned char collapse_ne(unsigned char lb, unsigned char ub, int *a)
{
    unsigned char c = lb;
#pragma omp simd collapse(2)
    for (c = lb; c != ub; c++)
        for (int j = 0; j < 3; j++)
            a[c * 3 + j] = c + 10 * j;
    return c;
}

void collapse_lt_int(unsigned char lb, int ub, int *a)
{
#pragma omp simd collapse(2)
    for (unsigned char c = lb; c < ub; c++)
        for (int j = 0; j < 3; j++)
            a[c * 3 + j] = c - j;
}

int main(int argc, char **argv)
{
    static int a[A + S2S_GUARD];
    static unsigned ua[A + S2S_GUARD];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        long long r;
        unsigned char lb8 = (unsigned char)(n * 37 + 200);
        unsigned short lb16 = (unsigned short)(65535 - n);
        unsigned lb32 = UINT_MAX - (unsigned)(n * 13 % 97);

#define RUN(tag, call) do { s2s_fill_i32(a, A + S2S_GUARD, -9, -1); r = (call); \
        s2s_out_i64(tag ".var", r); S2S_OUT(tag, a, A + S2S_GUARD); } while (0)
        RUN("uchar_ne_up", uchar_ne_up(lb8, (unsigned char)(lb8 + n), a));
        RUN("uchar_ne_down", uchar_ne_down(lb8, (unsigned char)(lb8 - n), a));
        RUN("uchar_ne_down_small", uchar_ne_down((unsigned char)(n / 2), (unsigned char)(n / 2 - n), a));
        s2s_fill_i32(a, A + S2S_GUARD, -9, -1);
        uchar_ne_const(a);
        S2S_OUT("uchar_ne_const", a, A + S2S_GUARD);
        RUN("ushort_ne_up", ushort_ne_up(lb16, (unsigned short)(lb16 + (n % 2 ? 2 * n : n / 2)), a));
        RUN("schar_ne_up", schar_ne_up((signed char)(120 - n % 11), (signed char)(120 - n % 11 + n), a));
        RUN("short_ne_down", short_ne_down((short)(-32760 + n % 17), (short)(-32760 + n % 17 - n), a));
        RUN("uchar_lt_int", uchar_lt_int((unsigned char)(255 - (n > 255 ? 255 : n)), 255, a));
        RUN("uchar_lt_int_small", uchar_lt_int((unsigned char)(n % 5), n > 255 ? 255 : n, a));
        RUN("uchar_gt_zero", uchar_gt_zero((unsigned char)(n > 255 ? 255 : n), a));
        RUN("collapse_ne", collapse_ne(lb8, (unsigned char)(lb8 + n), a));
        RUN("collapse_ne_down", collapse_ne(lb8, (unsigned char)(lb8 - n), a));
        s2s_fill_i32(a, A + S2S_GUARD, -9, -1);
        collapse_lt_int((unsigned char)(255 - (n > 255 ? 255 : n)), 255, a);
        S2S_OUT("collapse_lt_int", a, A + S2S_GUARD);
        RUN("ushort_step3", ushort_step3((unsigned short)(65535 - 3 * n), 65535, a));
        RUN("ushort_step3_b", ushort_step3((unsigned short)(65532 - 3 * n), 65533, a));

        s2s_fill_u32(ua, A + S2S_GUARD);
        r = uint_ne_up(lb32, lb32 + (unsigned)n, ua);
        s2s_out_i64("uint_ne_up.var", r);
        S2S_OUT("uint_ne_up", ua, A + S2S_GUARD);
        s2s_fill_u32(ua, A + S2S_GUARD);
        r = uint_ne_up(lb32 - (unsigned)n - 1u, lb32, ua);
        s2s_out_i64("uint_ne_up_b.var", r);
        S2S_OUT("uint_ne_up_b", ua, A + S2S_GUARD);
        s2s_fill_u32(ua, A + S2S_GUARD);
        r = uint_ne_down((unsigned)(n / 3), (unsigned)(n / 3) - (unsigned)n, ua);
        s2s_out_i64("uint_ne_down.var", r);
        S2S_OUT("uint_ne_down", ua, A + S2S_GUARD);
    }
    return 0;
}
