/* s2s-test: vectorized=2 tolerance=exact */
/* aos_i64_six: 48-byte records of six int64 fields: one loop reads all six
 * and writes three (a partial group), one writes all six from other arrays
 * (a store-only group); records end at a guard page. */
#include "harness.h"

struct six { int64_t a, b, c, d, e, f; };

void partial(int n, struct six *s, int64_t *sum)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        sum[i] = s[i].a + s[i].b + s[i].c + s[i].d + s[i].e + s[i].f;
        s[i].b = s[i].a * 3;
        s[i].d = s[i].f - s[i].b;
        s[i].f = s[i].e ^ s[i].c;
    }
}

void fill(int n, struct six *s, const int64_t *x)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        s[i].a = x[i];
        s[i].b = x[i] + 1;
        s[i].c = x[i] * x[i];
        s[i].d = -x[i];
        s[i].e = x[i] >> 3;
        s[i].f = x[i] & 0xff;
    }
}

int main(int argc, char **argv)
{
    static struct six src[S2S_CAP];
    static int64_t sum[S2S_CAP], x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i64(&src[0].a, 6 * S2S_CAP, -1000000000LL, 1000000000LL);
        s2s_fill_i64(sum, S2S_CAP, 0, 0);
        s2s_fill_i64(x, S2S_CAP, -3000000, 3000000);
        struct six *s = s2s_tail(0, src, (size_t)n * sizeof src[0]);
        partial(n, s, sum);
        S2S_OUT("s", &s[0].a, 6 * n);
        S2S_OUT("sum", sum, n + S2S_GUARD);
        fill(n, s, x);
        S2S_OUT("s2", &s[0].a, 6 * n);
    }
    return 0;
}
