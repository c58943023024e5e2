/* s2s-test: vectorized=3 tolerance=exact cflags="-fopenmp" grep="schedule\(static, s2s_nblk \+ 1\)" */
/* scan_worksharing: inscan scans on loops shared by threads ('parallel for
 * simd', 'for simd' in a parallel region, with 'if(simd: ...)').  s2svec
 * runs such a scan on one thread of the team, block after block in
 * iteration order (the loop's schedule is the implementation's when none
 * is given: schedule(static, all blocks)); the scan variable stays shared
 * and its original value is part of every prefix, as in gcc's build.
 * These loops stayed scalar ("the scan across threads is not
 * implemented"). */
#include "harness.h"

int scans(int n, const int *a, int *b, int *c, int *d, int *m_out)
{
    int x = 7;
#pragma omp parallel for simd reduction(inscan, +: x) num_threads(2)
    for (int i = 0; i < n; i++) {
        x += a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    int m = -5000;
#pragma omp parallel num_threads(2)
    {
#pragma omp for simd reduction(inscan, max: m)
        for (int i = 0; i < n; i++) {
            c[i] = m;
#pragma omp scan exclusive(m)
            m = a[i] > m ? a[i] : m;
        }
    }
    *m_out = m;
    int y = 1;
#pragma omp parallel for simd reduction(inscan, ^: y) if(simd: n > 40) num_threads(2)
    for (int i = 0; i < n; i++) {
        y ^= a[i] * 3;
#pragma omp scan inclusive(y)
        d[i] = y + i;
    }
    return x + y;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], b[S2S_CAP], c[S2S_CAP], d[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) { b[i] = 1; c[i] = 2; d[i] = 3; }
        int m = 0;
        int r = scans(n, a, b, c, d, &m);
        S2S_OUT("r", &r, 1);
        S2S_OUT("m", &m, 1);
        S2S_OUT("b", b, n + S2S_GUARD);
        S2S_OUT("c", c, n + S2S_GUARD);
        S2S_OUT("d", d, n + S2S_GUARD);
    }
    return 0;
}
