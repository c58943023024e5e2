/* s2s-test: vectorized=5 tolerance=exact grep="_mm_shuffle_epi8\(s2s_rc0" */
/* strided_narrow_records: 8- and 16-bit elements read with a constant
 * stride, p[k*i + c], move as whole records: contiguous loads of the W
 * records and, on AVX2, each field picked from the loaded bytes by pshufb
 * (NEON: vld2/vld3/vld4).  They were loaded lane by lane on AVX2 (no
 * gathers of 8/16-bit elements).  Unsigned char triples (pixels), signed
 * char quadruples next to doubles (4 lanes: the records fill 16 bytes),
 * short pairs next to doubles, unsigned short triples, and char pairs of
 * which 16 lanes fit.  The inputs end at an inaccessible page, so a read
 * past the last record faults. */
#include "harness.h"

void luma(int n, const uint8_t *rgb, uint8_t *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = (uint8_t)((77 * rgb[3 * i] + 150 * rgb[3 * i + 1] + 29 * rgb[3 * i + 2]) >> 8);
}

void scaled_quads(int n, const int8_t *q, const double *w, double *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = w[i] * (q[4 * i] - q[4 * i + 3]) + q[4 * i + 1] * 0.5 + q[4 * i + 2];
}

void pair_norm(int n, const short *xy, double *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double x = xy[2 * i], y = xy[2 * i + 1];
        out[i] = x * x + y * y;
    }
}

void triple_max(int n, const unsigned short *t, int *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int a = t[3 * i], b = t[3 * i + 1], c = t[3 * i + 2];
        int m = a > b ? a : b;
        out[i] = (m > c ? m : c) - (a + b + c) / 3;
    }
}

void char_pairs(int n, const signed char *p, signed char *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = (signed char)(p[2 * i] ^ (p[2 * i + 1] + 1));
}

int main(int argc, char **argv)
{
    static uint8_t rgb[3 * S2S_CAP], y8[S2S_CAP];
    static int8_t q4[4 * S2S_CAP];
    static short xy[2 * S2S_CAP];
    static unsigned short t3[3 * S2S_CAP];
    static signed char c2[2 * S2S_CAP], outc[S2S_CAP];
    static double w[S2S_CAP], outd[S2S_CAP];
    static int outi[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u8(rgb, 3 * S2S_CAP);
        s2s_fill_i8(q4, 4 * S2S_CAP);
        s2s_fill_i16(xy, 2 * S2S_CAP, -30000, 30000);
        s2s_fill_i16((int16_t *)t3, 3 * S2S_CAP, 0, 30000);
        s2s_fill_i8((int8_t *)c2, 2 * S2S_CAP);
        s2s_fill_f64(w, S2S_CAP, -2.0, 2.0);
        const uint8_t *prgb = s2s_tail(0, rgb, (size_t)n * 3);
        luma(n, prgb, y8);
        S2S_OUT("luma", y8, n);
        const int8_t *pq = s2s_tail(1, q4, (size_t)n * 4);
        scaled_quads(n, pq, w, outd);
        S2S_OUT("quads", outd, n);
        const short *pxy = s2s_tail(2, xy, (size_t)n * 2 * sizeof xy[0]);
        pair_norm(n, pxy, outd);
        S2S_OUT("pairs", outd, n);
        const unsigned short *pt = s2s_tail(3, t3, (size_t)n * 3 * sizeof t3[0]);
        triple_max(n, pt, outi);
        S2S_OUT("triples", outi, n);
        const signed char *pc = s2s_tail(4, c2, (size_t)n * 2);
        char_pairs(n, pc, outc);
        S2S_OUT("chars", outc, n);
    }
    return 0;
}
