/* s2s-test: vectorized=1 tolerance=exact */
/* atomic_read_write_capture: the other forms of `#pragma omp atomic` in a
 * simd loop, with memory-order clauses: `read` of a shared table, `write`
 * of a shared last index (the last active lane wins, as the last
 * iteration does), `capture` of the old value in a block ({v = x; x op=
 * e;}), of the new value ({x op= e; v = x;}, v = ++x on int16 counters
 * that wrap, v = x *= e), and a swap ({v = x; x = e;}) under a divergent branch. */
#include "harness.h"

#define SLOTS 4

void forms(int n, const int32_t *key, const float *f, const int32_t *rtab, uint32_t *table,
           float *acc, int64_t *chain, int64_t *swap, int32_t *got, float *seen, int64_t *prev, int16_t *ticket,
           int16_t *tick, int32_t *last)
{
    int32_t where = -1;
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int k = key[i] & (SLOTS - 1);
        int32_t t;
        uint32_t u;
#pragma omp atomic read seq_cst
        t = rtab[k];
        got[i] = t;
        if (key[i] > 0) {
#pragma omp atomic write
            where = i;
#pragma omp atomic capture
            { seen[i] = acc[k]; acc[k] += f[i]; }
#pragma omp atomic capture acq_rel
            { chain[k] ^= (int64_t)i << 20; prev[i] = chain[k]; }
        } else {
#pragma omp atomic capture hint(0)
            { prev[i] = swap[k]; swap[k] = i; }
#pragma omp atomic capture relaxed
            tick[i] = ++ticket[k];
        }
#pragma omp atomic capture
        u = table[k] *= 3u;
        got[i] += (int32_t)(u & 0xffffu);
    }
    *last = where;
}

int main(int argc, char **argv)
{
    static int32_t key[S2S_CAP], got[S2S_CAP];
    static uint32_t table[SLOTS];
    static float f[S2S_CAP], seen[S2S_CAP], acc[SLOTS];
    static int64_t chain[SLOTS], swap[SLOTS], prev[S2S_CAP];
    static const int32_t rtab[SLOTS] = {7, -7, 70, -70};
    static int16_t ticket[SLOTS], tick[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                key[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 100) : -(int32_t)s2s_int(0, 100);
                f[i] = (float)s2s_int(-64, 64) * 0.25f;
            }
            for (int s = 0; s < SLOTS; s++) {
                table[s] = (uint32_t)s + 1u;
                acc[s] = (float)s;
                chain[s] = 100 + s;
                swap[s] = -100 - s;
            }
            s2s_fill_i32(got, S2S_CAP, -1, -1);
            s2s_fill_f32(seen, S2S_CAP, -1.0, -1.0);
            s2s_fill_i64(prev, S2S_CAP, -1, -1);
            s2s_fill_i16(ticket, SLOTS, 32760, 32767);   /* wraps */
            s2s_fill_i16(tick, S2S_CAP, -1, -1);
            int32_t last = -2;
            forms(n, s2s_tail(0, key, n * sizeof key[0]), s2s_tail(1, f, n * sizeof f[0]), rtab,
                  table, acc, chain, swap, got, seen, prev, ticket, tick, &last);
            s2s_out_i64("last", last);
            S2S_OUT("table", table, SLOTS);
            S2S_OUT("acc", acc, SLOTS);
            S2S_OUT("chain", chain, SLOTS);
            S2S_OUT("swap", swap, SLOTS);
            S2S_OUT("got", got, n + S2S_GUARD);
            S2S_OUT("seen", seen, n + S2S_GUARD);
            S2S_OUT("prev", prev, n + S2S_GUARD);
            S2S_OUT("ticket", ticket, SLOTS);
            S2S_OUT("tick", tick, n + S2S_GUARD);
        }
    }
    return 0;
}
