/* s2s-test: vectorized=1 tolerance=exact report="calls.inlined=5" */
/* complex_inline_memory: complex values through inlined functions and
 * memory.  Functions of the file take complex parameters (two arguments
 * each when inlined) and return complex results (through a slot of two
 * parts), one only on the lanes of a divergent branch; an address-taken
 * complex local is updated through a double complex pointer; records hold
 * a float complex member read and written in place; a double complex
 * value from before the loop is read in it (by address); a private
 * complex variable; float <-> double complex conversions. */
#include <complex.h>
#include "harness.h"

typedef struct {
    float complex z;
    double w;
} Rec;

static double complex rot(double complex z, double complex unit)
{
    return z * unit;
}

static double complex mix(double complex a, float complex b, double t)
{
    return a * t + b * (1.0 - t);
}

static void accumulate(double complex *acc, double complex v)
{
    *acc += v;
}

static float complex cfma(float complex a, float complex b, float complex c)
{
    return a * b + c;
}

void kernel(int n, Rec *recs, const double complex *u, double complex scale,
            double complex *out, float complex *fout)
{
    double complex priv;
#pragma omp simd private(priv)
    for (int i = 0; i < n; i++) {
        double complex acc = 0;
        accumulate(&acc, u[i] * scale);
        priv = mix(acc, recs[i].z, recs[i].w);
        if (creal(priv) > 0.0)
            priv = rot(priv, scale);
        accumulate(&acc, priv);
        out[i] = acc;
        recs[i].z = cfma(recs[i].z, (float complex)scale, 1.0f);
        fout[i] = conjf(recs[i].z) * 2.0f;
    }
}

static const double special[] = {0.0, -0.0, 1.0, INFINITY, -INFINITY, NAN};

static double pick(void)
{
    uint32_t r = s2s_u32();
    return r % 4 ? s2s_f64(-3.0, 3.0) : special[(r >> 8) % 6];
}

int main(int argc, char **argv)
{
    static Rec recs[S2S_CAP];
    static double complex u[S2S_CAP], out[S2S_CAP];
    static float complex fout[S2S_CAP];
    static double d[S2S_CAP];
    static float f[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < S2S_CAP; i++) {
            recs[i].z = __builtin_complex((float)pick(), (float)pick());
            recs[i].w = s2s_f64(0.0, 1.0);
            u[i] = __builtin_complex(pick(), pick());
            out[i] = 0;
            fout[i] = 0;
        }
        double complex scale = __builtin_complex(0.6, n % 2 ? 0.8 : -0.8);
        kernel(n, recs, s2s_tail(0, u, (size_t)n * sizeof u[0]), scale, out, fout);
        for (int i = 0; i < n + S2S_GUARD; i++) d[i] = creal(out[i]);
        S2S_OUT_FP("out.re", d, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) d[i] = cimag(out[i]);
        S2S_OUT_FP("out.im", d, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) f[i] = crealf(fout[i]);
        S2S_OUT_FP("fout.re", f, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) f[i] = cimagf(fout[i]);
        S2S_OUT_FP("fout.im", f, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) f[i] = crealf(recs[i].z);
        S2S_OUT_FP("recs.re", f, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) f[i] = cimagf(recs[i].z);
        S2S_OUT_FP("recs.im", f, n + S2S_GUARD);
    }
    return 0;
}
