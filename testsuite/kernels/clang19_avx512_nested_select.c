/* s2s-test: vectorized=1 tolerance=exact args="--refill-ratio 0" grep="_refill_" */
/* clang19_avx512_nested_select: with every mask and/or/xor in asm (the
 * workaround of LLVM issue 123333), clang-19 -O2 -march=native still looped
 * forever in its x86 back end on this kind of loop's AVX-512 code: int8
 * lanes, a divergent cascade whose last arm fills a per-lane histogram in a
 * do loop, reductions, with lane refill.  InstCombine folds nested mask blends,
 * select(m1, select(m2, x, 0), 0), into and/or of <8 x i1> masks, which the
 * back end's combiner then never finishes (reduced with llvm-reduce from
 * program generator output, testsuite/fuzz/compiler_bugs/
 * clang19_avx512_llc_hang).  Blends now run in asm under clang 19 too. */
#include "harness.h"

void cascade(int n, int8_t u, const float *tb, const uint16_t *gi, const float *m,
             const float *in, float *out, const int8_t *sel, int8_t *acc,
             int8_t *big, int8_t *sum)
{
    int8_t best = 15, total = 100;
#pragma omp simd reduction(max:best) reduction(+:total)
    for (int i = 0; i < n; i += 2) {
        int8_t shift = (tb[gi[i]] <= (float)i) ? 3 : 6;
        int8_t pv = (int8_t)((int8_t)(i + i) >> shift);
        int8_t t = (int8_t)(-100 ^ pv);
        if (((m[i] != 0) ? tb[gi[i + 1]] : in[i + 3]) >= in[i + 1] / (float)t) {
            out[i] = (float)t;
        } else {
            t = (int8_t)((uint32_t)t + (uint32_t)(int8_t)(sel[i] * (t | sel[i + 1])));
            if (u == 7) {
                acc[i] = (int8_t)(t + t);
                out[i] = out[i] + floorf((float)t);
            } else if (m[i] > 0.5f) {
                acc[i] = (int8_t)(t - pv);
            } else {
                int8_t h[8] = {0};
                int j = 0;
                do {
                    acc[i] = (int8_t)(acc[i] ^ t);
                    int k = (pv < t ? pv : t) & 7;
                    h[k] = (int8_t)(h[k] + (int8_t)i);
                } while (++j < ((int8_t)(sel[i + 1] * pv) & 7));
                acc[i] = (int8_t)(acc[i] ^ h[7]);
            }
        }
        int8_t r = (pv == 0 || (t == INT8_MIN && pv == -1)) ? t : (int8_t)(t % pv);
        best = r > best ? r : best;
        total = (int8_t)(total + (int8_t)((uint32_t)pv << 5));
    }
    *big = best;
    *sum = total;
}

int main(int argc, char **argv)
{
    static float tb[1024], m[S2S_CAP], in[S2S_CAP + 4], out[S2S_CAP];
    static uint16_t gi[S2S_CAP + 2];
    static int8_t sel[S2S_CAP + 2], acc[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_f32(tb, 1024, -4.0, 60.0);
            for (int i = 0; i < n + 2; i++)
                gi[i] = (uint16_t)s2s_int(0, 1023);
            for (int i = 0; i < n + 4; i++)
                in[i] = (float)s2s_f64(-8.0, 8.0);
            for (int i = 0; i < n; i++) {
                m[i] = s2s_pattern(p, i, n) ? (float)s2s_f64(0.0, 1.0) : 0.0f;
                out[i] = (float)s2s_f64(-1.0, 1.0);
            }
            s2s_fill_i8(sel, n + 2);
            s2s_fill_i8(acc, n);
            int8_t u = (int8_t)s2s_int(5, 8), big, sum;
            cascade(n, u, tb, gi, m, in, out, sel, acc, &big, &sum);
            S2S_OUT("out", out, n);
            S2S_OUT("acc", acc, n);
            s2s_out_i64("big", big);
            s2s_out_i64("sum", sum);
        }
    }
    return 0;
}
