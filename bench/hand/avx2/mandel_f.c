/* Hand-written AVX2 version of bench/kernels/mandel_f.c's mandel_row (AVX2
 * and FMA intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  Two vectors of 8 pixels per trip (two independent dependency
 * chains); all lanes iterate in lockstep.  Without mask registers the active
 * mask is a vector of all-ones lanes: a lane leaves it when |z|^2 > 4, the
 * count steps by subtracting the mask (-1 per active lane), and the loop ends
 * when both masks are empty (movemask) or after MAX_ITER steps. */
#include <immintrin.h>

__attribute__((noinline))
void mandel_row(int width, float y0, float x_min, float dx, int *iters)
{
    const __m256 four = _mm256_set1_ps(4.0f);
    const __m256 vy0 = _mm256_set1_ps(y0);
    const __m256 vxmin = _mm256_set1_ps(x_min);
    const __m256 vdx = _mm256_set1_ps(dx);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int px = 0; px < width; px += 16) {
        __m256i idx0 = _mm256_add_epi32(_mm256_set1_epi32(px), lane);
        __m256i idx1 = _mm256_add_epi32(_mm256_set1_epi32(px + 8), lane);
        __m256i valid0 = _mm256_cmpgt_epi32(_mm256_set1_epi32(width), idx0);
        __m256i valid1 = _mm256_cmpgt_epi32(_mm256_set1_epi32(width), idx1);
        __m256 cx0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(idx0), vdx, vxmin);
        __m256 cx1 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(idx1), vdx, vxmin);
        __m256 zx0 = _mm256_setzero_ps(), zy0 = zx0, zx1 = zx0, zy1 = zx0;
        __m256i it0 = _mm256_setzero_si256(), it1 = it0;
        __m256 active0 = _mm256_castsi256_ps(valid0), active1 = _mm256_castsi256_ps(valid1);
        for (int step = 0; step < MAX_ITER; step++) {
            __m256 zx20 = _mm256_mul_ps(zx0, zx0), zy20 = _mm256_mul_ps(zy0, zy0);
            __m256 zx21 = _mm256_mul_ps(zx1, zx1), zy21 = _mm256_mul_ps(zy1, zy1);
            active0 = _mm256_and_ps(active0, _mm256_cmp_ps(_mm256_add_ps(zx20, zy20), four,
                                                           _CMP_LE_OQ));
            active1 = _mm256_and_ps(active1, _mm256_cmp_ps(_mm256_add_ps(zx21, zy21), four,
                                                           _CMP_LE_OQ));
            if (_mm256_movemask_ps(_mm256_or_ps(active0, active1)) == 0)
                break;
            /* inactive lanes keep iterating (their z may overflow to inf or
             * NaN, which is harmless); only the counters are masked */
            __m256 t0 = _mm256_add_ps(_mm256_sub_ps(zx20, zy20), cx0);
            __m256 t1 = _mm256_add_ps(_mm256_sub_ps(zx21, zy21), cx1);
            zy0 = _mm256_fmadd_ps(_mm256_add_ps(zx0, zx0), zy0, vy0);
            zy1 = _mm256_fmadd_ps(_mm256_add_ps(zx1, zx1), zy1, vy0);
            zx0 = t0;
            zx1 = t1;
            it0 = _mm256_sub_epi32(it0, _mm256_castps_si256(active0));
            it1 = _mm256_sub_epi32(it1, _mm256_castps_si256(active1));
        }
        _mm256_maskstore_epi32(iters + px, valid0, it0);
        _mm256_maskstore_epi32(iters + px + 8, valid1, it1);
    }
}
