/* Hand-written AVX-512 version of bench/kernels/mandel_f.c's mandel_row
 * (AVX-512F intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  Two vectors of 16 pixels per trip (two independent dependency
 * chains hide the latency of the multiply-adds); all lanes iterate in
 * lockstep, a lane leaves its active mask when |z|^2 > 4, and the loop ends
 * when both masks are empty or after MAX_ITER steps (every active lane has
 * it == step, so the iteration bound is a uniform counter). */
#include <immintrin.h>

__attribute__((noinline))
void mandel_row(int width, float y0, float x_min, float dx, int *iters)
{
    const __m512 four = _mm512_set1_ps(4.0f);
    const __m512 vy0 = _mm512_set1_ps(y0);
    const __m512 vxmin = _mm512_set1_ps(x_min);
    const __m512 vdx = _mm512_set1_ps(dx);
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i one = _mm512_set1_epi32(1);
    for (int px = 0; px < width; px += 32) {
        int left = width - px;
        __mmask32 valid = left >= 32 ? 0xffffffffu : (1u << left) - 1;
        __mmask16 valid0 = (__mmask16)valid, valid1 = (__mmask16)(valid >> 16);
        __m512 fpx0 = _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_set1_epi32(px), lane));
        __m512 fpx1 = _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_set1_epi32(px + 16), lane));
        __m512 cx0 = _mm512_fmadd_ps(fpx0, vdx, vxmin), cx1 = _mm512_fmadd_ps(fpx1, vdx, vxmin);
        __m512 zx0 = _mm512_setzero_ps(), zy0 = zx0, zx1 = zx0, zy1 = zx0;
        __m512i it0 = _mm512_setzero_si512(), it1 = it0;
        __mmask16 active0 = valid0, active1 = valid1;
        for (int step = 0; step < MAX_ITER && (active0 | active1); step++) {
            __m512 zx20 = _mm512_mul_ps(zx0, zx0), zy20 = _mm512_mul_ps(zy0, zy0);
            __m512 zx21 = _mm512_mul_ps(zx1, zx1), zy21 = _mm512_mul_ps(zy1, zy1);
            active0 = _mm512_mask_cmp_ps_mask(active0, _mm512_add_ps(zx20, zy20), four, _CMP_LE_OQ);
            active1 = _mm512_mask_cmp_ps_mask(active1, _mm512_add_ps(zx21, zy21), four, _CMP_LE_OQ);
            /* inactive lanes keep iterating (their z may overflow to inf or
             * NaN, which is harmless); only the counters are masked */
            __m512 t0 = _mm512_add_ps(_mm512_sub_ps(zx20, zy20), cx0);
            __m512 t1 = _mm512_add_ps(_mm512_sub_ps(zx21, zy21), cx1);
            zy0 = _mm512_fmadd_ps(_mm512_add_ps(zx0, zx0), zy0, vy0);
            zy1 = _mm512_fmadd_ps(_mm512_add_ps(zx1, zx1), zy1, vy0);
            zx0 = t0;
            zx1 = t1;
            it0 = _mm512_mask_add_epi32(it0, active0, it0, one);
            it1 = _mm512_mask_add_epi32(it1, active1, it1, one);
        }
        _mm512_mask_storeu_epi32(iters + px, valid0, it0);
        _mm512_mask_storeu_epi32(iters + px + 16, valid1, it1);
    }
}
