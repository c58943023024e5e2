/* s2s-test: vectorized=2 tolerance=exact */
/* reverse_contiguous: loops walking downwards through arrays of every lane
 * width (double, float, int64, int32, short, signed char), read and written
 * at i and at i + 3: contiguous accesses in reverse, a vector load or store
 * at the last lane's address with the lanes reversed.  One store sits
 * under a divergent branch (its lanes are not all on: a scatter), and one
 * loop runs two vectors per trip (simdlen of twice a register), so the
 * reversed parts swap places.  s2s_tail puts the arrays' ends at a page
 * end: a load below the first element or past the last would fault. */
#include "harness.h"

void reverse_down(int n, const double *d, const float *f, const int64_t *l, const int32_t *w,
                  const short *s, const signed char *c, double *out_d, float *out_f,
                  int64_t *out_l, int32_t *out_w, short *out_s, signed char *out_c)
{
#pragma omp simd
    for (int i = n - 1; i >= 0; i--) {
        out_d[i] = d[i] * 2.0 + (double)i;
        out_f[i] = f[i] - (float)w[i];
        out_l[i] = l[i] * 3 - i;
        out_w[i] = w[i] ^ (int32_t)(l[i] >> 7);
        out_s[i] = (short)(s[i] + c[i]);
        if (c[i] > 10)
            out_c[i] = (signed char)(c[i] - 1);
    }
}

void reverse_offset(int n, const float *a, float *b)
{
#pragma omp simd simdlen(32)
    for (int i = n - 1; i >= 0; i--)
        b[i] = a[i + 3] * 0.5f + a[i];
}

int main(int argc, char **argv)
{
    static double d[S2S_CAP], out_d[S2S_CAP];
    static float f[S2S_CAP], out_f[S2S_CAP], a[S2S_CAP + 3];
    static int64_t l[S2S_CAP], out_l[S2S_CAP];
    static int32_t w[S2S_CAP], out_w[S2S_CAP];
    static short s[S2S_CAP], out_s[S2S_CAP];
    static signed char c[S2S_CAP], out_c[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(d, n, -1.0, 1.0);
        s2s_fill_f32(f, n, -4.0f, 4.0f);
        s2s_fill_f32(a, n + 3, -2.0f, 2.0f);
        s2s_fill_i64(l, n, -100000, 100000);
        s2s_fill_i32(w, n, -1000, 1000);
        s2s_fill_i16(s, n, -300, 300);
        for (int i = 0; i < n; i++)
            c[i] = (signed char)s2s_int(-20, 40);
        s2s_fill_f64(out_d, S2S_CAP, 9.0, 9.0);
        s2s_fill_f32(out_f, S2S_CAP, 9.0f, 9.0f);
        s2s_fill_i64(out_l, S2S_CAP, 9, 9);
        s2s_fill_i32(out_w, S2S_CAP, 9, 9);
        s2s_fill_i16(out_s, S2S_CAP, 9, 9);
        for (int i = 0; i < S2S_CAP; i++)
            out_c[i] = 9;
        reverse_down(n, s2s_tail(0, d, n * sizeof d[0]), s2s_tail(1, f, n * sizeof f[0]),
                     s2s_tail(2, l, n * sizeof l[0]), s2s_tail(3, w, n * sizeof w[0]),
                     s2s_tail(4, s, n * sizeof s[0]), s2s_tail(5, c, n * sizeof c[0]), out_d,
                     out_f, out_l, out_w, out_s, out_c);
        S2S_OUT("d", out_d, n + S2S_GUARD);
        S2S_OUT("f", out_f, n + S2S_GUARD);
        S2S_OUT("l", out_l, n + S2S_GUARD);
        S2S_OUT("w", out_w, n + S2S_GUARD);
        S2S_OUT("s", out_s, n + S2S_GUARD);
        S2S_OUT("c", out_c, n + S2S_GUARD);
        s2s_fill_f32(out_f, S2S_CAP, 9.0f, 9.0f);
        reverse_offset(n, s2s_tail(6, a, (n + 3) * sizeof a[0]), out_f);
        S2S_OUT("b", out_f, n + S2S_GUARD);
    }
    return 0;
}
