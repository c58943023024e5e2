/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_tree_stack_i32: range counting in a binary search tree stored in
 * arrays with an explicit per-lane stack (a local array indexed by a
 * per-lane stack pointer): depth-first, only subtrees that can hold keys
 * in [lo, hi] are pushed, so the number of trips and the stack depth
 * differ per lane.  Count, key sum and the deepest stack are live out.
 * All 32-bit: the stack is interleaved (per-lane-storage) and pushed and
 * popped with 32-bit-index scatters and gathers at full width. */
#include "harness.h"

#define NODES 127

void range_count(int n, const int32_t *key, const int32_t *left, const int32_t *right,
                 const int32_t *lo, const int32_t *hi, int32_t *count, int32_t *sum, int32_t *deep)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t stack[NODES + 1];
        int32_t sp = 0, c = 0, dmax = 0;
        int32_t s = 0;
        stack[sp++] = 0;
        while (sp > 0) {
            int32_t node = stack[--sp];
            int32_t k = key[node];
            if (k >= lo[i] && k <= hi[i]) {
                c++;
                s += k;
            }
            if (left[node] >= 0 && k > lo[i])
                stack[sp++] = left[node];
            if (right[node] >= 0 && k < hi[i])
                stack[sp++] = right[node];
            if (sp > dmax)
                dmax = sp;
        }
        count[i] = c;
        sum[i] = s;
        deep[i] = dmax;
    }
}

int main(int argc, char **argv)
{
    static int32_t key[NODES], left[NODES], right[NODES];
    static int32_t lo[S2S_CAP], hi[S2S_CAP], count[S2S_CAP], deep[S2S_CAP];
    static int32_t sum[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int t = 0; t < NODES; t++) {
            key[t] = (int32_t)s2s_int(0, 10000);
            left[t] = right[t] = -1;
            if (t == 0) continue;
            int32_t c = 0;
            for (;;) {
                int32_t *next = key[t] < key[c] ? &left[c] : &right[c];
                if (*next < 0) { *next = t; break; }
                c = *next;
            }
        }
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                if (s2s_pattern(p, i, n)) {          /* wide ranges: much of the tree */
                    lo[i] = (int32_t)s2s_int(-100, 3000);
                    hi[i] = lo[i] + (int32_t)s2s_int(2000, 8000);
                } else {                             /* narrow or empty ranges */
                    lo[i] = (int32_t)s2s_int(0, 10000);
                    hi[i] = lo[i] + (int32_t)s2s_int(-5, 50);
                }
            }
            s2s_fill_i32(count, S2S_CAP, -1, -1);
            s2s_fill_i32(sum, S2S_CAP, -1, -1);
            s2s_fill_i32(deep, S2S_CAP, -1, -1);
            range_count(n, key, left, right, s2s_tail(0, lo, n * sizeof lo[0]),
                        s2s_tail(1, hi, n * sizeof hi[0]), count, sum, deep);
            S2S_OUT("count", count, n + S2S_GUARD);
            S2S_OUT("sum", sum, n + S2S_GUARD);
            S2S_OUT("deep", deep, n + S2S_GUARD);
        }
    }
    return 0;
}
