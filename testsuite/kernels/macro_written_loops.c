/* s2s-test: vectorized=10 tolerance=exact cflags="-Wall" */
/* macro_written_loops: simd loops that macros write, `_Pragma` and all
 * (test programs and generic code define a function per type this way).
 * s2svec writes such a use's expansion in its place (one level: the
 * arguments put in, `#` and `##` done, each _Pragma a #pragma line) and
 * vectorizes the loop; before, it warned and kept them scalar.  Here: whole
 * functions per element type (## names, # strings), a statement macro with
 * variadic arguments and a reduction (its pragma made by `_Pragma(#x)`), a macro whose expansion uses another
 * (expanded in a second round), and a lone _Pragma that shares its line
 * with the code before it.  Two uses on one line of a macro that writes a
 * function with two loops, each with an ordered block: the four loops share
 * two locations in diagnostics, and their helpers and labels were named by
 * location (the output did not compile), now by their place in the text
 * parsed. */
#include "harness.h"

#define N_OF(T) ((int)(sizeof(T) * 0 + 1))
#define SIMD _Pragma("omp simd")
#define PRAGMA(x) _Pragma(#x)

#define SCALE_FN(TYPE, NAME, FACTOR)                              \
    static void scale_##NAME(int n, const TYPE *a, TYPE *out)    \
    {                                                             \
        _Pragma("omp simd")                                       \
        for (int i = 0; i < n; i++)                               \
            out[i] = a[i] * (FACTOR) + (TYPE)(sizeof(#NAME) * N_OF(TYPE)); \
    }

SCALE_FN(int, i32, 3)
SCALE_FN(float, f32, 0.5f)

#define SUM_INTO(acc, a, n, ...)                                  \
    PRAGMA(omp simd reduction(+:acc))                             \
    for (int i = 0; i < (n); i++) { acc += a[i] __VA_ARGS__; }

#define CLAMP_AND_SUM(acc, a, n, lo)                              \
    do { SUM_INTO(acc, a, n, > (lo) ? a[i] : (lo)); } while (0)

#define TWICE(out, n) { SIMD for (int i = 0; i < (n); i++) out[i] *= 2; }

#define PREFIX_PAIR(TYPE, NAME)                                   \
    static void NAME(int n, TYPE *x, TYPE *y)                     \
    {                                                             \
        _Pragma("omp simd")                                       \
        for (int i = 1; i < n; i++) {                             \
            x[i] = x[i] * 2;                                      \
            _Pragma("omp ordered simd")                           \
            { y[i] += y[i - 1]; }                                 \
        }                                                         \
        _Pragma("omp simd")                                       \
        for (int i = 1; i < n; i++) {                             \
            x[i] += 1;                                            \
            _Pragma("omp ordered simd")                           \
            { y[i] -= x[i - 1]; }                                 \
        }                                                         \
    }

PREFIX_PAIR(int, pair_i32) PREFIX_PAIR(float, pair_f32)

int kern(int n, const int *a, const float *b, int *o1, float *o2, int *o3)
{
    int s = 0, t = 0;
    scale_i32(n, a, o1);
    scale_f32(n, b, o2);
    SUM_INTO(s, a, n, * 2);
    CLAMP_AND_SUM(t, a, n, -100);
    TWICE(o3, n)
    if (n > 0) { o3[0] += 1; SIMD
        for (int i = 0; i < n; i++) o3[i] += a[i]; }
    return s ^ t;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], o1[S2S_CAP], o3[S2S_CAP];
    static float b[S2S_CAP], o2[S2S_CAP], b2[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_f32(b, n, -100.0f, 100.0f);
        s2s_fill_f32(b2, n, -4.0f, 4.0f);
        for (int i = 0; i < S2S_CAP; i++) { o1[i] = 1; o2[i] = 2.0f; o3[i] = i; }
        int s = kern(n, a, b, o1, o2, o3);
        pair_i32(n, o1, o3);
        pair_f32(n, o2, b2);
        S2S_OUT("s", &s, 1);
        S2S_OUT("o1", o1, n + S2S_GUARD);
        S2S_OUT("o2", o2, n + S2S_GUARD);
        S2S_OUT("o3", o3, n + S2S_GUARD);
        S2S_OUT("b2", b2, n + S2S_GUARD);
    }
    return 0;
}
