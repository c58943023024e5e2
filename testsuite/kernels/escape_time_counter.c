/* s2s-test: vectorized=2 tolerance=exact grep="_mm256_sub_epi64\(s2s_avx2_\w+_it_lane" */
/* escape_time_counter: escape-time loops whose uniform counter is read by
 * the loop's own test (it < MAX) and live out of it.  The test stays
 * uniform; a per-lane copy of the counter takes the live-out (transform/
 * divergent_loops.py), counted on AVX2 and NEON in the masks' 64-bit lanes
 * and stepped by subtracting the live mask (codegen/promote_counters.py);
 * the short uniform arm of 'it < MAX && ...' becomes a select
 * (transform/speculate.py).  A counter stepping by 3 and one counting down
 * from a run-time start, read after the loop in int and short. */
#include "harness.h"

#define MAX_IT 60

void escape(int n, const double *c, int *iters)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double z = 0.0, w = 0.0;
        int it = 0;
        while (it < MAX_IT && z * z + w * w <= 4.0) {
            double t = z * z - w * w + c[i];
            w = 2.0 * z * w + 0.25;
            z = t;
            it++;
        }
        iters[i] = it * 2 + 1;
    }
}

void steps(int n, int start, const double *c, int *iters, short *down)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double z = c[i];
        int it = 0;
        short k = (short)start;
        while (it < 3 * MAX_IT && z < 1000.0) {
            z = z * 1.5 + 0.5;
            it += 3;
            k--;
        }
        iters[i] = it;
        down[i] = k;
    }
}

int main(int argc, char **argv)
{
    static double c[S2S_CAP];
    static int iters[S2S_CAP];
    static short down[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(c, n, -2.0, 1.0);
        for (int i = 0; i < S2S_CAP; i++) { iters[i] = -1; down[i] = -1; }
        escape(n, c, iters);
        S2S_OUT("escape", iters, n + S2S_GUARD);
        steps(n, n + 7, c, iters, down);
        S2S_OUT("steps", iters, n + S2S_GUARD);
        S2S_OUT("down", down, n + S2S_GUARD);
    }
    return 0;
}
