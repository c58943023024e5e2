/* s2s-test: vectorized=10 tolerance=exact */
/* gather_guarded_narrow: guarded gathers of bytes and shorts (per lane: no
 * x86 gather reads 8/16-bit elements), widened to the type of the other arm
 * and selected under the guard; also contiguous bytes and shorts that fill
 * only part of a register, widened and selected.  The narrow vector comes
 * from memory into the low part of a register, is widened with
 * vpmovzx/vpmovsx and merged under a mask: gcc 12 with AVX-512VL fused that
 * into a masked extend-from-memory it could not emit (internal compiler
 * error in final_scan_insn_1 / "could not split insn").  Lanes whose guard
 * is false hold indices up to 100 past the end of the table (which ends at a
 * PROT_NONE page), so reading them crashes. */
#include "harness.h"

void g_u8_u32(int n, uint32_t m, uint32_t *y, const uint32_t *g, const uint8_t *a, const uint32_t *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = g[i] < m ? a[g[i]] : b[i];
}

void g_i8_i32(int n, int m, int32_t *y, const int32_t *g, const int8_t *a, const int32_t *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t v;
        if (g[i] >= m)
            v = b[i];
        else
            v = a[g[i]];
        y[i] = v;
    }
}

void g_u16_u32(int n, uint32_t m, uint32_t *y, const uint32_t *g, const uint16_t *a, const uint32_t *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = g[i] < m ? a[g[i]] : b[i];
}

void g_i16_i64(int n, int m, int64_t *y, const int32_t *g, const int16_t *a, const int64_t *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = g[i] < m ? a[g[i]] : b[i];
}

void g_u8_u16(int n, int m, uint16_t *y, const int32_t *g, const uint8_t *a, const uint16_t *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = g[i] < m ? a[g[i]] : b[i];
}

void g_u8_u64(int n, uint32_t m, uint64_t *y, const uint32_t *g, const uint8_t *a, const uint64_t *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = g[i] < m ? a[g[i]] : b[i];
}

void g_i8_f64(int n, int m, double *y, const int32_t *g, const int8_t *a, const double *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = g[i] < m ? (double)a[g[i]] : b[i];
}

/* contiguous bytes and shorts, read unconditionally, selected under a mask;
 * the 64-bit guard makes them partial vectors (8 or 4 bytes, 4 shorts) */
void c_u8_u64(int n, uint64_t *y, const uint64_t *g, const uint8_t *c, const uint64_t *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint64_t t = c[i];
        y[i] = g[i] < 1000u ? t : b[i];
    }
}

void c_u8_u32(int n, uint32_t *y, const uint64_t *g, const uint8_t *c, const uint32_t *b)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint32_t t = c[i];
        y[i] = g[i] >= 1000u ? b[i] : t;
    }
}

void c_i16_i64(int n, int64_t *y, const uint64_t *g, const int16_t *c, const int64_t *b)
{
#pragma omp simd simdlen(4)
    for (int i = 0; i < n; i++) {
        int64_t t = c[i];
        y[i] = g[i] < 1000u ? t : b[i];
    }
}

int main(int argc, char **argv)
{
    static uint32_t g[S2S_CAP], y32[S2S_CAP], b32[S2S_CAP];
    static uint64_t y64[S2S_CAP], b64[S2S_CAP];
    static uint16_t y16[S2S_CAP], b16[S2S_CAP], a16[S2S_CAP];
    static uint8_t a8[S2S_CAP], c8[S2S_CAP];
    static uint64_t g64[S2S_CAP];
    static double yd[S2S_CAP], bd[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            /* a table of m entries ending at a PROT_NONE page */
            uint32_t m = (uint32_t)n + 5;
            for (int i = 0; i < n; i++)
                g[i] = s2s_pattern(p, i, n) ? (uint32_t)s2s_int(0, m - 1) : m + (uint32_t)s2s_int(0, 100);
            s2s_fill_u8(a8, (int)m);
            s2s_fill_u8(c8, n);
            for (int i = 0; i < n; i++)
                g64[i] = s2s_pattern(p, i, n) ? (uint64_t)s2s_int(0, 999) : 1000u + s2s_u64() % 0x8000000000000000ull;
            s2s_fill_i16((int16_t *)a16, (int)m, -32768, 32767);
            s2s_fill_u32(b32, n);
            s2s_fill_u64(b64, n);
            s2s_fill_i16((int16_t *)b16, n, -32768, 32767);
            s2s_fill_f64(bd, n, -1.0, 1.0);
            const uint32_t *tg = s2s_tail(0, g, n * sizeof g[0]);
            const uint8_t *ta8 = s2s_tail(1, a8, m);
            const uint16_t *ta16 = s2s_tail(2, a16, m * sizeof a16[0]);

            s2s_fill_u32(y32, S2S_CAP);
            g_u8_u32(n, m, y32, tg, ta8, s2s_tail(3, b32, n * sizeof b32[0]));
            S2S_OUT("u8_u32", y32, n + S2S_GUARD);
            s2s_fill_u32(y32, S2S_CAP);
            g_i8_i32(n, (int)m, (int32_t *)y32, (const int32_t *)tg, (const int8_t *)ta8,
                     s2s_tail(3, b32, n * sizeof b32[0]));
            S2S_OUT("i8_i32", y32, n + S2S_GUARD);
            s2s_fill_u32(y32, S2S_CAP);
            g_u16_u32(n, m, y32, tg, ta16, s2s_tail(3, b32, n * sizeof b32[0]));
            S2S_OUT("u16_u32", y32, n + S2S_GUARD);
            s2s_fill_u64(y64, S2S_CAP);
            g_i16_i64(n, (int)m, (int64_t *)y64, (const int32_t *)tg, (const int16_t *)ta16,
                      s2s_tail(4, b64, n * sizeof b64[0]));
            S2S_OUT("i16_i64", y64, n + S2S_GUARD);
            s2s_fill_i16((int16_t *)y16, S2S_CAP, 7, 7);
            g_u8_u16(n, (int)m, y16, (const int32_t *)tg, ta8, s2s_tail(5, b16, n * sizeof b16[0]));
            S2S_OUT("u8_u16", y16, n + S2S_GUARD);
            s2s_fill_u64(y64, S2S_CAP);
            g_u8_u64(n, m, y64, tg, ta8, s2s_tail(4, b64, n * sizeof b64[0]));
            S2S_OUT("u8_u64", y64, n + S2S_GUARD);
            s2s_fill_f64(yd, S2S_CAP, 9.0, 9.0);
            g_i8_f64(n, (int)m, yd, (const int32_t *)tg, (const int8_t *)ta8, s2s_tail(6, bd, n * sizeof bd[0]));
            S2S_OUT("i8_f64", yd, n + S2S_GUARD);
            const uint64_t *tg64 = s2s_tail(0, g64, n * sizeof g64[0]);
            s2s_fill_u64(y64, S2S_CAP);
            c_u8_u64(n, y64, tg64, s2s_tail(7, c8, n), s2s_tail(4, b64, n * sizeof b64[0]));
            S2S_OUT("c_u8_u64", y64, n + S2S_GUARD);
            s2s_fill_u32(y32, S2S_CAP);
            c_u8_u32(n, y32, tg64, s2s_tail(7, c8, n), s2s_tail(3, b32, n * sizeof b32[0]));
            S2S_OUT("c_u8_u32", y32, n + S2S_GUARD);
            s2s_fill_u64(y64, S2S_CAP);
            c_i16_i64(n, (int64_t *)y64, tg64, s2s_tail(2, a16, n * sizeof a16[0]), s2s_tail(4, b64, n * sizeof b64[0]));
            S2S_OUT("c_i16_i64", y64, n + S2S_GUARD);
        }
    }
    return 0;
}
