/* s2s-test: vectorized=8 tolerance=exact */
/* strided_array_records_later_slot_first: records of an array read with a
 * stride, p[k*i + c], whose first access is a later slot than 0
 * (x[2*i + 1] read before x[2*i]): the records are loaded at that first
 * access, where the address of slot 0 is not computed yet, so they begin
 * c elements before the first access's address (this once left the loops
 * scalar with "internal error: no scalar form").  Float pairs, double
 * triples (slots 2 then 0), int quadruples (3, 1, 0), long pairs swapped
 * in place, short pairs (records on NEON, gathers on x86), int pairs
 * under a divergent branch (the all-true path runs them unmasked), pairs
 * stored later slot first, and an array of structs read and written
 * later field first.  The inputs end at an inaccessible page. */
#include "harness.h"

struct pt { float x, y; };

void pairs(int n, const float *x, float *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = x[2 * i + 1] * 3.0f + x[2 * i];
}

void triples(long n, const double *p, double *out)
{
#pragma omp simd
    for (long i = 0; i < n; i++) {
        double c = p[3 * i + 2];
        double a = p[3 * i];
        out[i] = a - 2.0 * c;
    }
}

void quads(int n, const int *q, int *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = q[4 * i + 3] - 2 * q[4 * i + 1] + q[4 * i];
}

void swap_pairs(long n, long long *v)
{
#pragma omp simd
    for (long i = 0; i < n; i++) {
        long long hi = v[2 * i + 1];
        v[2 * i + 1] = v[2 * i];
        v[2 * i] = hi + i;
    }
}

void short_pairs(int n, const short *s, short *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = (short)(s[2 * i + 1] * 3 + s[2 * i]);
}

void guarded(int n, const int *x, const int *c, int *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (c[i] > 0)
            out[i] = x[2 * i + 1] * 3 + x[2 * i];
        else
            out[i] = 7;
    }
}

void store_pairs(int n, const float *a, const float *b, float *x)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        x[2 * i + 1] = a[i] - b[i];
        x[2 * i] = a[i] + b[i];
    }
}

void struct_pairs(int n, struct pt *p, float *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float y = p[i].y, x = p[i].x;
        out[i] = y * 3.0f + x;
        p[i].y = x;
        p[i].x = -y;
    }
}

int main(int argc, char **argv)
{
    static float xy[2 * S2S_CAP], outf[S2S_CAP], a[S2S_CAP], b[S2S_CAP];
    static double p3[3 * S2S_CAP], outd[S2S_CAP];
    static int q4[4 * S2S_CAP], outi[S2S_CAP], cond[S2S_CAP];
    static long long v2[2 * S2S_CAP];
    static short s2[2 * S2S_CAP], outs[S2S_CAP];
    static struct pt pts[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(xy, 2 * S2S_CAP, -8.0, 8.0);
        s2s_fill_f64(p3, 3 * S2S_CAP, -8.0, 8.0);
        s2s_fill_i32(q4, 4 * S2S_CAP, -1000, 1000);
        s2s_fill_i64(v2, 2 * S2S_CAP, -1000000, 1000000);
        s2s_fill_i16(s2, 2 * S2S_CAP, -1000, 1000);
        s2s_fill_f32(a, S2S_CAP, -8.0, 8.0);
        s2s_fill_f32(b, S2S_CAP, -8.0, 8.0);
        s2s_fill_f32(&pts[0].x, 2 * S2S_CAP, -8.0, 8.0);
        const float *px = s2s_tail(0, xy, (size_t)n * 2 * sizeof xy[0]);
        pairs(n, px, outf);
        S2S_OUT("pairs", outf, n);
        const double *pp = s2s_tail(1, p3, (size_t)n * 3 * sizeof p3[0]);
        triples(n, pp, outd);
        S2S_OUT("triples", outd, n);
        const int *pq = s2s_tail(2, q4, (size_t)n * 4 * sizeof q4[0]);
        quads(n, pq, outi);
        S2S_OUT("quads", outi, n);
        long long *pv = s2s_tail(3, v2, (size_t)n * 2 * sizeof v2[0]);
        swap_pairs(n, pv);
        S2S_OUT("swap", pv, 2 * n);
        const short *ps = s2s_tail(4, s2, (size_t)n * 2 * sizeof s2[0]);
        short_pairs(n, ps, outs);
        S2S_OUT("shorts", outs, n);
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                cond[i] = s2s_pattern(p, i, n) ? 1 + i % 3 : -(i % 2);
            const int *pg = s2s_tail(5, q4, (size_t)n * 2 * sizeof q4[0]);
            guarded(n, pg, cond, outi);
            S2S_OUT("guarded", outi, n);
        }
        float *pw = s2s_tail(6, xy, (size_t)n * 2 * sizeof xy[0]);
        store_pairs(n, a, b, pw);
        S2S_OUT("stored", pw, 2 * n);
        struct pt *pt = s2s_tail(7, pts, (size_t)n * sizeof pts[0]);
        struct_pairs(n, pt, outf);
        S2S_OUT("struct", outf, n);
        S2S_OUT("points", &pt[0].x, 2 * n);
    }
    return 0;
}
