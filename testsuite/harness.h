/* harness.h: deterministic inputs and bit-exact output for the differential testsuite.
 *
 * Every kernel's main() loops over S2S_SIZES (0, 1, W-1, W, W+1, 2W+3 for
 * W in 2..64 and a large odd size), fills its inputs with the LCG below
 * (re-seeded per size, so each size is reproducible on its own), calls the
 * kernel and prints its outputs.  Output lines start with a kind letter that
 * tells testsuite/differential.py how to compare them:
 *
 *   X <tag> ...            exact: the whole line must match
 *   R <tag> <%.17g>        a floating reduction, compared with the kernel's
 *                          stated relative tolerance (reassociation allowed)
 *   U <tag> f64|f32 <n> <hex>...
 *                          elementwise, within the kernel's stated ulp bound
 *
 * S2S_OUT_FP is S2S_OUT for float arrays that may hold NaNs made by
 * arithmetic (their sign and payload are not specified by C), printing every
 * NaN as the canonical one.
 *
 * Output buffers are over-allocated by S2S_GUARD elements and printed with
 * the guard, so a vector store past the end of the iteration space shows up.
 * s2s_tail() places an input so that its last element ends exactly at a
 * PROT_NONE page: a vector load past the end faults.
 */
#ifndef S2S_HARNESS_H
#define S2S_HARNESS_H

/* mmap's MAP_ANONYMOUS under a strict -std=c11 (how s2svec may parse). */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define S2S_MAXN 1001
#define S2S_GUARD 64
#define S2S_CAP (S2S_MAXN + S2S_GUARD)

static const int s2s_sizes[] = {0,  1,  2,  3,  4,  5,  7,  8,  9,  11, 15,
                                16, 17, 19, 31, 32, 33, 35, 63, 64, 65, 1001};
#define S2S_NSIZES ((int)(sizeof s2s_sizes / sizeof s2s_sizes[0]))

/* ---- deterministic inputs ------------------------------------------------ */

static uint64_t s2s_state;

static void s2s_seed(uint64_t seed)
{
    s2s_state = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
}

/* Knuth's MMIX LCG; the high half is the better-distributed one. */
static uint32_t s2s_u32(void)
{
    s2s_state = s2s_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s2s_state >> 32);
}

static uint64_t s2s_u64(void)
{
    uint64_t hi = s2s_u32();
    return (hi << 32) | s2s_u32();
}

/* Uniform integer in [lo, hi] (inclusive). */
static long long s2s_int(long long lo, long long hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    return span == 0 ? (long long)s2s_u64() : lo + (long long)(s2s_u64() % span);
}

/* Uniform double in [lo, hi). */
static double s2s_f64(double lo, double hi)
{
    return lo + (hi - lo) * ((double)s2s_u32() * (1.0 / 4294967296.0));
}

static void s2s_fill_f64(double *a, int n, double lo, double hi)
{
    for (int i = 0; i < n; i++) a[i] = s2s_f64(lo, hi);
}

static void s2s_fill_f32(float *a, int n, double lo, double hi)
{
    for (int i = 0; i < n; i++) a[i] = (float)s2s_f64(lo, hi);
}

static void s2s_fill_i64(int64_t *a, int n, long long lo, long long hi)
{
    for (int i = 0; i < n; i++) a[i] = (int64_t)s2s_int(lo, hi);
}

static void s2s_fill_i32(int32_t *a, int n, long long lo, long long hi)
{
    for (int i = 0; i < n; i++) a[i] = (int32_t)s2s_int(lo, hi);
}

static void s2s_fill_u32(uint32_t *a, int n)
{
    for (int i = 0; i < n; i++) a[i] = s2s_u32();
}

static void s2s_fill_u64(uint64_t *a, int n)
{
    for (int i = 0; i < n; i++) a[i] = s2s_u64();
}

static void s2s_fill_i16(int16_t *a, int n, long long lo, long long hi)
{
    for (int i = 0; i < n; i++) a[i] = (int16_t)s2s_int(lo, hi);
}

static void s2s_fill_u8(uint8_t *a, int n)
{
    for (int i = 0; i < n; i++) a[i] = (uint8_t)s2s_u32();
}

static void s2s_fill_i8(int8_t *a, int n)
{
    for (int i = 0; i < n; i++) a[i] = (int8_t)s2s_u32();
}

/* Lane patterns for conditions: 0 all true, 1 none, 2 only the first,
 * 3 only the last, 4 alternating, 5 every third, 6+ random. */
#define S2S_NPATTERNS 8
static int s2s_pattern(int p, int i, int n)
{
    switch (p) {
    case 0: return 1;
    case 1: return 0;
    case 2: return i == 0;
    case 3: return i == n - 1;
    case 4: return i % 2 == 0;
    case 5: return i % 3 == 1;
    default: return (s2s_u32() >> 7) & 1;
    }
}

/* ---- guarded inputs ------------------------------------------------------- */

#define S2S_SLOTS 8
#define S2S_SLOT_BYTES (256u * 1024u)
static unsigned char *s2s_slot_base[S2S_SLOTS];

/* Copy `bytes` of src so that the copy ends exactly at an inaccessible page
 * and return the copy.  Reading one byte past it faults. */
static void *s2s_tail(int slot, const void *src, size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    if (!s2s_slot_base[slot]) {
        size_t total = S2S_SLOT_BYTES + (size_t)page;
        void *m = mmap(0, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) { perror("mmap"); exit(3); }
        s2s_slot_base[slot] = (unsigned char *)m;
        if (mprotect(s2s_slot_base[slot] + S2S_SLOT_BYTES, (size_t)page, PROT_NONE)) {
            perror("mprotect");
            exit(3);
        }
    }
    if (bytes > S2S_SLOT_BYTES) { fprintf(stderr, "s2s_tail: too big\n"); exit(3); }
    unsigned char *dst = s2s_slot_base[slot] + S2S_SLOT_BYTES - bytes;
    if (bytes) memcpy(dst, src, bytes);
    return dst;
}

/* ---- output --------------------------------------------------------------- */

static uint64_t s2s_hash(const void *p, size_t bytes)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < bytes; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void s2s_put_elem(const unsigned char *p, size_t elsize)
{
    uint64_t v = 0;
    memcpy(&v, p, elsize); /* little-endian on every target we run */
    printf(" %0*llx", (int)(2 * elsize), (unsigned long long)v);
}

/* One exact line: hash of all bytes, then every element (small arrays) or
 * the first and last 8 (large ones) so that a mismatch is readable. */
static void s2s_out_bytes(const char *tag, const void *p, size_t elsize, int n)
{
    const unsigned char *b = (const unsigned char *)p;
    printf("X %s n=%d h=%016llx", tag, n, (unsigned long long)s2s_hash(p, elsize * (size_t)n));
    for (int i = 0; i < n; i++) {
        if (n > 96 && i == 8) { printf(" ..."); i = n - 8; }
        s2s_put_elem(b + (size_t)i * elsize, elsize);
    }
    printf("\n");
}
#define S2S_OUT(tag, arr, n) s2s_out_bytes((tag), (arr), sizeof((arr)[0]), (n))

/* Like S2S_OUT for float/double arrays whose NaNs come from arithmetic:
 * C leaves the sign and payload of such a NaN open (and x86 and compilers
 * pick different operands), so every NaN prints as the canonical quiet NaN.
 * NaN-ness itself, infinities and signed zeros still compare exactly. */
static void s2s_out_fp(const char *tag, const void *p, size_t elsize, int n)
{
    static unsigned char tmp[8 * (S2S_CAP + 16)];
    const unsigned char *b = (const unsigned char *)p;
    if ((size_t)n * elsize > sizeof tmp) { fprintf(stderr, "s2s_out_fp: too big\n"); exit(3); }
    for (int i = 0; i < n; i++) {
        unsigned char *t = tmp + (size_t)i * elsize;
        memcpy(t, b + (size_t)i * elsize, elsize);
        if (elsize == 8) {
            double d;
            memcpy(&d, t, 8);
            if (d != d) { uint64_t q = 0x7ff8000000000000ull; memcpy(t, &q, 8); }
        } else {
            float f;
            memcpy(&f, t, 4);
            if (f != f) { uint32_t q = 0x7fc00000u; memcpy(t, &q, 4); }
        }
    }
    s2s_out_bytes(tag, tmp, elsize, n);
}
#define S2S_OUT_FP(tag, arr, n) s2s_out_fp((tag), (arr), sizeof((arr)[0]), (n))

static void s2s_begin_size(int n)
{
    fflush(stdout);   /* a crash later still shows how far the run got */
    s2s_seed((uint64_t)n + 1u);
    printf("X size %d\n", n);
}

/* for (each size n) { ... } with the per-size header and seed. */
#define S2S_FOR_SIZES(n)                                                       \
    for (int s2s_k = 0, n = 0;                                                 \
         s2s_k < S2S_NSIZES && (n = s2s_sizes[s2s_k], s2s_begin_size(n), 1); \
         s2s_k++)

static void s2s_out_i64(const char *tag, long long v) { printf("X %s %lld\n", tag, v); }
static void s2s_out_u64(const char *tag, unsigned long long v) { printf("X %s %llu\n", tag, v); }

static void s2s_out_f64(const char *tag, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    printf("X %s %016llx\n", tag, (unsigned long long)bits);
}

static void s2s_out_f32(const char *tag, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    printf("X %s %08x\n", tag, (unsigned)bits);
}

/* A floating reduction result: compared within the kernel's `rel`. */
static void s2s_out_red(const char *tag, double v) { printf("R %s %.17g\n", tag, v); }

/* Vector-math results: compared elementwise within the kernel's `ulp`. */
static void s2s_out_ulp_f64(const char *tag, const double *a, int n)
{
    printf("U %s f64 %d", tag, n);
    for (int i = 0; i < n; i++) s2s_put_elem((const unsigned char *)(a + i), sizeof a[i]);
    printf("\n");
}

static void s2s_out_ulp_f32(const char *tag, const float *a, int n)
{
    printf("U %s f32 %d", tag, n);
    for (int i = 0; i < n; i++) s2s_put_elem((const unsigned char *)(a + i), sizeof a[i]);
    printf("\n");
}

#endif /* S2S_HARNESS_H */
