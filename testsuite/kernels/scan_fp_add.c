/* s2s-test: vectorized=3 tolerance=reduction-fp rel=1e-5 */
/* scan_fp_add: float and double prefix sums with '#pragma omp scan'.
 * Where the target moves lanes in registers, s2svec makes each vector's
 * prefix in log2(lanes) steps (a tree of additions) and adds the running
 * total to it: another association than the scalar loop's, as for plain
 * float reductions, so every sum is printed with s2s_out_red under the
 * stated tolerance (the data are positive: the relative error stays near
 * n*eps).  Where the prefix runs lane by lane (SVE, RVV) the sums of one
 * term per iteration round as the scalar loop's.  An iteration of
 * scan_two_terms contributes two terms, which OpenMP adds first. */
#include "harness.h"

float scan_f32(int n, const float *a, float *b)
{
    float x = 1.5f;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        x += a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

double scan_f64(int n, const double *a, double *b)
{
    double x = 0.25;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        b[i] = x * 0.5;
#pragma omp scan exclusive(x)
        x += a[i];
    }
    return x;
}

float scan_two_terms(int n, const float *a, const float *c, float *b)
{
    float x = 0.0f;
#pragma omp simd reduction(inscan, +: x)
    for (int i = 0; i < n; i++) {
        x += a[i];
        x += c[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    return x;
}

int main(int argc, char **argv)
{
    static float a[S2S_CAP], c[S2S_CAP], b[S2S_CAP];
    static double p[S2S_CAP], q[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(a, n, 0.0, 4.0);
        s2s_fill_f32(c, n, 0.0, 4.0);
        s2s_fill_f64(p, n, 0.0, 4.0);
        const float *ta = s2s_tail(0, a, n * sizeof a[0]);
        for (int i = 0; i < S2S_CAP; i++) b[i] = -1.0f;
        s2s_out_red("f32", scan_f32(n, ta, b));
        for (int i = 0; i < n; i++)
            s2s_out_red("b_f32", b[i]);
        for (int i = 0; i < S2S_CAP; i++) q[i] = -1.0;
        s2s_out_red("f64", scan_f64(n, s2s_tail(1, p, n * sizeof p[0]), q));
        for (int i = 0; i < n; i++)
            s2s_out_red("q_f64", q[i]);
        for (int i = 0; i < S2S_CAP; i++) b[i] = -1.0f;
        s2s_out_red("two", scan_two_terms(n, ta, s2s_tail(2, c, n * sizeof c[0]), b));
        for (int i = 0; i < n; i++)
            s2s_out_red("b_two", b[i]);
    }
    return 0;
}
