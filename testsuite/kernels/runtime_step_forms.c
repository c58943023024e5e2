/* s2s-test: vectorized=8 tolerance=exact cflags="-fopenmp" grep="if \(\(-\(s\)\) < 0\) \{" */
/* runtime_step_forms: loop steps and linear steps known only at run time
 * (issue 21 item 3).  Lane l of a vector iteration runs iteration k + l,
 * whose variable is lb + (k + l) * step; the iteration count is OpenMP's
 * (computed in the comparison's type, before the loop); the step's sign is
 * tested at run time, and a step of the wrong sign (OpenMP leaves such a
 * loop unspecified) runs the loop as written: here only where that loop
 * runs no iteration.  Every increment form, decreasing loops, unsigned and
 * short variables, a reduction over divergent branches, the variable's
 * value after the loop, parallel for simd, collapse, a negative linear
 * step. */
#include "harness.h"

/* i -= s, a decreasing loop down to a bound, a divergent branch */
void down(int n, int s, const int32_t *a, int32_t *b)
{
#pragma omp simd
    for (int i = n - 1; i >= 0; i -= s) {
        if (a[i] & 1)
            b[i] = a[i] * 3;
        else
            b[i] = -a[i];
    }
}

/* i = i + s with <=, the variable declared outside: its value after */
int upto(int lo, int hi, int s, const int32_t *a, int32_t *b)
{
    int i;
    long long t = 0;
#pragma omp simd reduction(+:t)
    for (i = lo; i <= hi; i = i + s) {
        b[i] = a[i] + i;
        t += a[i] > 0 ? a[i] : i;
    }
    return i * 1000 + (int)(t % 1000);
}

/* i = s + i, an expression of two variables as the step */
void expr_step(int n, int k, int m, const double *x, double *y)
{
#pragma omp simd
    for (int i = 0; i < n; i = (2 * k + m) + i)
        y[i] = x[i] * 0.5 - i;
}

/* an unsigned variable stepping by an int */
unsigned usum(unsigned n, int s, const uint32_t *u)
{
    unsigned acc = 0;
#pragma omp simd reduction(^:acc)
    for (unsigned i = 1; i < n; i += s)
        acc ^= u[i] * (i | 1u);
    return acc;
}

/* a short variable compared in int */
void short_var(int n, short s, const int32_t *a, int32_t *b)
{
#pragma omp simd
    for (short i = 2; i < n; i += s)
        b[i] = a[i] << 1;
}

/* a step whose sign may be wrong where the loop runs no iteration */
int wrong_sign(int lo, int hi, int s, int32_t *b)
{
    int cnt = 0;
#pragma omp simd reduction(+:cnt)
    for (int i = lo; i < hi; i += s) {
        b[i] = i;
        cnt++;
    }
    return cnt;
}

/* threads share the blocks; a negative linear step */
long long par(int n, int s, const int32_t *a, int32_t *b)
{
    long long t = 0;
    int j = 3 * n;
#pragma omp parallel for simd reduction(+:t) linear(j: -s) num_threads(2)
    for (int i = 0; i < n; i++) {
        b[i] = a[i] - j;
        t += b[i];
        j -= s;
    }
    return t + j;
}

/* collapse(2) with a run-time step in the inner loop */
long long nest(int rows, int m, int s, const int32_t *a)
{
    long long t = 0;
#pragma omp simd collapse(2) reduction(+:t)
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < m; c += s)
            t += (long long)a[r * m + c] * (c + 1);
    return t;
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], b[S2S_CAP];
    static uint32_t u[S2S_CAP];
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int s = 1; s <= 9; s += 4) {
            s2s_fill_i32(a, n, -1000, 1000);
            s2s_fill_i32(b, S2S_CAP, 7, 7);
            down(n, s, s2s_tail(1, a, n * sizeof a[0]), b);
            S2S_OUT("down", b, n + S2S_GUARD);

            s2s_fill_i32(b, S2S_CAP, 7, 7);
            s2s_out_i64("upto", upto(n / 3, n - 1, s, a, b));
            S2S_OUT("b", b, n + S2S_GUARD);

            s2s_fill_f64(x, n, -4.0, 4.0);
            s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
            expr_step(n, s / 2, s % 3, s2s_tail(0, x, n * sizeof x[0]), y);
            S2S_OUT("y", y, n + S2S_GUARD);

            s2s_fill_u32(u, n);
            s2s_out_u64("usum", usum((unsigned)n, s, s2s_tail(2, u, n * sizeof u[0])));

            s2s_fill_i32(b, S2S_CAP, 7, 7);
            short_var(n, (short)s, a, b);
            S2S_OUT("short", b, n + S2S_GUARD);

            s2s_fill_i32(b, S2S_CAP, 7, 7);
            s2s_out_i64("right", wrong_sign(0, n, s, b));
            s2s_out_i64("wrong", wrong_sign(n, n / 2, -s, b));
            S2S_OUT("b", b, n + S2S_GUARD);

            s2s_fill_i32(b, S2S_CAP, 7, 7);
            s2s_out_i64("par", par(n, s, a, b));
            S2S_OUT("b", b, n + S2S_GUARD);

            s2s_out_i64("nest", nest(n / 7, 7, s, a));
        }
    }
    return 0;
}
