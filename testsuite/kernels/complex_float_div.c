/* s2s-test: vectorized=1 tolerance=exact */
/* complex_float_div: float complex division under a divergent branch:
 * z / w is libgcc's __divsc3, run lane by lane for the active lanes only
 * (the masked per-lane call), x / w (a real dividend: __divsc3 of x + 0i),
 * r /= x (a real divisor: two divisions), cabsf (hypotf), float complex
 * products (inline, __mulsc3 where both parts are NaN) and a float complex
 * value widened to double complex for a double product.  Infinities, NaNs,
 * zeros of both signs and huge and tiny values among the inputs. */
#include <complex.h>
#include "harness.h"

void fdiv(int n, const float complex *a, const float complex *b, const float *x,
          float complex *q, double complex *wide)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float complex z = a[i], w = b[i];
        float complex r;
        if (cabsf(w) > 0.5f)
            r = z / w;
        else
            r = z * w + x[i] / w;
        r /= x[i];
        q[i] = r;
        wide[i] = r * (double complex)z;
    }
}

static const float special[] = {0.0f, -0.0f, 1.0f, -2.5f, INFINITY, -INFINITY, NAN, 0.25f,
                                1e-40f, 3.0e38f};

static float pick(void)
{
    uint32_t r = s2s_u32();
    return r % 3 ? (float)s2s_f64(-4.0, 4.0) : special[(r >> 8) % 10];
}

int main(int argc, char **argv)
{
    static float complex a[S2S_CAP], b[S2S_CAP], q[S2S_CAP];
    static double complex wide[S2S_CAP];
    static float x[S2S_CAP], qf[S2S_CAP];
    static double wd[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < S2S_CAP; i++) {
            a[i] = __builtin_complex(pick(), pick());
            b[i] = __builtin_complex(pick(), pick());
            x[i] = pick();
            q[i] = 0;
            wide[i] = 0;
        }
        fdiv(n, a, s2s_tail(0, b, (size_t)n * sizeof b[0]), x, q, wide);
        for (int i = 0; i < n + S2S_GUARD; i++) qf[i] = crealf(q[i]);
        S2S_OUT_FP("q.re", qf, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) qf[i] = cimagf(q[i]);
        S2S_OUT_FP("q.im", qf, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) wd[i] = creal(wide[i]);
        S2S_OUT_FP("wide.re", wd, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) wd[i] = cimag(wide[i]);
        S2S_OUT_FP("wide.im", wd, n + S2S_GUARD);
    }
    return 0;
}
