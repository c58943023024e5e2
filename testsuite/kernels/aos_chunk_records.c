/* s2s-test: vectorized=3 tolerance=reduction-fp rel=1e-12 */
/* aos_chunk_records: records of an even number of 64-bit fields, which move
 * in 128-bit chunks (templates/common/x86_records.j2) in 256-bit registers
 * (record_register_bits on AVX-512): four doubles read and all written, eight
 * int64 of which three are written (the others written back as read), and
 * two doubles only read in a loop with a reduction (the masked last
 * iteration gathers them).  Records end at a guard page. */
#include "harness.h"

struct quad { double x, y, z, w; };
struct oct { int64_t a, b, c, d, e, f, g, h; };
struct pair { double re, im; };

void rotate(int n, struct quad *q, double c, double s)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double x = q[i].x, y = q[i].y;
        q[i].x = c * x + s * y;     /* not c * x - s * y: gcc 12 makes */
        q[i].y = s * x + c * y;     /* vfmaddsub of that under -ffp-contract=off */
        q[i].z = q[i].z * q[i].w;
        q[i].w = q[i].w - 1.0;
    }
}

void mix(int n, struct oct *o, int64_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        out[i] = o[i].a + o[i].h - (o[i].c ^ o[i].f);
        o[i].b = o[i].d + o[i].e;
        o[i].g = o[i].a * 3;
        o[i].h = o[i].g - o[i].b;
    }
}

double norm2(int n, const struct pair *p)
{
    double s = 0.0;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += p[i].re * p[i].re + p[i].im * p[i].im;
    return s;
}

int main(int argc, char **argv)
{
    static struct quad qs[S2S_CAP];
    static struct oct os[S2S_CAP];
    static struct pair ps[S2S_CAP];
    static int64_t out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(&qs[0].x, 4 * S2S_CAP, -8.0, 8.0);
        s2s_fill_i64(&os[0].a, 8 * S2S_CAP, -1000000000LL, 1000000000LL);
        s2s_fill_f64(&ps[0].re, 2 * S2S_CAP, -3.0, 3.0);
        s2s_fill_i64(out, S2S_CAP, 0, 0);
        struct quad *q = s2s_tail(0, qs, (size_t)n * sizeof qs[0]);
        struct oct *o = s2s_tail(1, os, (size_t)n * sizeof os[0]);
        const struct pair *p = s2s_tail(2, ps, (size_t)n * sizeof ps[0]);
        rotate(n, q, 0.6, 0.8);
        mix(n, o, out);
        s2s_out_red("norm2", norm2(n, p));
        S2S_OUT("q", &q[0].x, 4 * n);
        S2S_OUT("o", &o[0].a, 8 * n);
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
