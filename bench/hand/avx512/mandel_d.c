/* Hand-written AVX-512 version of bench/kernels/mandel_d.c's mandel_row
 * (AVX-512F/VL intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  8 pixels per vector; all lanes iterate in lockstep, a lane
 * leaves the active mask when |z|^2 > 4, and the loop ends when the mask is
 * empty or after MAX_ITER steps (every active lane has it == step, so the
 * iteration bound is a uniform counter).  The counts are 8 ints (ymm). */
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
    for (int px = 0; px < width; px += 8) {
        int left = width - px;
        __mmask8 valid = left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1);
        __m512d fpx = _mm512_cvtepi32_pd(_mm256_add_epi32(_mm256_set1_epi32(px), lane));
        __m512d cx = _mm512_fmadd_pd(fpx, vdx, vxmin);
        __m512d zx = _mm512_setzero_pd(), zy = _mm512_setzero_pd();
        __m256i it = _mm256_setzero_si256();
        __mmask8 active = valid;
        for (int step = 0; step < MAX_ITER && active; step++) {
            __m512d zx2 = _mm512_mul_pd(zx, zx);
            __m512d zy2 = _mm512_mul_pd(zy, zy);
            active = _mm512_mask_cmp_pd_mask(active, _mm512_add_pd(zx2, zy2), four, _CMP_LE_OQ);
            /* inactive lanes keep iterating (their z may overflow to inf or
             * NaN, which is harmless); only the counter is masked */
            __m512d t = _mm512_add_pd(_mm512_sub_pd(zx2, zy2), cx);
            zy = _mm512_fmadd_pd(_mm512_add_pd(zx, zx), zy, vy0);
            zx = t;
            it = _mm256_mask_add_epi32(it, active, it, one);
        }
        _mm256_mask_storeu_epi32(iters + px, valid, it);
    }
}
