/* s2s-test: vectorized=1 tolerance=exact */
/* aos_mixed_fields: an array of structs with int, float and double fields
 * (padding between them), read and written per field. */
#include "harness.h"

struct rec { int id; float w; double v; short tag; };

void update(int n, struct rec *r, double *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        out[i] = r[i].v * r[i].w + r[i].id;
        r[i].w = r[i].w * 0.5f;
        r[i].tag = (short)(r[i].id & 0x7f);
    }
}

int main(int argc, char **argv)
{
    static struct rec r[S2S_CAP];
    static double out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        memset(r, 0, sizeof r);
        for (int i = 0; i < S2S_CAP; i++) {
            r[i].id = (int)s2s_int(-100000, 100000);
            r[i].w = (float)s2s_f64(-2.0, 2.0);
            r[i].v = s2s_f64(-50.0, 50.0);
            r[i].tag = -1;
        }
        s2s_fill_f64(out, S2S_CAP, 0.0, 0.0);
        update(n, r, out);
        S2S_OUT("out", out, n + S2S_GUARD);
        S2S_OUT("r", (const unsigned char *)r, (int)((n + 4) * sizeof r[0]));
    }
    return 0;
}
