/* s2s-test: vectorized=2 tolerance=exact */
/* non_utf8_comments: the file is Latin-1, not UTF-8: comments with bytes
 * that are not UTF-8 inside and outside the loops (café, © 2024, µs)
 * must not stop s2svec, and must come out byte for byte. */
#include "harness.h"

/* Mittelwert über drei Nachbarn -- s2s-keep éèê */
void smooth(int n, const double *a, double *o)
{
#pragma omp simd
    for (int i = 1; i < n - 1; i++) {
        /* « moyenne » des voisins, à gauche et à droite */
        o[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0 / 3.0);   // ± 1 ulp
    }
}

int scale(int n, int *v)   /* ÄÖÜ s2s-keep */
{
    int s = 0;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++) {
        v[i] = v[i] * 3;   /* × 3 */
        s += v[i];         // § sum
    }
    return s;
}

int main(int argc, char **argv)
{
    static double a[S2S_CAP], o[S2S_CAP];
    static int v[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(a, S2S_CAP, -9.0, 9.0);
        s2s_fill_f64(o, S2S_CAP, 0.0, 0.0);
        smooth(n, a, o);
        S2S_OUT("o", o, n + S2S_GUARD);
        s2s_fill_i32(v, S2S_CAP, -1000, 1000);
        s2s_out_i64("s", scale(n, v));
        S2S_OUT("v", v, n + S2S_GUARD);
    }
    return 0;
}
