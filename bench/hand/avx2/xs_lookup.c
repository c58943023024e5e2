/* Hand-written AVX2 version of bench/kernels/xs_lookup.c's xs_lookup (AVX2
 * and FMA intrinsics; the runner splices this function in place of the
 * kernel's, so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  Four vectors of 4 lookups per trip: a binary search is a chain
 * of dependent gathers, so four independent searches overlap their latency.
 * Without mask registers a mask is a vector of all-ones lanes, kept as 4 x
 * 32 bits (the int compares, the int gathers) and widened to 4 x 64 bits for
 * the double gathers and blends; a double compare's mask is narrowed back by
 * one permute.  The nuclide loop runs while any lane has k < its material's
 * count, the binary search while any lane has hi - lo > 1. */
#include <immintrin.h>

#define XS_VECTORS 4

static inline __m256d xs_widen(__m128i m)
{
    return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(m));
}

static inline __m128i xs_narrow(__m256d m)
{
    const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(m), even));
}

static inline int xs_any(__m128i m)
{
    return _mm_movemask_ps(_mm_castsi128_ps(m));
}

__attribute__((noinline))
void xs_lookup(int n, const double *energy, const int *material,
               const int *mat_count, const int *mat_nuclide, const double *mat_density,
               const double *grid, const double *xs, double *out)
{
    _Static_assert(NNUC == 1 << 4 && NGRID == 1 << 11, "the shifts below multiply");
    const __m128i one = _mm_set1_epi32(1);
    const __m128i zero = _mm_setzero_si128();
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m256d zero_d = _mm256_setzero_pd();
    for (int i = 0; i < n; i += 4 * XS_VECTORS) {
        __m256d e[XS_VECTORS], total[XS_VECTORS], absorb[XS_VECTORS], fission[XS_VECTORS];
        __m128i count[XS_VECTORS], row[XS_VECTORS], valid[XS_VECTORS], active[XS_VECTORS];
        int any = 0;
        for (int u = 0; u < XS_VECTORS; u++) {
            valid[u] = _mm_cmpgt_epi32(_mm_set1_epi32(n), _mm_add_epi32(_mm_set1_epi32(i + 4 * u),
                                                                        lane));
            e[u] = _mm256_maskload_pd(energy + i + 4 * u, _mm256_cvtepi32_epi64(valid[u]));
            __m128i m = _mm_maskload_epi32(material + i + 4 * u, valid[u]);
            count[u] = _mm_mask_i32gather_epi32(zero, mat_count, m, valid[u], 4);
            row[u] = _mm_slli_epi32(m, 4);  /* m * NNUC */
            total[u] = absorb[u] = fission[u] = zero_d;
            active[u] = _mm_and_si128(valid[u], _mm_cmpgt_epi32(count[u], zero));
            any |= xs_any(active[u]);
        }
        for (__m128i k = zero; any; k = _mm_add_epi32(k, one)) {
            __m128i mk[XS_VECTORS], base[XS_VECTORS], lo[XS_VECTORS], hi[XS_VECTORS];
            __m128i search[XS_VECTORS];
            int searching = 0;
            for (int u = 0; u < XS_VECTORS; u++) {
                mk[u] = _mm_add_epi32(row[u], k);
                __m128i nuc = _mm_mask_i32gather_epi32(zero, mat_nuclide, mk[u], active[u], 4);
                base[u] = _mm_slli_epi32(nuc, 11);  /* nuc * NGRID */
                lo[u] = zero;
                hi[u] = _mm_set1_epi32(NGRID - 1);
                search[u] = active[u];  /* hi - lo = NGRID - 1 > 1 */
                searching |= xs_any(search[u]);
            }
            while (searching) {  /* g[lo] <= e < g[hi] */
                searching = 0;
                for (int u = 0; u < XS_VECTORS; u++) {
                    __m128i mid = _mm_srli_epi32(_mm_add_epi32(lo[u], hi[u]), 1);
                    __m256d gm = _mm256_mask_i32gather_pd(e[u], grid, _mm_add_epi32(base[u], mid),
                                                          xs_widen(search[u]), 8);
                    __m128i above = _mm_and_si128(
                        search[u], xs_narrow(_mm256_cmp_pd(gm, e[u], _CMP_GT_OQ)));
                    hi[u] = _mm_blendv_epi8(hi[u], mid, above);
                    lo[u] = _mm_blendv_epi8(lo[u], mid, _mm_andnot_si128(above, search[u]));
                    search[u] = _mm_and_si128(
                        search[u], _mm_cmpgt_epi32(_mm_sub_epi32(hi[u], lo[u]), one));
                    searching |= xs_any(search[u]);
                }
            }
            any = 0;
            for (int u = 0; u < XS_VECTORS; u++) {
                if (!xs_any(active[u]))
                    continue;
                __m256d a = xs_widen(active[u]);
                __m128i off = _mm_add_epi32(base[u], lo[u]);
                __m256d glo = _mm256_mask_i32gather_pd(zero_d, grid, off, a, 8);
                __m256d ghi = _mm256_mask_i32gather_pd(zero_d, grid, _mm_add_epi32(base[u], hi[u]),
                                                       a, 8);
                /* inactive lanes divide 0 by 0: their NaN is blended away */
                __m256d f = _mm256_div_pd(_mm256_sub_pd(e[u], glo), _mm256_sub_pd(ghi, glo));
                /* (nuc * NGRID + lo) * NCHAN: a = xs[ia], b = xs[ia + NCHAN] */
                __m128i ia = _mm_add_epi32(_mm_add_epi32(off, off), off);
                __m256d rho = _mm256_mask_i32gather_pd(zero_d, mat_density, mk[u], a, 8);
                __m256d a0 = _mm256_mask_i32gather_pd(zero_d, xs, ia, a, 8);
                __m256d a1 = _mm256_mask_i32gather_pd(zero_d, xs + 1, ia, a, 8);
                __m256d a2 = _mm256_mask_i32gather_pd(zero_d, xs + 2, ia, a, 8);
                __m256d b0 = _mm256_mask_i32gather_pd(zero_d, xs + NCHAN, ia, a, 8);
                __m256d b1 = _mm256_mask_i32gather_pd(zero_d, xs + NCHAN + 1, ia, a, 8);
                __m256d b2 = _mm256_mask_i32gather_pd(zero_d, xs + NCHAN + 2, ia, a, 8);
                __m256d x0 = _mm256_fmadd_pd(f, _mm256_sub_pd(b0, a0), a0);
                __m256d x1 = _mm256_fmadd_pd(f, _mm256_sub_pd(b1, a1), a1);
                __m256d x2 = _mm256_fmadd_pd(f, _mm256_sub_pd(b2, a2), a2);
                total[u] = _mm256_blendv_pd(total[u], _mm256_fmadd_pd(rho, x0, total[u]), a);
                absorb[u] = _mm256_blendv_pd(absorb[u], _mm256_fmadd_pd(rho, x1, absorb[u]), a);
                fission[u] = _mm256_blendv_pd(fission[u], _mm256_fmadd_pd(rho, x2, fission[u]), a);
                active[u] = _mm_and_si128(active[u],
                                          _mm_cmpgt_epi32(count[u], _mm_add_epi32(k, one)));
                any |= xs_any(active[u]);
            }
        }
        for (int u = 0; u < XS_VECTORS; u++) {
            __m256d r = _mm256_fmadd_pd(_mm256_set1_pd(0.5), absorb[u], total[u]);
            r = _mm256_fmadd_pd(_mm256_set1_pd(0.25), fission[u], r);
            _mm256_maskstore_pd(out + i + 4 * u, _mm256_cvtepi32_epi64(valid[u]), r);
        }
    }
}
