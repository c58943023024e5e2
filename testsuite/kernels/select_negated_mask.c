/* s2s-test: vectorized=12 tolerance=exact */
/* select_negated_mask: selects whose mask is a negation (>=, <=, !=, !(a < b),
 * the else arm of an if) on every element width: 8/16/32/64-bit signed and
 * unsigned integers, float and double, a mask converted between widths and
 * negated masks combined with && / ||.  On AVX2 an integer >= is
 * ~(b > a): gcc 12 with AVX-512VL enabled (-march=native, -march=x86-64-v4)
 * dropped the ~ of _mm256_blendv_epi8(b, a, ~m) and selected the wrong arm in
 * every lane.  Half of the operands are equal, so >= and > differ; the float
 * inputs hold NaNs, where !(a < b) and a >= b differ. */
#include "harness.h"

void sel_i32(int n, const int32_t *a, const int32_t *b, int32_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = a[i] >= b[i] ? 7 : -7;
}

void sel_u32(int n, const uint32_t *a, const uint32_t *b, uint32_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t x = a[i] * 3u, y = b[i] + 0x80000001u;
        out[i] = a[i] != b[i] ? x : y;
    }
}

void sel_i64(int n, const int64_t *a, const int64_t *b, int64_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int64_t x = a[i] - 5, y = b[i] * 2, v;
        if (a[i] <= b[i])
            v = x;
        else
            v = y;
        out[i] = v;
    }
}

void sel_u64(int n, const uint64_t *a, const uint64_t *b, uint64_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint64_t x = a[i] ^ 0xF0F0F0F0F0F0F0F0ull, y = b[i];
        out[i] = !(a[i] < b[i]) ? x : y;
    }
}

void sel_i16(int n, const int16_t *a, const int16_t *b, int16_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int16_t x = (int16_t)(a[i] - b[i]), y = (int16_t)(b[i] + 1);
        out[i] = a[i] >= b[i] ? x : y;
    }
}

void sel_u16(int n, const uint16_t *a, const uint16_t *b, uint16_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint16_t v = b[i], x = (uint16_t)(a[i] + 0x8000u);
        if (a[i] != b[i])
            v = x;
        out[i] = v;
    }
}

void sel_i8(int n, const int8_t *a, const int8_t *b, int8_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int8_t x = (int8_t)(a[i] ^ 0x55), y = (int8_t)(b[i] - 3);
        out[i] = a[i] >= b[i] ? x : y;
    }
}

void sel_u8(int n, const uint8_t *a, const uint8_t *b, uint8_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint8_t x = (uint8_t)(a[i] + 0x80u), y = b[i];
        out[i] = !(a[i] > b[i]) ? x : y;
    }
}

void sel_f32(int n, const float *a, const float *b, float *out, float *out2)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float x = a[i], y = -b[i], z = a[i] * 2.0f;
        out[i] = !(a[i] < b[i]) ? x : y;
        out2[i] = a[i] != b[i] ? z : 0.5f;
    }
}

void sel_f64(int n, const double *a, const double *b, double *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double x = a[i] + 1.0, y = b[i] - 1.0, v;
        if (!(a[i] > b[i]))
            v = x;
        else
            v = y;
        out[i] = v;
    }
}

/* a negated 32-bit mask selecting doubles, a negated double mask selecting
 * bytes (masks converted between lane widths) */
void sel_mixed(int n, const int32_t *a, const int32_t *b, const double *x, const double *y,
               double *out, uint8_t *flag)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double u = x[i], v = y[i];
        uint8_t f = (uint8_t)a[i];
        out[i] = a[i] >= b[i] ? u : v;
        flag[i] = !(u < v) ? f : (uint8_t)0xEE;
    }
}

/* negated masks combined with && and || */
void sel_logic(int n, const int32_t *a, const int32_t *b, int32_t *out, int64_t *out2)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t x = a[i], y = b[i] - 100;
        int64_t z = (int64_t)a[i] * 8589934592ll;
        out[i] = (a[i] >= b[i] && a[i] != 3) ? x : y;
        out2[i] = (a[i] <= b[i] || !(b[i] != 0)) ? z : -1;
    }
}

/* on lanes: a >= b (a == b about half the time); off lanes: a < b */
static long long s2s_pair(int on, long long b)
{
    return on ? b + s2s_int(0, 1) : b - s2s_int(1, 3);
}

int main(int argc, char **argv)
{
    static int32_t a32[S2S_CAP], b32[S2S_CAP], o32[S2S_CAP];
    static uint32_t ua32[S2S_CAP], ub32[S2S_CAP], uo32[S2S_CAP];
    static int64_t a64[S2S_CAP], b64[S2S_CAP], o64[S2S_CAP];
    static uint64_t ua64[S2S_CAP], ub64[S2S_CAP], uo64[S2S_CAP];
    static int16_t a16[S2S_CAP], b16[S2S_CAP], o16[S2S_CAP];
    static uint16_t ua16[S2S_CAP], ub16[S2S_CAP], uo16[S2S_CAP];
    static int8_t a8[S2S_CAP], b8[S2S_CAP], o8[S2S_CAP];
    static uint8_t ua8[S2S_CAP], ub8[S2S_CAP], uo8[S2S_CAP];
    static float af[S2S_CAP], bf[S2S_CAP], of[S2S_CAP], of2[S2S_CAP];
    static double ad[S2S_CAP], bd[S2S_CAP], od[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                int on = s2s_pattern(p, i, n);
                b32[i] = (int32_t)s2s_int(-50, 50);
                a32[i] = (int32_t)s2s_pair(on, b32[i]);
                /* unsigned: values around 2^31 and 2^63 catch signed compares */
                ub32[i] = 0x7FFFFFFEu + (uint32_t)s2s_int(0, 4);
                ua32[i] = (uint32_t)s2s_pair(on, ub32[i]);
                b64[i] = (int64_t)s2s_int(-50, 50) * 0x100000001ll;
                a64[i] = (int64_t)s2s_pair(on, b64[i]);
                ub64[i] = 0x7FFFFFFFFFFFFFFEull + (uint64_t)s2s_int(0, 4);
                ua64[i] = on ? ub64[i] + (uint64_t)s2s_int(0, 1) : ub64[i] - (uint64_t)s2s_int(1, 3);
                b16[i] = (int16_t)s2s_int(-30000, 30000);
                a16[i] = (int16_t)s2s_pair(on, b16[i]);
                ub16[i] = (uint16_t)(0x7FFE + s2s_int(0, 4));
                ua16[i] = (uint16_t)s2s_pair(on, ub16[i]);
                b8[i] = (int8_t)s2s_int(-120, 120);
                a8[i] = (int8_t)s2s_pair(on, b8[i]);
                ub8[i] = (uint8_t)(0x7E + s2s_int(0, 4));
                ua8[i] = (uint8_t)s2s_pair(!on, ub8[i]);
                bf[i] = (float)s2s_int(-4, 4);
                af[i] = (float)s2s_pair(on, (long long)bf[i]);
                bd[i] = (double)s2s_int(-4, 4) * 0.25;
                ad[i] = on ? bd[i] + 0.25 * (double)s2s_int(0, 1) : bd[i] - 0.25;
                if (s2s_int(0, 7) == 0) af[i] = NAN;
                if (s2s_int(0, 7) == 0) bd[i] = NAN;
            }
            s2s_fill_i32(o32, S2S_CAP, 9, 9);
            sel_i32(n, s2s_tail(0, a32, n * 4), s2s_tail(1, b32, n * 4), o32);
            S2S_OUT("i32", o32, n + S2S_GUARD);
            s2s_fill_u32(uo32, S2S_CAP);
            sel_u32(n, s2s_tail(0, ua32, n * 4), s2s_tail(1, ub32, n * 4), uo32);
            S2S_OUT("u32", uo32, n + S2S_GUARD);
            s2s_fill_i64(o64, S2S_CAP, 9, 9);
            sel_i64(n, s2s_tail(0, a64, n * 8), s2s_tail(1, b64, n * 8), o64);
            S2S_OUT("i64", o64, n + S2S_GUARD);
            s2s_fill_u64(uo64, S2S_CAP);
            sel_u64(n, s2s_tail(0, ua64, n * 8), s2s_tail(1, ub64, n * 8), uo64);
            S2S_OUT("u64", uo64, n + S2S_GUARD);
            s2s_fill_i16(o16, S2S_CAP, 9, 9);
            sel_i16(n, s2s_tail(0, a16, n * 2), s2s_tail(1, b16, n * 2), o16);
            S2S_OUT("i16", o16, n + S2S_GUARD);
            s2s_fill_i16((int16_t *)uo16, S2S_CAP, 9, 9);
            sel_u16(n, s2s_tail(0, ua16, n * 2), s2s_tail(1, ub16, n * 2), uo16);
            S2S_OUT("u16", uo16, n + S2S_GUARD);
            s2s_fill_i8(o8, S2S_CAP);
            sel_i8(n, s2s_tail(0, a8, n), s2s_tail(1, b8, n), o8);
            S2S_OUT("i8", o8, n + S2S_GUARD);
            s2s_fill_u8(uo8, S2S_CAP);
            sel_u8(n, s2s_tail(0, ua8, n), s2s_tail(1, ub8, n), uo8);
            S2S_OUT("u8", uo8, n + S2S_GUARD);
            s2s_fill_f32(of, S2S_CAP, 9.0, 9.0);
            s2s_fill_f32(of2, S2S_CAP, 9.0, 9.0);
            sel_f32(n, s2s_tail(0, af, n * 4), s2s_tail(1, bf, n * 4), of, of2);
            S2S_OUT_FP("f32", of, n + S2S_GUARD);
            S2S_OUT_FP("f32b", of2, n + S2S_GUARD);
            s2s_fill_f64(od, S2S_CAP, 9.0, 9.0);
            sel_f64(n, s2s_tail(0, ad, n * 8), s2s_tail(1, bd, n * 8), od);
            S2S_OUT_FP("f64", od, n + S2S_GUARD);
            s2s_fill_f64(od, S2S_CAP, 9.0, 9.0);
            s2s_fill_u8(uo8, S2S_CAP);
            sel_mixed(n, s2s_tail(0, a32, n * 4), s2s_tail(1, b32, n * 4), s2s_tail(2, ad, n * 8),
                      s2s_tail(3, bd, n * 8), od, uo8);
            S2S_OUT_FP("mixed_d", od, n + S2S_GUARD);
            S2S_OUT("mixed_b", uo8, n + S2S_GUARD);
            s2s_fill_i32(o32, S2S_CAP, 9, 9);
            s2s_fill_i64(o64, S2S_CAP, 9, 9);
            sel_logic(n, s2s_tail(0, a32, n * 4), s2s_tail(1, b32, n * 4), o32, o64);
            S2S_OUT("logic32", o32, n + S2S_GUARD);
            S2S_OUT("logic64", o64, n + S2S_GUARD);
        }
    }
    return 0;
}
