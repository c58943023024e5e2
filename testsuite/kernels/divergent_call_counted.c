/* s2s-test: vectorized=1 tolerance=exact report="calls.inlined=2 calls.serialized=0" */
/* divergent_call_counted: a function with no vector variant (defined in
 * this file, so its calls are inlined, the stores under the masks of their
 * divergent conditions) that counts its
 * calls through the pointer it is given, called only under a divergent
 * condition: each iteration has its own counter (race-free), so the
 * counts show exactly which lanes called it, and how often (a second call
 * sits in a divergent loop).  64-bit values and counters: with 32-bit
 * ones the varying pointer argument has no vector type at the chosen width
 * (a separate limitation). */
#include "harness.h"

int64_t probe(int64_t v, int64_t *calls)
{
    *calls += 1;
    return v * 7 - 3;
}

void run(int n, const int64_t *x, int64_t *y, int64_t *calls)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int64_t v = x[i];
        if (v > 0)
            v = probe(v, &calls[i]);
        int64_t k = v & 3;
        while (k > 0 && v < 1000000) {
            v = probe(v, &calls[i]) + k;
            k--;
        }
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    static int64_t x[S2S_CAP], y[S2S_CAP], calls[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? s2s_int(1, 10000) : -s2s_int(0, 10000);
            s2s_fill_i64(y, S2S_CAP, 2, 2);
            s2s_fill_i64(calls, S2S_CAP, 0, 0);
            run(n, s2s_tail(0, x, n * sizeof x[0]), y, calls);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("calls", calls, n + S2S_GUARD);
        }
    }
    return 0;
}
