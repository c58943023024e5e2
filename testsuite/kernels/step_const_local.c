/* s2s-test: vectorized=2 tolerance=exact */
/* step_const_local: the step is a local constant (`const int step = 2;`,
 * `i = i + step`), which the loop form folds to 2, and a run-time step
 * read from a local (`i -= down`).  The vector code has the constant, so it
 * reads no `step` where the scalar loop did: found by the program
 * generator (seed 10 of the run-time step feature) as "unused variable
 * 'step'" under -Wall, since the branch built has no other read of it. */
#include "harness.h"

void scale_every_other(int n, float *a)
{
    const int step = 2;
#pragma omp simd
    for (int i = 0; i < n; i = i + step)
        a[i] = a[i] * 3.0f + (float)i;
}

void fill_down(int n, int down, int *b)
{
#pragma omp simd
    for (int i = n - 1; i >= 0; i -= down)
        b[i] = i * 7 - down;
}

int main(int argc, char **argv)
{
    static float a[S2S_CAP];
    static int b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(a, S2S_CAP, -2.0f, 2.0f);
        scale_every_other(n, a);
        S2S_OUT("a", a, n + S2S_GUARD);
        for (int down = 1; down <= 3; down++) {
            s2s_fill_i32(b, S2S_CAP, -5, -5);
            fill_down(n, down, b);
            S2S_OUT("b", b, n + S2S_GUARD);
        }
    }
    return 0;
}
