/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_guarded_division: integer division and remainder only where
 * they are defined: divisor 0 and INT_MIN / -1 are excluded by a divergent
 * condition (32-bit and 64-bit, signed and unsigned), the inactive lanes
 * must not trap (x86 idiv raises SIGFPE on both).  The conditions are
 * nested ifs or an int flag (divergent_guarded_division_shortcircuit has
 * them as && / || conditions). */
#include "harness.h"

void divide(int n, const int32_t *a, const int32_t *b, const int64_t *c, const int64_t *d,
            const uint32_t *u, const uint32_t *v, int32_t *q32, int64_t *r64, uint32_t *qu)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t q = 0;
        if (b[i] != 0) {
            if (a[i] != INT32_MIN)
                q = a[i] / b[i];
            else if (b[i] != -1)
                q = a[i] / b[i] + 1;
        }
        q32[i] = q;
        int ok = d[i] != 0 && (c[i] != INT64_MIN || d[i] != -1);
        if (ok)
            r64[i] = c[i] % d[i];
        else
            r64[i] = -7;
        qu[i] = v[i] ? u[i] / v[i] + u[i] % v[i] : 0xFFFFFFFFu;
    }
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], b[S2S_CAP], q32[S2S_CAP];
    static int64_t c[S2S_CAP], d[S2S_CAP], r64[S2S_CAP];
    static uint32_t u[S2S_CAP], v[S2S_CAP], qu[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                int bad = s2s_pattern(p, i, n);
                a[i] = bad && i % 2 ? INT32_MIN : (int32_t)s2s_u32();
                b[i] = bad ? (i % 2 ? -1 : 0) : (int32_t)s2s_int(-1000, 1000);
                c[i] = bad && i % 3 ? INT64_MIN : (int64_t)s2s_u64();
                d[i] = bad ? (i % 3 ? -1 : 0) : (int64_t)s2s_int(-1000000, 1000000);
                u[i] = s2s_u32();
                v[i] = bad ? 0u : s2s_u32() >> (s2s_u32() % 32u);
            }
            s2s_fill_i32(q32, S2S_CAP, 1, 1);
            s2s_fill_i64(r64, S2S_CAP, 2, 2);
            s2s_fill_u32(qu, S2S_CAP);
            divide(n, s2s_tail(0, a, n * sizeof a[0]), s2s_tail(1, b, n * sizeof b[0]),
                   s2s_tail(2, c, n * sizeof c[0]), s2s_tail(3, d, n * sizeof d[0]),
                   s2s_tail(4, u, n * sizeof u[0]), s2s_tail(5, v, n * sizeof v[0]), q32, r64, qu);
            S2S_OUT("q32", q32, n + S2S_GUARD);
            S2S_OUT("r64", r64, n + S2S_GUARD);
            S2S_OUT("qu", qu, n + S2S_GUARD);
        }
    }
    return 0;
}
