/* s2s-test: vectorized=1 tolerance=exact */
/* int_div_pow2_shifts: signed and unsigned division and remainder by powers
 * of two (2, 8, 1024, 2^30) become shifts and masks (transform.strength):
 * truncation toward zero for negative values, the type's limits, all
 * widths (8 to 64 bits, narrow ones promoted to int by C). */
#include "harness.h"

void run(int n, const int64_t *a, const int32_t *b, const uint64_t *c, const int16_t *d,
         const uint32_t *e, int64_t *o, int32_t *p, uint64_t *q, int32_t *r, uint32_t *s)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        o[i] = a[i] / 2 + a[i] % 8 + a[i] / 1024 - a[i] % 1073741824;
        p[i] = b[i] / 4 - b[i] % 2 + b[i] / 1073741824;
        q[i] = c[i] / 16 + c[i] % 32;
        r[i] = d[i] / 8 + d[i] % 4;
        s[i] = e[i] / 2 + e[i] % 65536;
    }
}

int main(int argc, char **argv)
{
    static int64_t a[S2S_CAP], o[S2S_CAP];
    static int32_t b[S2S_CAP], p[S2S_CAP], r[S2S_CAP];
    static uint64_t c[S2S_CAP], q[S2S_CAP];
    static int16_t d[S2S_CAP];
    static uint32_t e[S2S_CAP], s[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) {
            a[i] = s2s_int(-1000000, 1000000) * (i % 3 ? 1 : 1234567);
            b[i] = (int32_t)s2s_int(-2000000000, 2000000000);
            d[i] = (int16_t)s2s_int(-32768, 32767);
            e[i] = (uint32_t)s2s_int(0, 4000000000);
        }
        s2s_fill_u64(c, n);
        if (n > 3) {
            a[0] = INT64_MIN; a[1] = INT64_MAX; a[2] = -1; a[3] = -1023;
            b[0] = INT32_MIN; b[1] = -1; b[2] = INT32_MAX; b[3] = -3;
        }
        run(n, a, b, c, d, e, o, p, q, r, s);
        S2S_OUT("o", o, n);
        S2S_OUT("p", p, n);
        S2S_OUT("q", q, n);
        S2S_OUT("r", r, n);
        S2S_OUT("s", s, n);
    }
    return 0;
}
