/* s2s-test: vectorized=5 regions=6 tolerance=exact cflags="-fopenmp" */
/* pragma_operator: loops annotated with the _Pragma operator, as
 * portability macros write them: directly, through a macro (of the file,
 * of another macro, of a header) and through a stringizing macro.  An
 * atomic written as a _Pragma inside the loop keeps it scalar (s2svec
 * would otherwise not see it).  A macro that expands to the pragma and the
 * loop header together is written out in the output (macro_loops.py) and
 * its loop vectorized; until that, it stayed scalar with a warning. */
#include "harness.h"
#include "pragma_operator.h"

#define SIMD _Pragma("omp simd")
#define SIMD_AGAIN SIMD
#define OMP(x) _Pragma(#x)
#define ATOMIC _Pragma("omp atomic")
#define SIMD_LOOP(i, n) _Pragma("omp simd") for (int i = 0; i < (n); i++)

static void cascade(int n, float *a, const float *b)
{
    SIMD_AGAIN
    for (int i = 0; i < n; i++) {
        if (b[i] > 0.25f)
            a[i] = b[i] * 2.0f;
        else if (b[i] < -0.5f)
            a[i] = -b[i];
        else
            a[i] = b[i] + 1.0f;
    }
}

static int total(int n, const int *c)
{
    int s = 0;
    _Pragma("omp simd reduction(+:s)")
    for (int i = 0; i < n; i++)
        s += c[i] & 0xff;
    return s;
}

static void scale(int n, int *o, const int *c)
{
    OMP(omp parallel for simd)
    for (int i = 0; i < n; i++)
        o[i] = c[i] > 0 ? c[i] / 3 : c[i] * 5;
}

static void clamp(int n, float *a)
{
    PO_SIMD
    for (int i = 0; i < n; i++)
        a[i] = a[i] > 1.5f ? 1.5f : a[i];
}

static int count_positive(int n, const int *c)
{
    int count = 0;
    OMP(omp parallel for simd)
    for (int i = 0; i < n; i++) {
        if (c[i] > 0) {
            ATOMIC
            count += 1;
        }
    }
    return count;
}

static void offsets(int n, int *o, const int *c)
{
    SIMD_LOOP(i, n) { o[i] += c[i] - i; }
}

int main(int argc, char **argv)
{
    static float a[S2S_CAP], b[S2S_CAP];
    static int c[S2S_CAP], o[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(b, n, -1.0f, 1.0f);
        s2s_fill_i32(c, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) { a[i] = 7.0f; o[i] = 3; }
        cascade(n, a, b);
        clamp(n, a);
        int s = total(n, c);
        int p = count_positive(n, c);
        S2S_OUT("a", a, n + S2S_GUARD);
        S2S_OUT("s", &s, 1);
        S2S_OUT("p", &p, 1);
        scale(n, o, c);
        offsets(n, o, c);
        S2S_OUT("o", o, n + S2S_GUARD);
    }
    return 0;
}
