/* s2s-test: vectorized=3 tolerance=exact cflags="-fopenmp" */
/* collapse_worksharing_outer_var: `for simd collapse(2)`, `parallel for
 * simd collapse(2)` and `taskloop simd collapse(2)` nests whose loop
 * variables are declared outside them and read after them.  The loop
 * variables of a collapsed simd nest are lastprivate (OpenMP 5.2, 5.1.1):
 * i and j end at their sequential final values.  The vector code keeps the
 * worksharing on the outer loop, where i is only private; it lost i's value
 * (found by gcc's libgomp simd-11.c: i stayed 0) until the kept pragma
 * named it lastprivate too.  Their values after a nest of no iteration are
 * not compared (OpenMP leaves them unspecified; gcc's builds disagree). */
#include "harness.h"

int fs(int rows, int m, const int32_t *a, int32_t *b)
{
    int i = -3, j = -4, s = 0;
#pragma omp parallel num_threads(2)
#pragma omp for simd collapse(2) reduction(+:s)
    for (i = 0; i < rows; i++)
        for (j = 0; j < m; j++) {
            b[i * m + j] = a[i * m + j] - j;
            s += b[i * m + j];
        }
    return rows > 0 && m > 0 ? s * 1000 + i * 37 + j : s;
}

int pfs(int rows, int m, const int32_t *a, int32_t *b)
{
    int i = 7, j = 9;
#pragma omp parallel for simd collapse(2) num_threads(2)
    for (i = 1; i < rows; i += 2)
        for (j = m; j > 0; j--)
            b[i * m + j - 1] = a[i * m + j - 1] * 2 + i;
    return rows > 1 && m > 0 ? i * 101 + j : 0;
}

int tls(int rows, int m, const int32_t *a, int32_t *b)
{
    int i = 0, j = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop simd collapse(2) grainsize(3)
    for (i = 0; i < rows; i++)
        for (j = 0; j < m; j++)
            b[i * m + j] = a[i * m + j] + i + j;
    return rows > 0 && m > 0 ? i * 1000 + j : 0;
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int m = 1; m < 20; m += 6) {
            s2s_fill_i32(a, n, -500, 500);
            s2s_fill_i32(b, S2S_CAP, 5, 5);
            s2s_out_i64("fs", fs(n / m, m, a, b));
            S2S_OUT("b", b, n + S2S_GUARD);
            s2s_fill_i32(b, S2S_CAP, 5, 5);
            s2s_out_i64("pfs", pfs(n / m, m, a, b));
            S2S_OUT("b", b, n + S2S_GUARD);
            s2s_fill_i32(b, S2S_CAP, 5, 5);
            s2s_out_i64("tls", tls(n / m, m, a, b));
            S2S_OUT("b", b, n + S2S_GUARD);
        }
    }
    return 0;
}
