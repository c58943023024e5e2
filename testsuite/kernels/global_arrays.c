/* s2s-test: vectorized=1 tolerance=exact */
/* global_arrays: file-scope arrays and a file-scope scalar used directly
 * in the loop (no parameters). */
#include "harness.h"

static float g_in[S2S_CAP], g_out[S2S_CAP];
float g_gain = 1.25f;
int g_n;

void global_loop(void)
{
#pragma omp simd
    for (int i = 0; i < g_n; i++)
        g_out[i] = g_in[i] * g_gain + g_out[i];
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        g_n = n;
        s2s_fill_f32(g_in, n, -1.0, 1.0);
        s2s_fill_f32(g_out, S2S_CAP, -1.0, 1.0);
        global_loop();
        S2S_OUT("out", g_out, n + S2S_GUARD);
    }
    return 0;
}
