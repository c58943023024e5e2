/* s2s-test: vectorized=1 tolerance=exact args="--refill-ratio 0" grep="__builtin_popcount" */
/* refill_deferred_starts: lane refill where starting an iteration weighs
 * more than a trip of the divergent loop -- the start steps a 64-bit
 * generator to the iteration (a loop over the bits of i, as xsproxy's
 * rng_skip), the loop is a short search per step -- so lanes whose
 * iteration ended wait until a quarter of the vector is ready (or no lane
 * is left in the loop) before they start their next ones.  The trip counts
 * (count[i]) end lanes one or two at a time. */
#include "harness.h"

static uint64_t skip(uint64_t state, uint64_t n)
{
    uint64_t mul = 1, add = 0, step_mul = 6364136223846793005ULL, step_add = 1442695040888963407ULL;
    while (n > 0) {
        if (n & 1) {
            mul *= step_mul;
            add = add * step_mul + step_add;
        }
        step_add *= step_mul + 1;
        step_mul *= step_mul;
        n >>= 1;
    }
    return mul * state + add;
}

void run(int n, uint64_t seed, const int32_t *count, const int32_t *table, uint64_t *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint64_t state = skip(seed, (uint64_t)i * 3u);
        uint64_t h = 0;
        for (int32_t k = 0; k < count[i]; k++) {
            int32_t key = (int32_t)((state >> (8 * (k & 3))) & 1023u);
            int32_t lo = 0, hi = 31;
            while (hi - lo > 1) {
                int32_t mid = lo + (hi - lo) / 2;
                if (table[mid] > key)
                    hi = mid;
                else
                    lo = mid;
            }
            h = h * 31u + (uint64_t)lo;
        }
        out[i] = h ^ state;
    }
}

int main(int argc, char **argv)
{
    static int32_t count[S2S_CAP], table[32];
    static uint64_t out[S2S_CAP];
    (void)argc; (void)argv;
    for (int k = 0; k < 32; k++)
        table[k] = k * 33;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                count[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(0, 12) : (int32_t)s2s_int(0, 2);
            s2s_fill_u64(out, S2S_CAP);
            run(n, 0x9e3779b97f4a7c15ULL + (uint64_t)p, s2s_tail(1, count, n * sizeof count[0]),
                table, out);
            S2S_OUT("out", out, n + S2S_GUARD);
        }
    }
    return 0;
}
