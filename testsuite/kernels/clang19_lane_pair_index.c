/* s2s-test: vectorized=1 tolerance=exact scalable_vectorized=0 */
/* clang19_lane_pair_index: a loop of 2 lanes (safelen(2)) of 32-bit ints
 * reads in[k * 2] and, in a function s2svec inlines, p[k]: gathers of a
 * 2-lane index register, done lane by lane.  The per-lane code stores the
 * register (8 bytes) to an array and reads the two indices back; clang-19
 * -O2 made that one 64-bit move out of the register and then used all 64
 * bits (lane 1 in the upper half) as lane 0's index: a crash at run time
 * (an x86 back-end miscompile, reduced in
 * testsuite/fuzz/compiler_bugs/clang19_lane_pair_index/; found as program
 * generator seed 20607491).  The x86 templates now store a register of two
 * 32-bit integer lanes with two 32-bit stores. */
#include "harness.h"

static int32_t mix(const int32_t *p, int32_t s, int32_t i, int32_t x)
{
    int32_t r = (int32_t)(p[i] ^ x);
    if ((s & 5) != 0) {
        r = (int32_t)(r ^ i);
    } else {
        r = (int32_t)((uint32_t)i * (uint32_t)r);
    }
    int c = i & 7;
    while (c > 0) {
        r = (int32_t)((uint32_t)r - (uint32_t)x);
        c--;
    }
    return r;
}

void pairs(int n, const int32_t *in, float *out)
{
    const unsigned char hi = (unsigned char)(n < 60 ? n : 60);
#pragma omp simd safelen(2)
    for (unsigned char i = 0; i != hi; i = i + 1) {
        const int k = (int)i;
        int32_t t = mix(in, 1866167004, k, in[k * 2]);
        out[k] = (float)t + (float)k;
    }
}

int main(int argc, char **argv)
{
    static int32_t in[2 * S2S_CAP];
    static float out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int m = n < 60 ? n : 60;
        int e = m > 0 ? 2 * m - 1 : 0;
        s2s_fill_i32(in, e, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++)
            out[i] = -1.0f;
        pairs(n, s2s_tail(0, in, (size_t)e * sizeof in[0]), out);
        S2S_OUT("out", out, n);
    }
    return 0;
}
