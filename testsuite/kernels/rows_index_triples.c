/* s2s-test: vectorized=1 tolerance=exact */
/* rows_index_triples: each iteration reads the three elements of a record
 * picked by an index (t[3 * k[i] + 0..2], int32 and float tables; row
 * loads: one copy per lane and a transpose, s2s.analysis.rows), the float
 * one only where a condition holds (masked, with offsets read out of order)
 * and the other through a pointer per lane (rows of pointers: no index). */
#include "harness.h"

#define NR 53

void triples(int n, const int32_t *k, const int32_t *t, const float *tf, const float *const *rp,
             int32_t *out, float *outf)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        const int32_t *r = t + 3 * k[i];
        out[i] = r[0] * 3 + r[1] - 2 * r[2];
        float s = 0.0f;
        if (r[1] > 0) {
            const float *q = tf + 3 * k[i];
            s = q[2] * 0.5f - q[0] + q[1];
        }
        const float *w = rp[i];
        outf[i] = s + w[1] * w[0] - w[2];
    }
}

int main(int argc, char **argv)
{
    static int32_t k[S2S_CAP], out[S2S_CAP + S2S_GUARD], t[3 * NR];
    static float tf[3 * NR], outf[S2S_CAP + S2S_GUARD];
    static const float *rp[S2S_CAP];
    (void)argc; (void)argv;
    for (int j = 0; j < 3 * NR; j++) {
        t[j] = (int32_t)s2s_int(-1000, 1000);
        tf[j] = (float)s2s_int(-64, 64) * 0.25f;
    }
    const int32_t *tt = s2s_tail(1, t, sizeof t);
    const float *ft = s2s_tail(2, tf, sizeof tf);
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                k[i] = s2s_pattern(p, i, n) ? NR - 1 : (int32_t)s2s_int(0, NR - 1);
                rp[i] = ft + 3 * (s2s_pattern(p, i + 1, n) ? NR - 1 : s2s_int(0, NR - 1));
            }
            for (int i = 0; i < n + S2S_GUARD; i++) {
                out[i] = -7;
                outf[i] = -7.0f;
            }
            triples(n, s2s_tail(0, k, n * sizeof k[0]), tt, ft, rp, out, outf);
            for (int i = 0; i < n + S2S_GUARD; i++) {
                s2s_out_i64("out", out[i]);
                s2s_out_f64("outf", outf[i]);
            }
        }
    }
    return 0;
}
