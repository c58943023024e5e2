/* Hand-written AVX-512 version of bench/kernels/iterlog.c's iterlog
 * (AVX-512F/VL intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  8 inputs per vector; while any lane has v > 1, one call of
 * glibc's libmvec log for 8 doubles (_ZGVeN8v_log, the AVX-512 variant the
 * vector function ABI names; link -lmvec), merged into the active lanes only,
 * and the active lanes' counts step.  Inactive lanes hold positive values
 * (an input > 0, the log of a value > 1, or 1 in a tail lane), so the call never sees an
 * argument that takes libmvec's slow special-case path. */
#include <immintrin.h>

__m512d _ZGVeN8v_log(__m512d x);

__attribute__((noinline))
void iterlog(int n, const double *x, int *steps)
{
    const __m512d one = _mm512_set1_pd(1.0);
    const __m256i inc = _mm256_set1_epi32(1);
    for (int i = 0; i < n; i += 8) {
        int left = n - i;
        __mmask8 valid = left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1);
        __m512d v = _mm512_mask_loadu_pd(one, valid, x + i);  /* tail lanes: 1, never active */
        __m256i count = _mm256_setzero_si256();
        __mmask8 active = _mm512_cmp_pd_mask(v, one, _CMP_GT_OQ);
        while (active) {
            v = _mm512_mask_mov_pd(v, active, _ZGVeN8v_log(v));
            count = _mm256_mask_add_epi32(count, active, count, inc);
            active = _mm512_mask_cmp_pd_mask(active, v, one, _CMP_GT_OQ);
        }
        _mm256_mask_storeu_epi32(steps + i, valid, count);
    }
}
