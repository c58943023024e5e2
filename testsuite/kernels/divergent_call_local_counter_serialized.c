/* s2s-test: vectorized=1 tolerance=exact report="calls.inlined=0 calls.serialized=3" */
/* divergent_call_local_counter_serialized: an address-taken local: each
 * iteration passes the address of its own counter (a local of the loop
 * body) to a function with no vector variant whose address is taken (its
 * calls run lane by lane), called under divergent conditions in two
 * places; the local is read back after the calls. */
#include "harness.h"

double step(double v, int32_t *count)
{
    (*count)++;
    return v * 0.5 + 1.0;
}

double (*const step_pointer)(double, int32_t *) = step;

void run(int n, const double *x, double *y, int32_t *cnt)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t c = 0;
        double v = x[i];
        if (v > 10.0)
            v = step(v, &c);
        if (v > 5.0) {
            if (c == 0)
                v = step(v, &c) + step(v, &c);
        }
        y[i] = v;
        cnt[i] = c;
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int32_t cnt[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? s2s_f64(5.0, 30.0) : s2s_f64(-5.0, 5.0);
            s2s_fill_f64(y, S2S_CAP, 2.0, 2.0);
            s2s_fill_i32(cnt, S2S_CAP, -1, -1);
            run(n, s2s_tail(0, x, n * sizeof x[0]), y, cnt);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("cnt", cnt, n + S2S_GUARD);
        }
    }
    return 0;
}
