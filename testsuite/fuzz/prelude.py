"""The C code every generated program starts with: the harness, sizes
and main's helpers that fill inputs and print outputs."""

from __future__ import annotations

from options import FZ_N, TABLE

PRELUDE = f"""#include "harness.h"
#include <limits.h>

#define FZ_N {FZ_N}
#define FZ_TABLE {TABLE}

static int fz_max(int a, int b) {{ return a > b ? a : b; }}

/* Elements a loop reads at stride * k + offset for k < kc. */
static int fz_ext(int kc, int stride, int offset) {{
    return kc > 0 ? (kc - 1) * stride + offset + 1 : 0;
}}

/* A float result printed exactly, every NaN as the canonical one. */
static void fz_out_fp(const char *tag, double v)
{{
    s2s_out_f64(tag, v != v ? (double)NAN : v);
}}

/* An output array: its first `shown` elements in lines of 96 (a difference
 * shows its index), then the hash of all FZ_N elements (a stray store
 * anywhere shows).  Float NaNs print as the canonical one (C leaves the sign
 * and payload of a computed NaN open). */
__attribute__((noinline)) static void fz_out_array(const char *tag, const void *p, int elsize,
                                                   int isfloat, int shown)
{{
    static unsigned char tmp[8 * FZ_N];
    char name[64];
    memcpy(tmp, p, (size_t)elsize * FZ_N);
    for (int i = 0; isfloat && i < FZ_N; i++) {{
        unsigned char *e = tmp + (size_t)i * elsize;
        if (elsize == 8) {{
            double d;
            memcpy(&d, e, 8);
            if (d != d) {{ d = NAN; memcpy(e, &d, 8); }}
        }} else {{
            float f;
            memcpy(&f, e, 4);
            if (f != f) {{ f = NAN; memcpy(e, &f, 4); }}
        }}
    }}
    if (shown > FZ_N) shown = FZ_N;
    for (int i = 0; i < shown; i += 96) {{
        snprintf(name, sizeof name, "%s@%d", tag, i);
        s2s_out_bytes(name, tmp + (size_t)i * elsize, (size_t)elsize,
                      shown - i < 96 ? shown - i : 96);
    }}
    s2s_out_bytes(tag, tmp, (size_t)elsize, FZ_N);
}}

/* p[0..kc) = a random permutation of 0..kc-1: scatter targets that never collide. */
static void fz_perm(int32_t *p, int kc)
{{
    for (int j = 0; j < kc; j++) p[j] = j;
    for (int j = kc - 1; j > 0; j--) {{
        int o = (int)(s2s_u32() % (uint32_t)(j + 1));
        int32_t t = p[j]; p[j] = p[o]; p[o] = t;
    }}
}}

static uint64_t fz_edge_bits(int bits)
{{
    static const int64_t small[] = {{0, 1, -1, 2, -2, 3, 127, -128, 255, 32767, -32768}};
    uint64_t top = bits == 64 ? ~0ull : (1ull << bits) - 1;
    switch (s2s_u32() % 6) {{
    case 0: return top;                        /* all ones */
    case 1: return top >> 1;                   /* signed max */
    case 2: return (top >> 1) + 1;             /* signed min */
    case 3: return ((top >> 1) + 1) | 1;       /* min + 1 */
    default: return (uint64_t)small[s2s_u32() % 11];
    }}
}}

static double fz_special(int elsize)
{{
    static const double d[] = {{NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0,
                               5e-324, 1e308, -1e308}};
    static const double f[] = {{NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0,
                               1e-40, 3e38, -3e38}};
    return (elsize == 8 ? d : f)[s2s_u32() % 11];
}}

/* The main-side helpers are not inlined: gcc's SLP vectorizer is very slow
 * on test functions that inline a dozen fill loops. */

/* Uniform parameters (s2s_int/s2s_f64 not inlined at every call site). */
__attribute__((noinline)) static long long fz_int(long long lo, long long hi) {{
    return s2s_int(lo, hi);
}}
__attribute__((noinline)) static double fz_f64(double lo, double hi) {{
    return s2s_f64(lo, hi);
}}

/* n elements of elsize bytes: mode 0 any bits / [-10, 10), 1 small values,
 * 2 edge values (integer limits; NaN, infinities, signed zeros, denormals). */
__attribute__((noinline)) static void fz_fill(void *p, int elsize, int isfloat, int n, int mode)
{{
    unsigned char *b = (unsigned char *)p;
    for (int j = 0; j < n; j++, b += elsize) {{
        if (isfloat) {{
            double d = mode == 1 ? s2s_f64(-2.0, 2.0) : s2s_f64(-10.0, 10.0);
            if (mode == 2 && s2s_u32() % 8 == 0) d = fz_special(elsize);
            if (elsize == 4) {{ float f = (float)d; memcpy(b, &f, 4); }} else memcpy(b, &d, 8);
        }} else {{
            uint64_t v = mode == 0 ? s2s_u64() : mode == 1 ? (uint64_t)s2s_int(-20, 20)
                       : (s2s_u32() & 1) ? fz_edge_bits(8 * elsize) : s2s_u64();
            memcpy(b, &v, (size_t)elsize);     /* little-endian: the low bytes */
        }}
    }}
}}

/* Bytes that differ per element and per size, cheaply (output arrays). */
__attribute__((noinline)) static void fz_bytes(void *p, size_t bytes, uint64_t salt)
{{
    uint64_t x = salt * 0x9E3779B97F4A7C15ull + 1;
    unsigned char *b = (unsigned char *)p;
    for (size_t j = 0; j + 8 <= bytes; j += 8) {{
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t v = x ^ (x >> 29);
        memcpy(b + j, &v, 8);
    }}
}}

/* Lane-pattern conditions (harness.h's s2s_pattern) as 0/1 of any type. */
__attribute__((noinline)) static void fz_mask(void *p, int elsize, int isfloat, int n,
                                              int pattern, int kc)
{{
    unsigned char *b = (unsigned char *)p;
    for (int j = 0; j < n; j++, b += elsize) {{
        int v = s2s_pattern(pattern, j, kc);
        if (isfloat) {{ float f = (float)v; memcpy(b, &f, 4); }}
        else {{ uint64_t u = (uint64_t)v; memcpy(b, &u, (size_t)elsize); }}
    }}
}}

/* Gather indices below FZ_TABLE; where mask (if any) is 0, a wild index far
 * outside every array (only a guarded load may use it). */
__attribute__((noinline)) static void fz_index(void *p, int elsize, const void *mask,
                                               int melsize, int n)
{{
    unsigned char *b = (unsigned char *)p;
    const unsigned char *m = (const unsigned char *)mask;
    for (int j = 0; j < n; j++, b += elsize) {{
        uint64_t v = (uint64_t)s2s_int(0, FZ_TABLE - 1), zero = 0;
        if (m && memcmp(m + (size_t)j * melsize, &zero, (size_t)melsize) == 0) v = 0x3fffff00u;
        memcpy(b, &v, (size_t)elsize);
    }}
}}
"""
