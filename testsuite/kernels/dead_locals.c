/* s2s-test: vectorized=3 tolerance=exact */
/* dead_locals: locals whose values are never used, computed with &&, ||,
 * ?:, a divergent if and an inner loop.  Dead code must not matter: these
 * loops stayed scalar with "value <Cmp ...> used before its definition"
 * (the widener prepared the phis of dead values). */
#include "harness.h"

void logical(int n, const int *b, int *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int v = b[i] && b[i + 1];
        int w = b[i] || b[i + 1] > 3;
        int z = b[i] ? b[i + 1] : 3;
        out[i] = b[i] * 2 + 1;
    }
}

void guarded(int n, const int *b, int *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int t = 0;
        if (b[i] > 0)
            t = b[i + 1] / (b[i] | 1);
        int u = (b[i] < 0 && b[i + 1] < 0) ? t : -t;
        out[i] = b[i] - 5;
    }
}

void inner(int n, int m, const int *b, int *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int acc = 0;
        for (int k = 0; k < m; k++)
            acc += b[i] * k;
        long long s = b[i] != 0 ? (long long)b[i + 1] * b[i] : 0;
        out[i] = b[i] ^ 0x55;
    }
}

int main(int argc, char **argv)
{
    static int b[S2S_CAP + 1], out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(b, n + 1, -3, 3);
        const int *bt = s2s_tail(0, b, (n + 1) * sizeof b[0]);
        s2s_fill_i32(out, S2S_CAP, 7, 9);
        logical(n, bt, out);
        S2S_OUT("logical", out, n + S2S_GUARD);
        s2s_fill_i32(out, S2S_CAP, 7, 9);
        guarded(n, bt, out);
        S2S_OUT("guarded", out, n + S2S_GUARD);
        s2s_fill_i32(out, S2S_CAP, 7, 9);
        inner(n, n % 5, bt, out);
        S2S_OUT("inner", out, n + S2S_GUARD);
    }
    return 0;
}
