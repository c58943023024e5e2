/* s2s-test: vectorized=3 tolerance=exact */
/* runtime_step_global: run-time loop steps read from a global, a volatile
 * global (gcc's libgomp simd tests write `volatile int step` so the
 * compiler cannot fold it) and a static local.  OpenMP makes the program
 * keep the step invariant through the loop, so s2svec may evaluate it
 * wherever the vector code needs it; it kept such loops scalar ("only
 * local variables ... are taken").  Sizes and signs vary at run time. */
#include "harness.h"

int g_step;
volatile int v_step;

int kern(int n, const int *a, int *o1, int *o2, int *o3)
{
    static int s_step;
    s_step = 1 + (n & 1);
    int i;
#pragma omp simd
    for (i = 0; i < n; i += g_step)
        o1[i] = a[i] * 2;
    int last = i;
#pragma omp simd
    for (int j = n - 1; j >= 0; j -= v_step)
        o2[j] = a[j] - j;
#pragma omp simd
    for (int k = 0; k < n; k += s_step)
        o3[k] = a[k] > 0 ? a[k] : -k;
    return last;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], o1[S2S_CAP], o2[S2S_CAP], o3[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) { o1[i] = 1; o2[i] = 2; o3[i] = 3; }
        g_step = 1 + n % 3;
        v_step = 1 + n % 4;
        int last = kern(n, a, o1, o2, o3);
        S2S_OUT("last", &last, 1);
        S2S_OUT("o1", o1, n + S2S_GUARD);
        S2S_OUT("o2", o2, n + S2S_GUARD);
        S2S_OUT("o3", o3, n + S2S_GUARD);
    }
    return 0;
}
