/* s2s-test: vectorized=1 tolerance=exact scalar_in="*-avx2only" */
/* isa_macro_constant: a constant chosen by the ISA macros the compiler
 * predefines; the AVX-512 and AVX2 variants must each use their own value
 * (the targets cannot share one parse of the file).  The output subtracts
 * the STEP main sees, so it is the same for every build flag: the reference
 * is built once per ABI.  The AVX2 code comes from the file read without
 * __AVX512F__, so it is not compiled where __AVX512F__ is defined: builds
 * of the --target avx2 output under AVX-512 flags run the scalar loop
 * (scalar_in). */
#include "harness.h"

#if defined(__AVX512F__)
#define STEP 3
#elif defined(__AVX2__)
#define STEP 5
#else
#define STEP 7
#endif

void step(int n, const int *x, int *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = x[i] + STEP;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(x, n, -1000, 1000);
        s2s_fill_i32(y, S2S_CAP, 0, 0);
        step(n, s2s_tail(0, x, n * sizeof x[0]), y);
        for (int i = 0; i < n; i++)
            y[i] -= STEP;
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
