/* Hand-written AVX2 version of bench/kernels/iterlog.c's iterlog (AVX2
 * intrinsics; the runner splices this function in place of the kernel's, so
 * the harness is the kernel's own: bench/README.md, "Hand-written versions").
 * Four vectors of 4 inputs per trip: each step's log depends on the previous
 * one, so four independent chains keep the core busy.  While any lane has
 * v > 1, one call per vector with an active lane of glibc's libmvec log for
 * 4 doubles (_ZGVdN4v_log, the AVX2 variant the vector function ABI names;
 * link -lmvec), blended into the active lanes only; the active mask is a
 * vector of all-ones lanes and the count (a 64-bit lane) steps by
 * subtracting it.  Inactive lanes hold positive values (an input > 0, the
 * log of a value > 1, or 1 in a tail lane), so the call never sees an
 * argument that takes libmvec's slow special-case path. */
#include <immintrin.h>

__m256d _ZGVdN4v_log(__m256d x);

#define ITERLOG_VECTORS 4

__attribute__((noinline))
void iterlog(int n, const double *x, int *steps)
{
    const __m256d one = _mm256_set1_pd(1.0);
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    for (int i = 0; i < n; i += 4 * ITERLOG_VECTORS) {
        __m256d v[ITERLOG_VECTORS], active[ITERLOG_VECTORS];
        __m256i count[ITERLOG_VECTORS];
        __m128i valid[ITERLOG_VECTORS];
        int any = 0;
        for (int u = 0; u < ITERLOG_VECTORS; u++) {
            valid[u] = _mm_cmpgt_epi32(_mm_set1_epi32(n), _mm_add_epi32(_mm_set1_epi32(i + 4 * u),
                                                                        lane));
            __m256i valid64 = _mm256_cvtepi32_epi64(valid[u]);
            /* tail lanes: 1, never active */
            v[u] = _mm256_blendv_pd(one, _mm256_maskload_pd(x + i + 4 * u, valid64),
                                    _mm256_castsi256_pd(valid64));
            count[u] = _mm256_setzero_si256();
            active[u] = _mm256_cmp_pd(v[u], one, _CMP_GT_OQ);
            any |= _mm256_movemask_pd(active[u]);
        }
        while (any) {
            any = 0;
            for (int u = 0; u < ITERLOG_VECTORS; u++) {
                if (_mm256_movemask_pd(active[u]) == 0)
                    continue;
                v[u] = _mm256_blendv_pd(v[u], _ZGVdN4v_log(v[u]), active[u]);
                count[u] = _mm256_sub_epi64(count[u], _mm256_castpd_si256(active[u]));
                active[u] = _mm256_and_pd(active[u], _mm256_cmp_pd(v[u], one, _CMP_GT_OQ));
                any |= _mm256_movemask_pd(active[u]);
            }
        }
        for (int u = 0; u < ITERLOG_VECTORS; u++) {
            __m128i c = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(count[u], even));
            _mm_maskstore_epi32(steps + i + 4 * u, valid[u], c);
        }
    }
}
