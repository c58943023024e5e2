/* Hand-written AVX-512 version of bench/kernels/xs_lookup.c's xs_lookup
 * (AVX-512F/VL intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  8 lookups per vector.  The nuclide loop runs while any lane
 * has k < its material's count; the binary search runs while any lane has
 * hi - lo > 1, each step a masked gather of g[mid]; the bracketing values,
 * the density and the six cross sections are gathers.  Indices are 32-bit
 * (the largest, into xs, is below 16 * 2048 * 3 + 3). */
#include <immintrin.h>

__attribute__((noinline))
void xs_lookup(int n, const double *energy, const int *material,
               const int *mat_count, const int *mat_nuclide, const double *mat_density,
               const double *grid, const double *xs, double *out)
{
    _Static_assert(NNUC == 1 << 4 && NGRID == 1 << 11, "the shifts below multiply");
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i zero = _mm256_setzero_si256();
    for (int i = 0; i < n; i += 8) {
        int left = n - i;
        __mmask8 valid = left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1);
        __m512d e = _mm512_maskz_loadu_pd(valid, energy + i);
        __m256i m = _mm256_maskz_loadu_epi32(valid, material + i);
        __m256i count = _mm256_mmask_i32gather_epi32(zero, valid, m, mat_count, 4);
        __m256i row = _mm256_slli_epi32(m, 4);  /* m * NNUC */
        __m512d total = _mm512_setzero_pd(), absorb = total, fission = total;
        __m256i k = zero;
        __mmask8 active = _mm256_mask_cmplt_epi32_mask(valid, k, count);
        while (active) {
            __m256i mk = _mm256_add_epi32(row, k);
            __m256i nuc = _mm256_mmask_i32gather_epi32(zero, active, mk, mat_nuclide, 4);
            __m256i base = _mm256_slli_epi32(nuc, 11);  /* nuc * NGRID */
            __m256i lo = zero, hi = _mm256_set1_epi32(NGRID - 1);
            __mmask8 search = _mm256_mask_cmpgt_epi32_mask(active, _mm256_sub_epi32(hi, lo), one);
            while (search) {
                __m256i mid = _mm256_srli_epi32(_mm256_add_epi32(lo, hi), 1);
                __m512d gm = _mm512_mask_i32gather_pd(e, search, _mm256_add_epi32(base, mid),
                                                      grid, 8);
                __mmask8 above = _mm512_mask_cmp_pd_mask(search, gm, e, _CMP_GT_OQ);
                hi = _mm256_mask_mov_epi32(hi, above, mid);
                lo = _mm256_mask_mov_epi32(lo, search & (__mmask8)~above, mid);
                search = _mm256_mask_cmpgt_epi32_mask(search, _mm256_sub_epi32(hi, lo), one);
            }
            __m512d zero_d = _mm512_setzero_pd();
            __m512d glo = _mm512_mask_i32gather_pd(zero_d, active, _mm256_add_epi32(base, lo),
                                                   grid, 8);
            __m512d ghi = _mm512_mask_i32gather_pd(zero_d, active, _mm256_add_epi32(base, hi),
                                                   grid, 8);
            __m512d f = _mm512_div_pd(_mm512_sub_pd(e, glo), _mm512_sub_pd(ghi, glo));
            /* (nuc * NGRID + lo) * NCHAN: a = xs[ia], b = xs[ia + NCHAN] */
            __m256i off = _mm256_add_epi32(base, lo);
            __m256i ia = _mm256_add_epi32(_mm256_add_epi32(off, off), off);
            __m512d rho = _mm512_mask_i32gather_pd(zero_d, active, mk, mat_density, 8);
            __m512d a0 = _mm512_mask_i32gather_pd(zero_d, active, ia, xs, 8);
            __m512d a1 = _mm512_mask_i32gather_pd(zero_d, active, ia, xs + 1, 8);
            __m512d a2 = _mm512_mask_i32gather_pd(zero_d, active, ia, xs + 2, 8);
            __m512d b0 = _mm512_mask_i32gather_pd(zero_d, active, ia, xs + NCHAN, 8);
            __m512d b1 = _mm512_mask_i32gather_pd(zero_d, active, ia, xs + NCHAN + 1, 8);
            __m512d b2 = _mm512_mask_i32gather_pd(zero_d, active, ia, xs + NCHAN + 2, 8);
            __m512d x0 = _mm512_fmadd_pd(f, _mm512_sub_pd(b0, a0), a0);
            __m512d x1 = _mm512_fmadd_pd(f, _mm512_sub_pd(b1, a1), a1);
            __m512d x2 = _mm512_fmadd_pd(f, _mm512_sub_pd(b2, a2), a2);
            total = _mm512_mask3_fmadd_pd(rho, x0, total, active);
            absorb = _mm512_mask3_fmadd_pd(rho, x1, absorb, active);
            fission = _mm512_mask3_fmadd_pd(rho, x2, fission, active);
            k = _mm256_add_epi32(k, one);
            active = _mm256_mask_cmplt_epi32_mask(active, k, count);
        }
        __m512d r = _mm512_fmadd_pd(_mm512_set1_pd(0.5), absorb, total);
        r = _mm512_fmadd_pd(_mm512_set1_pd(0.25), fission, r);
        _mm512_mask_storeu_pd(out + i, valid, r);
    }
}
