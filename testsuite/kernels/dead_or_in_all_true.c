/* s2s-test: vectorized=1 tolerance=exact */
/* dead_or_in_all_true: a `||` whose value nobody reads (kept this far by
 * its division), in an arm with an all-true path: once the loop's two
 * vectors per trip were cut apart, the branch on the any-test of its
 * right-hand side decided nothing and went, but the test, a call not marked
 * pure, stayed with no user and got no variable in the C ("internal error:
 * KeyError: <Call lor.rhs.all.any : i1>", AVX2 and NEON; program generator
 * seed 762855012). */
#include "harness.h"
#include <limits.h>

void pick(int n, const int8_t *m, const int32_t *tb, const int32_t *gi, const int32_t *in,
          int32_t *out, int32_t *res)
{
    int32_t s = 1;
#pragma omp simd reduction(*:s)
    for (int k = 0; k < n; k++) {
        if (m[k] != 0 && k < 31) {
            s *= -1;
            int32_t t = in[k];
            t = t - ((tb[gi[k]] == 0 || (tb[t & 63] == INT32_MIN && tb[gi[k]] == -1))
                         ? tb[t & 63]
                         : tb[t & 63] / tb[gi[k]]);
        } else {
            out[k] = in[k] * 3;
        }
    }
    *res = s;
}

int main(int argc, char **argv)
{
    static int8_t m[S2S_CAP];
    static int32_t gi[S2S_CAP], in[S2S_CAP], out[S2S_CAP];
    static int32_t tb[64];
    int32_t s;
    (void)argc; (void)argv;
    for (int k = 0; k < 64; k++)
        tb[k] = (int32_t)s2s_int(-1, 1);
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                m[i] = (int8_t)s2s_pattern(p, i, n);
                gi[i] = (int32_t)s2s_int(0, 63);
                in[i] = (int32_t)s2s_int(-1000, 1000);
                out[i] = 7;
            }
            pick(n, s2s_tail(0, m, n * sizeof m[0]), tb, s2s_tail(1, gi, n * sizeof gi[0]),
                 s2s_tail(2, in, n * sizeof in[0]), out, &s);
            s2s_out_i64("s", s);
            for (int i = 0; i < n; i++)
                s2s_out_i64("out", out[i]);
        }
    }
    return 0;
}
