/* s2s-test: vectorized=1 tolerance=exact */
/* complex_arith: C99 double complex arithmetic in a simd loop, lowered to
 * the two real parts: + - * with complex and real operands (a real operand
 * stays real: w + x keeps the sign of a -0.0 imaginary part), the product
 * of two complex values with its Annex G recovery (__muldc3) on the lanes
 * where both parts are NaN, division by a real, unary minus, conj and ~,
 * creal/cimag, __real__/__imag__ as values and as assignment targets,
 * x + y*I, __builtin_complex, compound assignments, == and !=, a complex
 * condition, conversions to int and _Bool, ?: of complex values.  The inputs
 * hold infinities, NaNs and signed zeros. */
#include <complex.h>
#include "harness.h"

void arith(int n, const double complex *a, const double complex *b, const double *x,
           const int32_t *k, double complex *out, double complex *prod, double *re,
           int32_t *flags)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double complex z = a[i], w = b[i];
        double complex s = z + w - x[i];
        s += (double)k[i];          /* a real operand: the imaginary part is kept
                                       (an int one too, but clang 14 adds +0.0i in the
                                       scalar remainder: tests/test_lower_complex.py) */
        s = x[i] - s;               /* x - s: imaginary part -s.im */
        double complex p = z * w;   /* formula, and __muldc3 where both parts are NaN */
        p *= 0.5;                   /* complex times real: two products */
        p = p * I + x[i] * conj(w) - ~z / 4.0;
        __real__ s = __imag__ p;
        __imag__ s -= creal(w);
        double complex q = __builtin_complex(cimag(z), x[i]) + x[i] * I;
        out[i] = -s + q;
        prod[i] = z == w ? p : (z != 0 ? -p : q);
        re[i] = __real__ z * cimag(w);
        int32_t t = (int32_t)(k[i] * 1.5 + 0.25 * I);   /* complex to int: the real part */
        flags[i] = t * 16 + (creal(q) > 0.5) + (_Bool)z * 2 + (w ? 4 : 0) + (!s ? 8 : 0);
    }
}

static const double special[] = {0.0, -0.0, 1.0, -2.5, INFINITY, -INFINITY, NAN, 0.75,
                                 -1e-310, 3.0e300};

static double pick(void)
{
    uint32_t r = s2s_u32();
    return r % 3 ? s2s_f64(-8.0, 8.0) : special[(r >> 8) % 10];
}

/* The real parts, then the imaginary parts (NaNs canonical). */
static void print_parts(const char *tag, const double complex *z, int n)
{
    static double part[S2S_CAP];
    char name[32];
    for (int i = 0; i < n; i++) part[i] = creal(z[i]);
    snprintf(name, sizeof name, "%s.re", tag);
    S2S_OUT_FP(name, part, n);
    for (int i = 0; i < n; i++) part[i] = cimag(z[i]);
    snprintf(name, sizeof name, "%s.im", tag);
    S2S_OUT_FP(name, part, n);
}

int main(int argc, char **argv)
{
    static double complex a[S2S_CAP], b[S2S_CAP], out[S2S_CAP], prod[S2S_CAP];
    static double x[S2S_CAP], re[S2S_CAP];
    static int32_t k[S2S_CAP], flags[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < S2S_CAP; i++) {
            a[i] = __builtin_complex(pick(), pick());
            b[i] = i % 7 == 3 ? a[i] : __builtin_complex(pick(), pick());
            x[i] = pick();
            k[i] = (int32_t)s2s_int(-3, 3);
            out[i] = prod[i] = 0;
            re[i] = 0.0;
            flags[i] = 0;
        }
        arith(n, s2s_tail(0, a, (size_t)n * sizeof a[0]), b, x, k, out, prod, re, flags);
        print_parts("out", out, n + S2S_GUARD);
        print_parts("prod", prod, n + S2S_GUARD);
        S2S_OUT_FP("re", re, n + S2S_GUARD);
        S2S_OUT("flags", flags, n + S2S_GUARD);
    }
    return 0;
}
