/* s2s-test: vectorized=1 tolerance=exact scalable_vectorized=0 */
/* clang19_avx512_mask_phi: with the mask logic as C operators on __mmask8
 * behind an empty asm (the first workaround of LLVM issue 123333), clang-19
 * -O2 -march=native still looped forever in SelectionDAG's combiner on this
 * loop's AVX-512 code: a 4-lane mask carried in a phi across blocks, negated
 * (xor 15) and and-ed/or-ed with masks from asm.  Reduced from program
 * generator seed 14 (also 183) of the CI batch; the mask logic now runs in
 * asm on mask registers under clang 19 (templates/README.md). */
#include "harness.h"

void walk(int n, const double *a, const int32_t *b, double *out, int32_t *last, int u)
{
#pragma omp simd safelen(4)
    for (int i = 0; i < n; i++) {
        double t = a[i];
        if (i >= u) {
            out[i] = t * 2;
        } else {
            int hit = 0;
            int j = 0;
            while (j < (i & 7) && b[i] <= i) {
                j++;
                if (i == u - 3)
                    continue;
                int k = 0;
                do {
                    last[i] = b[i + k];
                    if (t * k > 3.0) {
                        hit = k + 1;
                        break;
                    }
                } while (++k < (b[i] & 7));
                if (hit != 0)
                    break;
            }
            out[i] = t + j + hit;
        }
    }
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], out[S2S_CAP];
    static int32_t b[S2S_CAP + 8], last[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n + 8; i++)
                b[i] = (int32_t)s2s_int(-4, 40);
            for (int i = 0; i < n; i++) {
                a[i] = s2s_pattern(p, i, n) ? s2s_f64(0.0, 2.0) : s2s_f64(-1.0, 0.5);
                out[i] = 0.0;
                last[i] = -1;
            }
            int u = (int)s2s_int(0, n);
            walk(n, s2s_tail(0, a, n * sizeof a[0]), b, out, last, u);
            for (int i = 0; i < n; i++) {
                s2s_out_f64("out", out[i]);
                s2s_out_i64("last", last[i]);
            }
        }
    }
    return 0;
}
