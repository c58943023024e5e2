/* s2s-test: vectorized=4 tolerance=exact */
/* scan_mul_bitwise: '#pragma omp scan' with '*' (unsigned: wraps, defined),
 * '&', '|' and '^' on 32- and 64-bit unsigned ints, inclusive and
 * exclusive; the identities are 1, all ones, 0 and 0.  The running total
 * continues from one vector to the next and through the tail; after the
 * loop each variable holds the whole reduction.  Integers: exact. */
#include "harness.h"

uint32_t scan_mul(int n, const uint32_t *a, uint32_t *b)
{
    uint32_t x = 3u;
#pragma omp simd reduction(inscan, *: x)
    for (int i = 0; i < n; i++) {
        b[i] = x ^ 0x5a5au;
#pragma omp scan exclusive(x)
        x *= a[i] | 1u;
    }
    return x;
}

uint64_t scan_and(int n, const uint64_t *a, uint64_t *b)
{
    uint64_t x = ~0ull;
#pragma omp simd reduction(inscan, &: x)
    for (int i = 0; i < n; i++) {
        x &= a[i] | (a[i] >> 1) | (a[i] >> 2);
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

uint32_t scan_or(int n, const uint32_t *a, uint32_t *b)
{
    uint32_t x = 0x10u;
#pragma omp simd reduction(inscan, |: x)
    for (int i = 0; i < n; i++) {
        b[i] = x;
#pragma omp scan exclusive(x)
        x |= 1u << (a[i] & 31u);
    }
    return x;
}

uint64_t scan_xor(int n, const uint64_t *a, uint64_t *b)
{
    uint64_t x = 0x1234ull;
#pragma omp simd reduction(inscan, ^: x)
    for (int i = 0; i < n; i++) {
        x = x ^ a[i];
#pragma omp scan inclusive(x)
        b[i] = x + (uint64_t)i;
    }
    return x;
}

int main(int argc, char **argv)
{
    static uint32_t a[S2S_CAP], b[S2S_CAP];
    static uint64_t c[S2S_CAP], d[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u32(a, n);
        s2s_fill_u64(c, n);
        const uint32_t *ta = s2s_tail(0, a, n * sizeof a[0]);
        const uint64_t *tc = s2s_tail(1, c, n * sizeof c[0]);
        for (int i = 0; i < S2S_CAP; i++) b[i] = 7u;
        s2s_out_i64("mul", (long long)scan_mul(n, ta, b));
        S2S_OUT("b_mul", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) d[i] = 7u;
        s2s_out_i64("and", (long long)scan_and(n, tc, d));
        S2S_OUT("d_and", d, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) b[i] = 7u;
        s2s_out_i64("or", (long long)scan_or(n, ta, b));
        S2S_OUT("b_or", b, n + S2S_GUARD);
        for (int i = 0; i < S2S_CAP; i++) d[i] = 7u;
        s2s_out_i64("xor", (long long)scan_xor(n, tc, d));
        S2S_OUT("d_xor", d, n + S2S_GUARD);
    }
    return 0;
}
