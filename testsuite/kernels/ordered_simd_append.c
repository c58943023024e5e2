/* s2s-test: vectorized=1 tolerance=exact report="calls.serialized=1" */
/* ordered_simd_append: a `#pragma omp ordered simd` block under a divergent
 * branch appends the selected values to a shared array through a shared
 * counter and a global, and hands each iteration its slot back: the block
 * runs lane by lane in iteration order with that lane's values (outlined
 * into a helper of the output), the rest of the loop is vectorized.  The
 * order of the appended values is the sequential one. */
#include "harness.h"

long long appended;

int compact(int n, const double *x, const int32_t *keep, double *out, int32_t *slot,
            double *twice)
{
    int count = 0;
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double y = x[i] * 3.0 - 1.0;
        int32_t s = -1;
        if (keep[i]) {
#pragma omp ordered simd
            {
                s = count;
                out[count++] = y + (double)i;
                appended += i;
            }
        }
        slot[i] = s;
        twice[i] = y * 2.0;
    }
    return count;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], out[S2S_CAP], twice[S2S_CAP];
    static int32_t keep[S2S_CAP], slot[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                keep[i] = s2s_pattern(p, i, n);
                x[i] = (double)s2s_int(-4000, 4000) / 32.0;
            }
            s2s_fill_f64(out, S2S_CAP, -1.0, -1.0);
            s2s_fill_f64(twice, S2S_CAP, -1.0, -1.0);
            s2s_fill_i32(slot, S2S_CAP, -9, -9);
            appended = 5;
            int count = compact(n, s2s_tail(0, x, n * sizeof x[0]),
                                s2s_tail(1, keep, n * sizeof keep[0]), out, slot, twice);
            s2s_out_i64("count", count);
            s2s_out_i64("appended", appended);
            S2S_OUT("out", out, n + S2S_GUARD);
            S2S_OUT("slot", slot, n + S2S_GUARD);
            S2S_OUT("twice", twice, n + S2S_GUARD);
        }
    }
    return 0;
}
