/* Hand-written AVX-512 version of bench/kernels/xs_lookup.c's xs_lookup
 * (AVX-512F/VL intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  Four vectors of 8 lookups per trip: a binary search is a chain
 * of dependent gathers, so four independent searches overlap their latency.
 * The nuclide loop runs while any lane has k < its material's count; the
 * binary search runs while any lane has hi - lo > 1, each step a masked
 * gather of g[mid]; the bracketing values, the density and the six cross
 * sections are gathers.  Indices are 32-bit (the largest, into xs, is below
 * 16 * 2048 * 3 + 3). */
#include <immintrin.h>

#define XS_VECTORS 4

__attribute__((noinline))
void xs_lookup(int n, const double *energy, const int *material,
               const int *mat_count, const int *mat_nuclide, const double *mat_density,
               const double *grid, const double *xs, double *out)
{
    _Static_assert(NNUC == 1 << 4 && NGRID == 1 << 11, "the shifts below multiply");
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i zero = _mm256_setzero_si256();
    const __m512d zero_d = _mm512_setzero_pd();
    for (int i = 0; i < n; i += 8 * XS_VECTORS) {
        __m512d e[XS_VECTORS], total[XS_VECTORS], absorb[XS_VECTORS], fission[XS_VECTORS];
        __m256i count[XS_VECTORS], row[XS_VECTORS];
        __mmask8 valid[XS_VECTORS], active[XS_VECTORS];
        unsigned any = 0;
        for (int u = 0; u < XS_VECTORS; u++) {
            int left = n - i - 8 * u;
            valid[u] = left >= 8 ? 0xff : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
            e[u] = _mm512_maskz_loadu_pd(valid[u], energy + i + 8 * u);
            __m256i m = _mm256_maskz_loadu_epi32(valid[u], material + i + 8 * u);
            count[u] = _mm256_mmask_i32gather_epi32(zero, valid[u], m, mat_count, 4);
            row[u] = _mm256_slli_epi32(m, 4);  /* m * NNUC */
            total[u] = absorb[u] = fission[u] = zero_d;
            active[u] = _mm256_mask_cmplt_epi32_mask(valid[u], zero, count[u]);
            any |= active[u];
        }
        for (__m256i k = zero; any; k = _mm256_add_epi32(k, one)) {
            __m256i mk[XS_VECTORS], base[XS_VECTORS], lo[XS_VECTORS], hi[XS_VECTORS];
            __mmask8 search[XS_VECTORS];
            unsigned searching = 0;
            for (int u = 0; u < XS_VECTORS; u++) {
                mk[u] = _mm256_add_epi32(row[u], k);
                __m256i nuc = _mm256_mmask_i32gather_epi32(zero, active[u], mk[u], mat_nuclide, 4);
                base[u] = _mm256_slli_epi32(nuc, 11);  /* nuc * NGRID */
                lo[u] = zero;
                hi[u] = _mm256_set1_epi32(NGRID - 1);
                search[u] = active[u];  /* hi - lo = NGRID - 1 > 1 */
                searching |= search[u];
            }
            while (searching) {  /* g[lo] <= e < g[hi] */
                searching = 0;
                for (int u = 0; u < XS_VECTORS; u++) {
                    __m256i mid = _mm256_srli_epi32(_mm256_add_epi32(lo[u], hi[u]), 1);
                    __m512d gm = _mm512_mask_i32gather_pd(e[u], search[u],
                                                          _mm256_add_epi32(base[u], mid), grid, 8);
                    __mmask8 above = _mm512_mask_cmp_pd_mask(search[u], gm, e[u], _CMP_GT_OQ);
                    hi[u] = _mm256_mask_mov_epi32(hi[u], above, mid);
                    lo[u] = _mm256_mask_mov_epi32(lo[u], search[u] & (__mmask8)~above, mid);
                    search[u] = _mm256_mask_cmpgt_epi32_mask(search[u],
                                                             _mm256_sub_epi32(hi[u], lo[u]), one);
                    searching |= search[u];
                }
            }
            any = 0;
            for (int u = 0; u < XS_VECTORS; u++) {
                __mmask8 a = active[u];
                if (!a)
                    continue;
                __m256i off = _mm256_add_epi32(base[u], lo[u]);
                __m512d glo = _mm512_mask_i32gather_pd(zero_d, a, off, grid, 8);
                __m512d ghi = _mm512_mask_i32gather_pd(zero_d, a, _mm256_add_epi32(base[u], hi[u]),
                                                       grid, 8);
                __m512d f = _mm512_div_pd(_mm512_sub_pd(e[u], glo), _mm512_sub_pd(ghi, glo));
                /* (nuc * NGRID + lo) * NCHAN: a = xs[ia], b = xs[ia + NCHAN] */
                __m256i ia = _mm256_add_epi32(_mm256_add_epi32(off, off), off);
                __m512d rho = _mm512_mask_i32gather_pd(zero_d, a, mk[u], mat_density, 8);
                __m512d a0 = _mm512_mask_i32gather_pd(zero_d, a, ia, xs, 8);
                __m512d a1 = _mm512_mask_i32gather_pd(zero_d, a, ia, xs + 1, 8);
                __m512d a2 = _mm512_mask_i32gather_pd(zero_d, a, ia, xs + 2, 8);
                __m512d b0 = _mm512_mask_i32gather_pd(zero_d, a, ia, xs + NCHAN, 8);
                __m512d b1 = _mm512_mask_i32gather_pd(zero_d, a, ia, xs + NCHAN + 1, 8);
                __m512d b2 = _mm512_mask_i32gather_pd(zero_d, a, ia, xs + NCHAN + 2, 8);
                __m512d x0 = _mm512_fmadd_pd(f, _mm512_sub_pd(b0, a0), a0);
                __m512d x1 = _mm512_fmadd_pd(f, _mm512_sub_pd(b1, a1), a1);
                __m512d x2 = _mm512_fmadd_pd(f, _mm512_sub_pd(b2, a2), a2);
                total[u] = _mm512_mask3_fmadd_pd(rho, x0, total[u], a);
                absorb[u] = _mm512_mask3_fmadd_pd(rho, x1, absorb[u], a);
                fission[u] = _mm512_mask3_fmadd_pd(rho, x2, fission[u], a);
                active[u] = _mm256_mask_cmplt_epi32_mask(a, _mm256_add_epi32(k, one), count[u]);
                any |= active[u];
            }
        }
        for (int u = 0; u < XS_VECTORS; u++) {
            __m512d r = _mm512_fmadd_pd(_mm512_set1_pd(0.5), absorb[u], total[u]);
            r = _mm512_fmadd_pd(_mm512_set1_pd(0.25), fission[u], r);
            _mm512_mask_storeu_pd(out + i + 8 * u, valid[u], r);
        }
    }
}
