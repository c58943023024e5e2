/* What a 16-lane AVX-512 gather and scatter of 32-bit values from L1 cost,
 * with 16, 8, 4, 2, 1 and 0 lanes active (bench/RESULTS.md, seventh run:
 * why kdtree is level with the scalar loop).  Independent operations, so
 * the figure is throughput; thread CPU time per operation.
 *   mkdir -p bench/.build
 *   gcc -O2 -march=native bench/micro/gather_scatter_cost.c -o bench/.build/gsc && bench/.build/gsc */
#define _POSIX_C_SOURCE 200112L
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static int table[1 << 16] __attribute__((aligned(64)));

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static __m512i spread(void)
{
    return _mm512_setr_epi32(0, 17, 34, 51, 68, 85, 102, 119, 136, 153, 170, 187, 204, 221,
                             238, 255);
}

__attribute__((noinline)) static double gather_ns(__mmask16 m, long n)
{
    __m512i idx = spread(), acc = _mm512_setzero_si512();
    double t0 = seconds();
    for (long i = 0; i < n; i++) {
        acc = _mm512_add_epi32(acc, _mm512_mask_i32gather_epi32(idx, m, idx, table, 4));
        idx = _mm512_xor_si512(idx, _mm512_set1_epi32((int)(i & 1)));
    }
    double t = seconds() - t0;
    table[7] += _mm512_reduce_add_epi32(acc);   /* keep the gathers */
    return t / (double)n * 1e9;
}

__attribute__((noinline)) static double scatter_ns(__mmask16 m, long n)
{
    __m512i idx = spread(), val = _mm512_setzero_si512();
    double t0 = seconds();
    for (long i = 0; i < n; i++) {
        _mm512_mask_i32scatter_epi32(table, m, idx, val, 4);
        idx = _mm512_xor_si512(idx, _mm512_set1_epi32((int)(i & 1)));
        val = _mm512_add_epi32(val, idx);
    }
    return (seconds() - t0) / (double)n * 1e9;
}

int main(void)
{
    const unsigned masks[] = {0xFFFF, 0xFF, 0xF, 0x3, 0x1, 0x0};
    for (int k = 0; k < 6; k++)
        printf("lanes mask %04x: gather %.2f ns, scatter %.2f ns\n", masks[k],
               gather_ns((__mmask16)masks[k], 10000000), scatter_ns((__mmask16)masks[k], 10000000));
    return 0;
}
