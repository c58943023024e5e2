/* s2s-test: vectorized=1 tolerance=ulp=4 */
/* complex_functions: the <complex.h> functions in a simd loop.  cexp, clog,
 * csqrt, cpow, the trigonometric and hyperbolic functions, their inverses
 * and cproj run lane by lane (glibc's own functions: libmvec has no complex
 * ones, and cexp is not exp * cos/sin at the edges), both parts from one
 * call per lane, or one part where only one is used; cabs is hypot and carg
 * atan2, which --math vector takes from libmvec where the target has them
 * (atan2 on x86, hypot on AVX-512: within 4 ulp, the only lines compared so).
 * Infinities, NaNs, zeros of both signs and large values among the inputs:
 * the special cases of Annex G. */
#include <complex.h>
#include "harness.h"

#define NF 10

void funcs(int n, const double complex *a, const double complex *b, double complex *out,
           double *mag, double *arg, double *ere)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double complex z = a[i];
        double complex *o = &out[NF * i];
        o[0] = cexp(z);
        o[1] = clog(z);
        o[2] = csqrt(z);
        o[3] = cpow(z, b[i]);
        o[4] = csin(z) + ccos(z) * I;
        o[5] = ctan(z) - csinh(z);
        o[6] = ccosh(z) * ctanh(z);
        o[7] = casin(z) + cacos(z);
        o[8] = catan(z) + casinh(z) - cacosh(z) / 2.0;
        o[9] = catanh(z) + cproj(z);
        mag[i] = cabs(z);
        ere[i] = creal(cexp(b[i]));   /* one part of a cexp only */
        arg[i] = carg(z);
    }
}

static const double special[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 0.5,
                                 800.0, -750.0, 1e-310, 3.0};

static double pick(void)
{
    uint32_t r = s2s_u32();
    return r % 2 ? s2s_f64(-4.0, 4.0) : special[(r >> 8) % 12];
}

int main(int argc, char **argv)
{
    static double complex a[S2S_CAP], b[S2S_CAP], out[NF * S2S_CAP];
    static double mag[S2S_CAP], arg[S2S_CAP], ere[S2S_CAP], part[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < S2S_CAP; i++) {
            a[i] = __builtin_complex(pick(), pick());
            b[i] = __builtin_complex(pick() / 4.0, pick() / 4.0);
            mag[i] = arg[i] = ere[i] = 0.0;
        }
        for (int i = 0; i < NF * S2S_CAP; i++) out[i] = 0;
        funcs(n, s2s_tail(0, a, (size_t)n * sizeof a[0]), b, out, mag, arg, ere);
        for (int f = 0; f < NF; f++) {
            char tag[16];
            for (int i = 0; i < n; i++) part[i] = creal(out[NF * i + f]);
            snprintf(tag, sizeof tag, "f%d.re", f);
            S2S_OUT_FP(tag, part, n);
            for (int i = 0; i < n; i++) part[i] = cimag(out[NF * i + f]);
            snprintf(tag, sizeof tag, "f%d.im", f);
            S2S_OUT_FP(tag, part, n);
        }
        S2S_OUT_FP("ere", ere, n + S2S_GUARD);
        s2s_out_ulp_f64("mag", mag, n + S2S_GUARD);
        s2s_out_ulp_f64("arg", arg, n + S2S_GUARD);
    }
    return 0;
}
