/* Hand-written AVX-512 version of bench/kernels/mandel_d.c's mandel_row
 * (AVX-512F/VL intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  Two vectors of 8 pixels per trip (two independent dependency
 * chains hide the latency of the multiply-adds); all lanes iterate in
 * lockstep, a lane leaves its active mask when |z|^2 > 4, and the loop ends
 * when both masks are empty or after MAX_ITER steps (every active lane has
 * it == step, so the iteration bound is a uniform counter).  The counts are
 * 8 ints (ymm). */
#include <immintrin.h>

__attribute__((noinline))
void mandel_row(int width, double y0, double x_min, double dx, int *iters)
{
    const __m512d four = _mm512_set1_pd(4.0);
    const __m512d vy0 = _mm512_set1_pd(y0);
    const __m512d vxmin = _mm512_set1_pd(x_min);
    const __m512d vdx = _mm512_set1_pd(dx);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i one = _mm256_set1_epi32(1);
    for (int px = 0; px < width; px += 16) {
        int left = width - px;
        unsigned valid = left >= 16 ? 0xffffu : (1u << left) - 1;
        __mmask8 valid0 = (__mmask8)valid, valid1 = (__mmask8)(valid >> 8);
        __m512d fpx0 = _mm512_cvtepi32_pd(_mm256_add_epi32(_mm256_set1_epi32(px), lane));
        __m512d fpx1 = _mm512_cvtepi32_pd(_mm256_add_epi32(_mm256_set1_epi32(px + 8), lane));
        __m512d cx0 = _mm512_fmadd_pd(fpx0, vdx, vxmin), cx1 = _mm512_fmadd_pd(fpx1, vdx, vxmin);
        __m512d zx0 = _mm512_setzero_pd(), zy0 = zx0, zx1 = zx0, zy1 = zx0;
        __m256i it0 = _mm256_setzero_si256(), it1 = it0;
        __mmask8 active0 = valid0, active1 = valid1;
        for (int step = 0; step < MAX_ITER && (active0 | active1); step++) {
            __m512d zx20 = _mm512_mul_pd(zx0, zx0), zy20 = _mm512_mul_pd(zy0, zy0);
            __m512d zx21 = _mm512_mul_pd(zx1, zx1), zy21 = _mm512_mul_pd(zy1, zy1);
            active0 = _mm512_mask_cmp_pd_mask(active0, _mm512_add_pd(zx20, zy20), four, _CMP_LE_OQ);
            active1 = _mm512_mask_cmp_pd_mask(active1, _mm512_add_pd(zx21, zy21), four, _CMP_LE_OQ);
            /* inactive lanes keep iterating (their z may overflow to inf or
             * NaN, which is harmless); only the counters are masked */
            __m512d t0 = _mm512_add_pd(_mm512_sub_pd(zx20, zy20), cx0);
            __m512d t1 = _mm512_add_pd(_mm512_sub_pd(zx21, zy21), cx1);
            zy0 = _mm512_fmadd_pd(_mm512_add_pd(zx0, zx0), zy0, vy0);
            zy1 = _mm512_fmadd_pd(_mm512_add_pd(zx1, zx1), zy1, vy0);
            zx0 = t0;
            zx1 = t1;
            it0 = _mm256_mask_add_epi32(it0, active0, it0, one);
            it1 = _mm256_mask_add_epi32(it1, active1, it1, one);
        }
        _mm256_mask_storeu_epi32(iters + px, valid0, it0);
        _mm256_mask_storeu_epi32(iters + px + 8, valid1, it1);
    }
}
