/* s2s-test: vectorized=2 tolerance=exact cflags="-fopenmp" grep="^\s*#\s*pragma\s+omp\s+parallel\s+for\s+num_threads\(2\) private\(j, i\)$" */
/* collapse_worksharing_inner_var: `parallel for simd collapse(2)` and
 * `teams distribute parallel for simd collapse(2)` whose inner loop
 * variable is declared outside the nest.  The threads share the outer
 * iterations only (the inner loop is the vector loop of each), so the
 * inner variable, which the scalar remainder sets, must be private to each
 * thread: private, or lastprivate where the function reads it after the
 * nest, as it is for the collapsed nest (it was shared, and the threads'
 * remainders raced on it). */
#include "harness.h"

void pfc(int rows, int m, const int32_t *a, int32_t *b)
{
    int i, j;
#pragma omp parallel for simd collapse(2) num_threads(2)
    for (i = 0; i < rows; i++)
        for (j = 0; j < m; j++)
            b[i * m + j] = a[i * m + j] * 3 + j - i;
}

int tdc(int rows, int m, const int32_t *a, int32_t *b)
{
    int i, j, s = 0;
#pragma omp teams distribute parallel for simd collapse(2) reduction(+:s) num_teams(2) thread_limit(2)
    for (i = 0; i < rows; i++)
        for (j = 0; j < m; j++) {
            b[i * m + j] = a[i * m + j] > j ? a[i * m + j] : j;
            s += b[i * m + j];
        }
    return s;
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int m = 1; m < 20; m += 6) {
            s2s_fill_i32(a, n, -500, 500);
            s2s_fill_i32(b, S2S_CAP, 5, 5);
            pfc(n / m, m, s2s_tail(1, a, n * sizeof a[0]), b);
            S2S_OUT("b", b, n + S2S_GUARD);
            s2s_fill_i32(b, S2S_CAP, 5, 5);
            s2s_out_i64("tdc", tdc(n / m, m, s2s_tail(1, a, n * sizeof a[0]), b));
            S2S_OUT("b", b, n + S2S_GUARD);
        }
    }
    return 0;
}
