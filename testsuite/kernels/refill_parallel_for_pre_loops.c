/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 args="--refill-ratio 0" cflags="-fopenmp" grep="s2s_chunk" */
/* refill_parallel_for_pre_loops: lane refill of a `parallel for simd` loop
 * (threads share chunks of the loop, each chunk a refill region) whose
 * heaviest divergent loop (a per-lane number of search steps) has loops of
 * its own before it (a divergent digit loop, a uniform one) and after it,
 * with two reductions (a double sum, an integer xor) and inlined calls.
 * --refill-ratio 0 refills it whatever the cost model says. */
#include "harness.h"

static int32_t digits(uint32_t v)
{
    int32_t d = 0;
    do {
        v /= 10u;
        d++;
    } while (v != 0);
    return d;
}

static double search(const double *t, int32_t len, double e)
{
    int32_t lo = 0, hi = len - 1;
    while (hi - lo > 1) {
        int32_t mid = lo + (hi - lo) / 2;
        if (t[mid] > e)
            hi = mid;
        else
            lo = mid;
    }
    return t[lo];
}

double run(int n, const uint32_t *seed, const int32_t *count, const double *table, double *out,
           uint32_t *mix)
{
    double s = 0.0;
    uint32_t x = 0;
#pragma omp parallel for simd reduction(+:s) reduction(^:x)
    for (int i = 0; i < n; i++) {
        int32_t d = digits(seed[i]);
        double acc = 0.0;
        for (int32_t j = 0; j < 4; j++)
            acc += (double)((seed[i] >> (8 * j)) & 255u);
        for (int32_t k = 0; k < count[i]; k++)
            acc += search(table, 64, (double)((seed[i] + 977u * (uint32_t)k) % 1000u) * 0.001);
        for (int32_t j = 0; j < d; j++)
            acc *= 0.5;
        out[i] = acc;
        s += acc;
        x ^= seed[i] * (uint32_t)d;
    }
    *mix = x;
    return s;
}

int main(int argc, char **argv)
{
    static uint32_t seed[S2S_CAP], mix;
    static int32_t count[S2S_CAP];
    static double table[64], out[S2S_CAP];
    (void)argc; (void)argv;
    for (int k = 0; k < 64; k++)
        table[k] = k / 64.0;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_u32(seed, n);
            for (int i = 0; i < n; i++)
                count[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(0, 30) : (int32_t)s2s_int(0, 1);
            s2s_fill_f64(out, S2S_CAP, -1.0, -1.0);
            double r = run(n, s2s_tail(0, seed, n * sizeof seed[0]),
                           s2s_tail(1, count, n * sizeof count[0]), table, out, &mix);
            s2s_out_red("r", r);
            S2S_OUT("mix", &mix, 1);
            S2S_OUT("out", out, n + S2S_GUARD);
        }
    }
    return 0;
}
