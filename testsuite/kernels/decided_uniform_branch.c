/* s2s-test: vectorized=2 tolerance=exact */
/* decided_uniform_branch: a uniform branch on a comparison that its type
 * decides (a value against itself).  The comparison is written as its value
 * and reads no operand, so the operand gets no code; the loop stayed scalar
 * with "a value is used before its definition" (program generator, seed
 * 693985010). */
#include "harness.h"

void self_compare(int n, unsigned char u, const unsigned char *in, unsigned char *out)
{
#pragma omp simd simdlen(4)
    for (int k = 0; k < n; ++k) {
        unsigned char t = (in[k] <= 2 || in[k + 1] == 1) ? 3 : 4;
        if (u != (((u & 7) != 0) ? u : u))
            out[k] = 1;
        out[k] = (unsigned char)(out[k] + t);
    }
}

void self_compare_taken(int n, int u, const int *in, int *out)
{
#pragma omp simd
    for (int k = 0; k < n; ++k) {
        int t = in[k] > 0 ? in[k] : -in[k];
        if (u + 1 == u + 1)
            t = t * 3;
        out[k] = t;
    }
}

int main(int argc, char **argv)
{
    static unsigned char in[S2S_CAP + 1], out[S2S_CAP];
    static int ini[S2S_CAP], outi[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n + 1; i++)
            in[i] = (unsigned char)(s2s_u32() % 6);
        s2s_fill_i32(ini, n, -50, 50);
        for (int i = 0; i < S2S_CAP; i++)
            out[i] = (unsigned char)i;
        self_compare(n, (unsigned char)(n % 9), in, out);
        S2S_OUT("self_compare", out, n + S2S_GUARD);
        s2s_fill_i32(outi, S2S_CAP, 7, 9);
        self_compare_taken(n, n, ini, outi);
        S2S_OUT("self_compare_taken", outi, n + S2S_GUARD);
    }
    return 0;
}
