/* s2s-test: vectorized=2 tolerance=exact cflags="-fopenmp" scalar_in="clang*" */
/* lastprivate_conditional_worksharing: lastprivate(conditional:) on
 * 'parallel for simd' and on 'for simd' in a parallel region, 4 threads.
 * The variables end with the value of the last iteration that assigned
 * them, whichever thread ran it, and keep their value where none did.  The
 * vector branches exclude clang (scalar_in): clang 19 with its own OpenMP
 * runtime (libomp) loses these values in the vector code's loop over
 * blocks (the OpenMP validation suite's test of the clause found it; an
 * assignment in an inner loop of plain OpenMP code shows it), and a branch
 * cannot tell the runtime; clang builds run the original loop (here with
 * gcc's runtime, which the suite gives clang). */
#include "harness.h"

int kern(int n, const int *a, int *o, long *y_out)
{
    int x = -1;
#pragma omp parallel for simd lastprivate(conditional: x) num_threads(4)
    for (int i = 0; i < n; i++) {
        o[i] = a[i] + 1;
        if (i == n / 5 || a[i] > 995)  /* rare, early: the clang 19 bug shows */
            x = i * 2 + 1;
    }
    long y = 3;
#pragma omp parallel num_threads(4)
    {
#pragma omp for simd lastprivate(conditional: y)
        for (int i = 0; i < n; i++)
            if (i == 17 || (a[i] & 255) == 3)
                y = (long)a[i] * i;
    }
    *y_out = y;
    return x;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], o[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) o[i] = 9;
        long y = 0;
        int x = kern(n, a, o, &y);
        S2S_OUT("x", &x, 1);
        S2S_OUT("y", &y, 1);
        S2S_OUT("o", o, n + S2S_GUARD);
    }
    return 0;
}
