/* Hand-written AVX-512 version of bench/kernels/mandel_f.c's mandel_row
 * (AVX-512F intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  16 pixels per vector; all lanes iterate in lockstep, a lane
 * leaves the active mask when |z|^2 > 4, and the loop ends when the mask is
 * empty or after MAX_ITER steps (every active lane has it == step, so the
 * iteration bound is a uniform counter). */
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
    for (int px = 0; px < width; px += 16) {
        int left = width - px;
        __mmask16 valid = left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1);
        __m512 fpx = _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_set1_epi32(px), lane));
        __m512 cx = _mm512_fmadd_ps(fpx, vdx, vxmin);
        __m512 zx = _mm512_setzero_ps(), zy = _mm512_setzero_ps();
        __m512i it = _mm512_setzero_si512();
        __mmask16 active = valid;
        for (int step = 0; step < MAX_ITER && active; step++) {
            __m512 zx2 = _mm512_mul_ps(zx, zx);
            __m512 zy2 = _mm512_mul_ps(zy, zy);
            active = _mm512_mask_cmp_ps_mask(active, _mm512_add_ps(zx2, zy2), four, _CMP_LE_OQ);
            /* inactive lanes keep iterating (their z may overflow to inf or
             * NaN, which is harmless); only the counter is masked */
            __m512 t = _mm512_add_ps(_mm512_sub_ps(zx2, zy2), cx);
            zy = _mm512_fmadd_ps(_mm512_add_ps(zx, zx), zy, vy0);
            zx = t;
            it = _mm512_mask_add_epi32(it, active, it, one);
        }
        _mm512_mask_storeu_epi32(iters + px, valid, it);
    }
}
