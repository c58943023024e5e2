/* Hand-written AVX2 version of bench/kernels/mandel_d.c's mandel_row (AVX2
 * and FMA intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  Two vectors of 4 pixels per trip (two independent dependency
 * chains); all lanes iterate in lockstep.  Without mask registers the active
 * mask is a vector of all-ones lanes: a lane leaves it when |z|^2 > 4, the
 * count (a 64-bit lane) steps by subtracting the mask, and the loop ends when
 * both masks are empty (movemask) or after MAX_ITER steps; the counts are
 * narrowed to 32 bits by one permute at the end. */
#include <immintrin.h>

__attribute__((noinline))
void mandel_row(int width, double y0, double x_min, double dx, int *iters)
{
    const __m256d four = _mm256_set1_pd(4.0);
    const __m256d vy0 = _mm256_set1_pd(y0);
    const __m256d vxmin = _mm256_set1_pd(x_min);
    const __m256d vdx = _mm256_set1_pd(dx);
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    for (int px = 0; px < width; px += 8) {
        __m128i idx0 = _mm_add_epi32(_mm_set1_epi32(px), lane);
        __m128i idx1 = _mm_add_epi32(_mm_set1_epi32(px + 4), lane);
        __m128i valid0 = _mm_cmpgt_epi32(_mm_set1_epi32(width), idx0);
        __m128i valid1 = _mm_cmpgt_epi32(_mm_set1_epi32(width), idx1);
        __m256d cx0 = _mm256_fmadd_pd(_mm256_cvtepi32_pd(idx0), vdx, vxmin);
        __m256d cx1 = _mm256_fmadd_pd(_mm256_cvtepi32_pd(idx1), vdx, vxmin);
        __m256d zx0 = _mm256_setzero_pd(), zy0 = zx0, zx1 = zx0, zy1 = zx0;
        __m256i it0 = _mm256_setzero_si256(), it1 = it0;
        __m256d active0 = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(valid0));
        __m256d active1 = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(valid1));
        for (int step = 0; step < MAX_ITER; step++) {
            __m256d zx20 = _mm256_mul_pd(zx0, zx0), zy20 = _mm256_mul_pd(zy0, zy0);
            __m256d zx21 = _mm256_mul_pd(zx1, zx1), zy21 = _mm256_mul_pd(zy1, zy1);
            active0 = _mm256_and_pd(active0, _mm256_cmp_pd(_mm256_add_pd(zx20, zy20), four,
                                                           _CMP_LE_OQ));
            active1 = _mm256_and_pd(active1, _mm256_cmp_pd(_mm256_add_pd(zx21, zy21), four,
                                                           _CMP_LE_OQ));
            if (_mm256_movemask_pd(_mm256_or_pd(active0, active1)) == 0)
                break;
            /* inactive lanes keep iterating (their z may overflow to inf or
             * NaN, which is harmless); only the counters are masked */
            __m256d t0 = _mm256_add_pd(_mm256_sub_pd(zx20, zy20), cx0);
            __m256d t1 = _mm256_add_pd(_mm256_sub_pd(zx21, zy21), cx1);
            zy0 = _mm256_fmadd_pd(_mm256_add_pd(zx0, zx0), zy0, vy0);
            zy1 = _mm256_fmadd_pd(_mm256_add_pd(zx1, zx1), zy1, vy0);
            zx0 = t0;
            zx1 = t1;
            it0 = _mm256_sub_epi64(it0, _mm256_castpd_si256(active0));
            it1 = _mm256_sub_epi64(it1, _mm256_castpd_si256(active1));
        }
        __m128i n0 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(it0, even));
        __m128i n1 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(it1, even));
        _mm_maskstore_epi32(iters + px, valid0, n0);
        _mm_maskstore_epi32(iters + px + 4, valid1, n1);
    }
}
