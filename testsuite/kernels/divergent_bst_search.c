/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_bst_search: search of a binary search tree stored in arrays
 * (key, left, right; -1 for no child): a while loop with a two-part
 * condition (node exists, key differs) and a per-lane path; the node found
 * (or -1) and the depth are live out. */
#include "harness.h"

#define NODES 255

void bst(int n, const int32_t *key, const int32_t *left, const int32_t *right, int32_t root,
         const int32_t *q, int32_t *node_out, int32_t *depth_out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t node = root, d = 0;
        while (node >= 0) {
            int32_t k = key[node];
            if (k == q[i])
                break;
            node = q[i] < k ? left[node] : right[node];
            d++;
        }
        node_out[i] = node;
        depth_out[i] = d;
    }
}

int main(int argc, char **argv)
{
    static int32_t key[NODES], left[NODES], right[NODES], q[S2S_CAP], node[S2S_CAP], depth[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int nodes = n < NODES ? n + 1 : NODES;
        /* random insertion order: an unbalanced tree with paths of many lengths */
        for (int t = 0; t < nodes; t++) {
            key[t] = (int32_t)s2s_int(0, 100000) * 2;   /* even keys */
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
            for (int i = 0; i < n; i++)   /* present (pattern) or absent (odd) keys */
                q[i] = s2s_pattern(p, i, n) ? key[s2s_int(0, nodes - 1)] : (int32_t)s2s_int(-10, 200010) | 1;
            s2s_fill_i32(node, S2S_CAP, 5, 5);
            s2s_fill_i32(depth, S2S_CAP, 5, 5);
            bst(n, key, left, right, 0, s2s_tail(0, q, n * sizeof q[0]), node, depth);
            S2S_OUT("node", node, n + S2S_GUARD);
            S2S_OUT("depth", depth, n + S2S_GUARD);
        }
    }
    return 0;
}
