/* s2s-test: vectorized=1 tolerance=exact report="loops.uniform=1 loops.divergent=0 branches.divergent=0 memory.gather=1 memory.uniform=1 memory.contiguous=1" */
/* inner_loop_uniform_bound: a scalar inner loop with an iteration-
 * independent trip count m (0 to 5) inside the simd loop; each lane keeps
 * its own sum (accumulated in the same order as the scalar code). */
#include "harness.h"

void matvec(int n, int m, const double *a, const double *w, double *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = 0; k < m; k++)
            s += a[i * m + k] * w[k];
        out[i] = s;
    }
}

int main(int argc, char **argv)
{
    static double a[5 * S2S_CAP], w[5], out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int m = 0; m <= 5; m += (m < 2 ? 1 : 3)) {
            s2s_fill_f64(a, n * m, -1.0, 1.0);
            s2s_fill_f64(w, 5, -2.0, 2.0);
            s2s_fill_f64(out, S2S_CAP, 4.0, 4.0);
            matvec(n, m, s2s_tail(0, a, n * m * sizeof a[0]), w, out);
            S2S_OUT("out", out, n + S2S_GUARD);
        }
    }
    return 0;
}
