/* s2s-test: vectorized=4 regions=5 tolerance=exact args="--simdlen 16" */
/* scan_types_wide: scans at 16 lanes (--simdlen 16: two or more registers
 * per vector on AVX2 and NEON, the running total passing through the
 * parts in lane order), of a global variable (exclusive), of a typedef'd
 * long long, of signed char.  A plain 'char' scan stays scalar: its
 * signedness differs between the targets of one output.  Exact. */
#include "harness.h"
typedef long long acc_t;
acc_t g_total = 5;

int scan_incl(int n, const int *a, int *b)
{
    int x = 7;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        x += a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

void scan_global(int n, const int *a, int *b)
{
#pragma omp simd reduction(inscan, +: g_total)
    for (int i = 0; i < n; i++) {
        b[i] = (int)g_total;
#pragma omp scan exclusive(g_total)
        g_total += a[i];
    }
}

acc_t scan_typedef(int n, const int *a, acc_t *b)
{
    acc_t x = 1;
#pragma omp simd reduction(inscan, max: x)
    for (int i = 0; i < n; i++) {
        x = x > a[i] ? x : a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

signed char scan_schar(int n, const signed char *a, signed char *b)
{
    signed char x = 1;
#pragma omp simd reduction(inscan, min: x)
    for (int i = 0; i < n; i++) {
        x = x < a[i] ? x : a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}
char scan_plain_char(int n, const signed char *a, char *b)
{
    char x = 0;
#pragma omp simd reduction(inscan, |: x)
    for (int i = 0; i < n; i++) {
        x |= (char)(a[i] & 0x3c);
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP];
    static acc_t c[S2S_CAP];
    static signed char s[S2S_CAP], t[S2S_CAP];
    static char pc[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_i8((int8_t *)s, n);
        for (int i = 0; i < S2S_CAP; i++) { b[i] = -1; c[i] = -1; t[i] = 0; }
        s2s_out_i64("incl", scan_incl(n, a, b));
        S2S_OUT("b", b, n + S2S_GUARD);
        g_total = 5;
        scan_global(n, a, b);
        s2s_out_i64("global", g_total);
        S2S_OUT("b2", b, n + S2S_GUARD);
        s2s_out_i64("typedef", scan_typedef(n, a, c));
        S2S_OUT("c", c, n + S2S_GUARD);
        s2s_out_i64("schar", scan_schar(n, s, t));
        S2S_OUT("t", t, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) pc[i] = 1;
        s2s_out_i64("plain_char", scan_plain_char(n, s, pc));
        S2S_OUT("pc", pc, n + S2S_GUARD);
    }
    return 0;
}
