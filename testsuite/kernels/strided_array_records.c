/* s2s-test: vectorized=5 tolerance=exact */
/* strided_array_records: arrays read and written with a constant stride of
 * k elements, p[k*i + c], move whole records like arrays of structs
 * (contiguous loads and de-interleaving, interleaving and contiguous
 * stores) at the width of their elements: float pairs read and written,
 * double triples, int quadruples of which slots 0, 1 and 3 are read (slot 2
 * lies between: read, unused), an int index (sign-extended) and a long one.
 * The inputs end at an inaccessible page, so reading past the last record
 * faults; the last loop reads slots 0 and 1 of 4 only (the records would
 * end past the array): it keeps its gathers. */
#include "harness.h"

void pairs(int n, float *xy, float *len)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float x = xy[2 * i], y = xy[2 * i + 1];
        len[i] = x * x + y * y;
        xy[2 * i] = y;
        xy[2 * i + 1] = -x;
    }
}

void triples(long n, const double *p, double *out)
{
#pragma omp simd
    for (long i = 0; i < n; i++)
        out[i] = p[3 * i] - 2.0 * p[3 * i + 1] + p[3 * i + 2];
}

void quads(int n, const int *q, int *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = q[4 * i] + 2 * q[4 * i + 1] - q[4 * i + 3];
}

void quads_short(int n, const short *s4, short *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = (short)(s4[4 * i] + 2 * s4[4 * i + 1] - s4[4 * i + 3]);
}

void heads(int n, const int *q, int *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = q[4 * i] - q[4 * i + 1];
}

int main(int argc, char **argv)
{
    static float xy[2 * S2S_CAP], len[S2S_CAP];
    static double p3[3 * S2S_CAP], out3[S2S_CAP];
    static int q4[4 * S2S_CAP], outq[S2S_CAP];
    static short s4[4 * S2S_CAP], outs[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(xy, 2 * S2S_CAP, -8.0, 8.0);
        s2s_fill_f64(p3, 3 * S2S_CAP, -8.0, 8.0);
        s2s_fill_i32(q4, 4 * S2S_CAP, -1000, 1000);
        s2s_fill_i16(s4, 4 * S2S_CAP, -1000, 1000);
        float *pxy = s2s_tail(0, xy, (size_t)n * 2 * sizeof xy[0]);
        pairs(n, pxy, len);
        S2S_OUT("xy", pxy, 2 * n);
        S2S_OUT("len", len, n);
        const double *pp = s2s_tail(1, p3, (size_t)n * 3 * sizeof p3[0]);
        triples(n, pp, out3);
        S2S_OUT("triples", out3, n);
        const int *pq = s2s_tail(2, q4, (size_t)n * 4 * sizeof q4[0]);
        quads(n, pq, outq);
        S2S_OUT("quads", outq, n);
        const short *ps = s2s_tail(3, s4, (size_t)n * 4 * sizeof s4[0]);
        quads_short(n, ps, outs);
        S2S_OUT("quads_short", outs, n);
        const int *ph = s2s_tail(4, q4, (size_t)(n ? 4 * n - 2 : 0) * sizeof q4[0]);
        heads(n, ph, outq);
        S2S_OUT("heads", outq, n);
    }
    return 0;
}
