/* s2s-test: vectorized=1 tolerance=exact */
/* aos_f64_pair: complex numbers as {re, im} double records, multiplied in
 * place (a 2-field group, every byte written) next to a guard page. */
#include "harness.h"

struct cplx { double re, im; };

void cmul(int n, struct cplx *z, double wr, double wi)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double re = z[i].re * wr - z[i].im * wi;
        double im = z[i].re * wi + z[i].im * wr;
        z[i].re = re;
        z[i].im = im;
    }
}

int main(int argc, char **argv)
{
    static struct cplx src[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(&src[0].re, 2 * S2S_CAP, -3.0, 3.0);
        struct cplx *z = s2s_tail(0, src, (size_t)n * sizeof src[0]);
        cmul(n, z, 0.75, -1.25);
        S2S_OUT("z", &z[0].re, 2 * n);
    }
    return 0;
}
