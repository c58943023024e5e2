/* s2s-test: vectorized=1 tolerance=exact */
/* restrict_pointers: restrict-qualified parameters and a const restrict
 * input (qualifiers must survive in the output's declarations). */
#include "harness.h"

void rp(int n, double *restrict out, const double *restrict in, const double *restrict w)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = in[i] * w[i % 4];
}

int main(int argc, char **argv)
{
    static double out[S2S_CAP], in[S2S_CAP], w[4];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(in, n, -1.0, 1.0);
        s2s_fill_f64(w, 4, -1.0, 1.0);
        s2s_fill_f64(out, S2S_CAP, 2.0, 2.0);
        rp(n, out, s2s_tail(0, in, n * sizeof in[0]), w);
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
