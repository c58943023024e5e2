/* s2s-test: vectorized=4 tolerance=exact candidate_cflags="-fopenmp" grep="schedule\(static, s2s_outer_trips\)" */
/* scan_collapse: inscan scans over collapsed loop nests.  The scan
 * directive is in the innermost loop's body; the prefix runs over the
 * collapsed iteration space in its order, so the running total passes from
 * one inner loop to the next (the outer loops stay scalar around the vector
 * loop).  On 'parallel for simd' / 'for simd' one thread runs every outer
 * iteration (schedule(static, all of them)).  These loops stayed scalar
 * ("'reduction(inscan, ...)' with 'collapse' is not supported").
 * The reference is the plain C program: gcc 12's OpenMP build of the
 * first loop loses the running total between rows (b[8] of a 2 x 7 nest
 * of a[k] = k + 1 is 29, not 47), and clang-19 rejects a scan in a
 * collapsed nest ("orphaned 'omp scan' directives"). */
#include "harness.h"

#define COLS 7
#define ROW 66 /* the largest n run, plus one */

long scans(int n, const int *a, int *b, long *c, double *d, const double *w, int *e)
{
    int x = 3;
#pragma omp simd collapse(2) reduction(inscan, +: x)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < COLS; j++) {
            x += a[i * COLS + j];
#pragma omp scan inclusive(x)
            b[i * COLS + j] = x - j;
        }
    long y = -11;
    /* gcc 12's build of the original crashes on a worksharing scan that runs
     * no iteration: these nests run at least one */
#pragma omp parallel for simd collapse(2) reduction(inscan, +: y) num_threads(2)
    for (int i = 0; i <= n; i++)
        for (int j = 0; j < COLS; j++) {
            c[i * COLS + j] = y + i;
#pragma omp scan exclusive(y)
            y += a[i * COLS + j] * (long)(j + 1);
        }
    double m = -1e9;
#pragma omp parallel num_threads(2)
    {
#pragma omp for simd collapse(3) reduction(inscan, max: m)
        for (int i = 0; i <= n; i += 2)
            for (int k = 4; k > 0; k--)
                for (int j = 0; j <= n; j++) {
                    m = w[i * 4 + k + j] > m ? w[i * 4 + k + j] : m;
#pragma omp scan inclusive(m)
                    d[((i / 2) * 4 + (4 - k)) * ROW + j] = m - j;
                }
    }
    int z = 0;
    /* the inner loop's bounds depend on the outer variable: simd only */
#pragma omp simd collapse(2) reduction(inscan, ^: z)
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            e[i * ROW + j] = z - j;
#pragma omp scan exclusive(z)
            z ^= a[j] + i;
        }
    return x + y + (long)m + z;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP * COLS], b[S2S_CAP * COLS], e[ROW * ROW];
    static long c[S2S_CAP * COLS];
    static double d[140 * ROW], w[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        if (n > ROW) continue;
        s2s_fill_i32(a, n * COLS, -1000, 1000);
        s2s_fill_f64(w, S2S_CAP / 2, -100.0, 100.0);
        for (int i = 0; i < (n + 1) * COLS + S2S_GUARD; i++) { b[i] = 1; c[i] = 2; }
        for (int i = 0; i < 140 * ROW; i++) d[i] = 0;
        for (int i = 0; i < ROW * ROW; i++) e[i] = 5;
        long r = scans(n, a, b, c, d, w, e);
        S2S_OUT("r", &r, 1);
        S2S_OUT("b", b, n * COLS + S2S_GUARD);
        S2S_OUT("c", c, (n + 1) * COLS + S2S_GUARD);
        S2S_OUT("d", d, 140 * ROW);
        S2S_OUT("e", e, ROW * ROW);
    }
    return 0;
}
