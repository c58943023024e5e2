/* s2s-test: vectorized=1 tolerance=exact */
/* struct_fields: a uniform struct passed by pointer (its fields are
 * loop-invariant scalars) and a struct of arrays. */
#include "harness.h"

struct params { double scale; double offset; int shift; };
struct soa { float *re; float *im; };

void apply(int n, const struct params *p, struct soa v, float *mag)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float re = v.re[i] * (float)p->scale, im = v.im[i] + (float)p->offset;
        v.re[i] = re;
        mag[i] = re * re + im * im + (float)(i >> p->shift);
    }
}

int main(int argc, char **argv)
{
    static float re[S2S_CAP], im[S2S_CAP], mag[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        struct params p = {1.5, -0.25, 2};
        struct soa v;
        s2s_fill_f32(re, S2S_CAP, -2.0, 2.0);
        s2s_fill_f32(im, n, -2.0, 2.0);
        s2s_fill_f32(mag, S2S_CAP, 0.0, 0.0);
        v.re = re;
        v.im = s2s_tail(0, im, n * sizeof im[0]);
        apply(n, &p, v, mag);
        S2S_OUT("re", re, n + S2S_GUARD);
        S2S_OUT("mag", mag, n + S2S_GUARD);
    }
    return 0;
}
