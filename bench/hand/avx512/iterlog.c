/* Hand-written AVX-512 version of bench/kernels/iterlog.c's iterlog
 * (AVX-512F/VL intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  Four vectors of 8 inputs per trip: each step's log depends on
 * the previous one, so four independent chains keep the core busy.  While any
 * lane has v > 1, one call per vector with an active lane of glibc's libmvec
 * log for 8 doubles (_ZGVeN8v_log, the AVX-512 variant the vector function
 * ABI names; link -lmvec), merged into the active lanes only, and the active
 * lanes' counts step.  Inactive lanes hold positive values (an input > 0, the
 * log of a value > 1, or 1 in a tail lane), so the call never sees an
 * argument that takes libmvec's slow special-case path. */
#include <immintrin.h>

__m512d _ZGVeN8v_log(__m512d x);

#define ITERLOG_VECTORS 4

__attribute__((noinline))
void iterlog(int n, const double *x, int *steps)
{
    const __m512d one = _mm512_set1_pd(1.0);
    const __m256i inc = _mm256_set1_epi32(1);
    for (int i = 0; i < n; i += 8 * ITERLOG_VECTORS) {
        __m512d v[ITERLOG_VECTORS];
        __m256i count[ITERLOG_VECTORS];
        __mmask8 valid[ITERLOG_VECTORS], active[ITERLOG_VECTORS];
        unsigned any = 0;
        for (int u = 0; u < ITERLOG_VECTORS; u++) {
            int left = n - i - 8 * u;
            valid[u] = left >= 8 ? 0xff : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
            v[u] = _mm512_mask_loadu_pd(one, valid[u], x + i + 8 * u);  /* tail lanes: 1 */
            count[u] = _mm256_setzero_si256();
            active[u] = _mm512_cmp_pd_mask(v[u], one, _CMP_GT_OQ);
            any |= active[u];
        }
        while (any) {
            any = 0;
            for (int u = 0; u < ITERLOG_VECTORS; u++) {
                if (!active[u])
                    continue;
                v[u] = _mm512_mask_mov_pd(v[u], active[u], _ZGVeN8v_log(v[u]));
                count[u] = _mm256_mask_add_epi32(count[u], active[u], count[u], inc);
                active[u] = _mm512_mask_cmp_pd_mask(active[u], v[u], one, _CMP_GT_OQ);
                any |= active[u];
            }
        }
        for (int u = 0; u < ITERLOG_VECTORS; u++)
            _mm256_mask_storeu_epi32(steps + i + 8 * u, valid[u], count[u]);
    }
}
