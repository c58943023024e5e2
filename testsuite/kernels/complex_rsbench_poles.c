/* s2s-test: vectorized=1 tolerance=exact args="--math exact" report="calls.inlined=3" */
/* complex_rsbench_poles: the pattern of RSBench (multipole cross sections):
 * the lookup loop calls a function of the file that sums, over a window of
 * resonance poles, complex pole terms -- the pole's residues times factors
 * exp(-2i phi) and a Faddeeva-like function w(z) of the Doppler-broadened
 * distance to the pole.  w(z) has two branches on |z| (a divergent branch
 * in the loop): near the pole a sum built from cexp, complex products and
 * divisions, far from it a rational asymptotic form.  Poles are structs
 * with double complex members in a global table; the factors are a local
 * array of complex values filled through a pointer by another function.
 * Every function is inlined (complex parameters and results included);
 * cexp and the complex divisions run lane by lane, the rest in vector
 * code.  --math exact: sin/cos/atan/sqrt as the scalar program calls them. */
#include <complex.h>
#include "harness.h"

#define NWIN 6
#define NPOLES 5

typedef struct {
    double complex ea;    /* the pole */
    double complex rt;    /* residues: total, absorption */
    double complex ra;
    int32_t l;            /* its angular momentum: which factor */
} Pole;

static Pole poles[NWIN * NPOLES];
static double pseudo_k[4];
static const double coef[4] = {0.3125, -0.125, 0.0625, -0.015625};

static double complex w_approx(double complex z)
{
    if (cabs(z) < 3.0) {
        double complex e = cexp(4.0 * I * z);
        double complex sum = 0;
        for (int k = 0; k < 4; k++) {
            double complex top = (k % 2 ? -1.0 : 1.0) * e - 1.0;
            double complex bot = (k + 1) * (k + 1) * 0.5 - 16.0 * z * z;
            sum += coef[k] * (top / bot);
        }
        return I * (1.0 - e) / (4.0 * z) + 1.5 * I * z * sum;
    }
    return I * z * (0.5124 / (z * z - 0.2752) + 0.0517 / (z * z - 2.7247));
}

static void sig_factors(double e, double complex *f)
{
    for (int l = 0; l < 4; l++) {
        double phi = pseudo_k[l] * sqrt(e);
        if (l == 1)
            phi -= atan(phi);
        else if (l == 2)
            phi -= atan(3.0 * phi / (3.0 - phi * phi));
        else if (l == 3)
            phi -= atan(phi * (15.0 - phi * phi) / (15.0 - 6.0 * phi * phi));
        phi *= 2.0;
        f[l] = cos(phi) - sin(phi) * I;
    }
}

static double micro_xs(int32_t window, double e, double doppler)
{
    double complex f[4];
    sig_factors(e, f);
    double sig_t = 0.0, sig_a = 0.0;
    double root = sqrt(e);
    for (int32_t p = window * NPOLES; p < (window + 1) * NPOLES; p++) {
        Pole pole = poles[p];
        double complex w = w_approx((pole.ea - root) * doppler);
        sig_t += creal(pole.rt * f[pole.l] * w);
        sig_a += creal(pole.ra * w);
    }
    return sig_t + 2.0 * sig_a;
}

void lookups(int n, const double *energy, const double *doppler, double *xs)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double e = energy[i];
        int32_t window = (int32_t)(e * (NWIN - 1));
        xs[i] = micro_xs(window, e, doppler[i]);
    }
}

int main(int argc, char **argv)
{
    static double energy[S2S_CAP], doppler[S2S_CAP], xs[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < NWIN * NPOLES; p++) {
            double lo = (double)(p / NPOLES) / (NWIN - 1);
            poles[p].ea = __builtin_complex(sqrt(lo + s2s_f64(0.0, 0.25)), s2s_f64(-0.2, 0.2));
            poles[p].rt = __builtin_complex(s2s_f64(-1.0, 1.0), s2s_f64(-1.0, 1.0));
            poles[p].ra = __builtin_complex(s2s_f64(-1.0, 1.0), s2s_f64(-1.0, 1.0));
            poles[p].l = (int32_t)s2s_int(0, 3);
        }
        for (int l = 0; l < 4; l++) pseudo_k[l] = s2s_f64(0.1, 2.0);
        for (int i = 0; i < S2S_CAP; i++) {
            energy[i] = s2s_f64(0.0, 1.0);
            doppler[i] = i % 5 == 2 ? 0.0 : s2s_f64(0.5, 40.0);   /* z = 0: w's division by 0 */
            xs[i] = 0.0;
        }
        lookups(n, s2s_tail(0, energy, (size_t)n * sizeof energy[0]), doppler, xs);
        S2S_OUT_FP("xs", xs, n + S2S_GUARD);
    }
    return 0;
}
