/* s2s-test: vectorized=2 regions=4 tolerance=exact cflags="-fopenmp" */
/* collapse_orphaned_locals: an orphaned `for simd collapse(2)` (its
 * function is called inside and outside a parallel region) whose loop
 * variables are locals declared before it, as the OpenMP Examples' simd-5
 * writes it.  The vector code keeps `omp for` on the outer loop and named
 * the variables lastprivate to carry their values out; gcc rejects that
 * for a variable private where the construct is met ("lastprivate variable
 * 'i' is private in outer context"), so the output did not compile.  Now
 * the clause names only variables the function may read after the loop;
 * one that is read after it (third function) keeps its loop scalar, also
 * where a loop around the nest reads it before the nest (fourth). */
#include "harness.h"

static void add(int rows, int m, const int32_t *a, int32_t *b)
{
    int i, j;
    int32_t t;
#pragma omp for simd collapse(2) private(t)
    for (i = 0; i < rows; i++)
        for (j = 0; j < m; j++) {
            t = a[i * m + j] * 3 - j;
            b[i * m + j] = t > 0 ? t : -t;
        }
}

static void scale(int rows, int m, int32_t *b)
{
    int i, j;
#pragma omp for simd collapse(2)
    for (i = 0; i < rows; i++)
        for (j = 0; j < m; j++)
            b[i * m + j] = b[i * m + j] * 2 + i;
}

static int last_row(int rows, int m, int32_t *c)
{
    int i = -1, j = -1;
#pragma omp for simd collapse(2)
    for (i = 0; i < rows; i++)
        for (j = 0; j < m; j++)
            c[i * m + j] += i - j;
    return i * 100 + j;
}

static int again(int rows, int m, int32_t *c)
{
    int i = 0, j = 0, s = 0;
    for (int r = 0; r < 2; r++) {
        s += i * 10 + j;
#pragma omp for simd collapse(2)
        for (i = 0; i < rows; i++)
            for (j = 0; j < m; j++)
                c[i * m + j] -= r;
    }
    return s;
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], b[S2S_CAP], c[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int k = 0; k < S2S_CAP; k++) { b[k] = k; c[k] = -k; }
        int rows = n % 5, m = n / 5;
        add(rows, m, a, b);
#pragma omp parallel num_threads(2)
        scale(rows, m, b);
        int r = rows > 0 && m > 0 ? last_row(rows, m, c) : 0;
        int g = rows > 0 && m > 0 ? again(rows, m, c) : 0;
        S2S_OUT("b", b, n + S2S_GUARD);
        S2S_OUT("c", c, n + S2S_GUARD);
        S2S_OUT("r", &r, 1);
        S2S_OUT("g", &g, 1);
    }
    return 0;
}
