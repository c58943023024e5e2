/* Hand-written AVX-512 version of bench/kernels/kdtree.c's nearest
 * (AVX-512F intrinsics and BMI2's pdep; the runner splices this function in
 * place of the kernel's, so the harness is the kernel's own: bench/README.md,
 * "Hand-written versions").  16 lanes, each working on one query with its
 * own stack; a lane whose stack runs empty writes its result (a masked
 * scatter to found[query]) and takes the next query at once (expand-loads of
 * the query coordinates into the free lanes), so every step of the loop has
 * all 16 lanes busy until the queries run out.  The stacks are interleaved
 * (entry s of lane l at s * 16 + l): a push is a masked scatter and a pop a
 * masked gather at sp * 16 + lane, and a new query's root entry (s = 0) is a
 * masked store.  A lane whose popped bound is not below its best skips the
 * rest of the step (the scalar 'continue'). */
#include <immintrin.h>

__attribute__((noinline))
void nearest(int nq, const float *qx, const float *qy, const float *qz,
             const float *px, const float *py, const float *pz,
             const int *left, const int *right, const int *dim, int *found)
{
    int stack[STACK_DEPTH * 16];
    float bound[STACK_DEPTH * 16];
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i zero = _mm512_setzero_si512();
    const __m512 zero_f = _mm512_setzero_ps();
    __m512 vqx = zero_f, vqy = zero_f, vqz = zero_f, best = zero_f;
    __m512i query = zero, sp = zero, best_node = zero;
    __mmask16 active = 0;
    int next = 0;
    for (;;) {
        __mmask16 free = (__mmask16)~active;
        if (free && next < nq) {  /* refill: the next queries into the free lanes */
            int take = nq - next < 16 ? nq - next : 16;
            __mmask16 fill = (__mmask16)_pdep_u32((1u << take) - 1, free);
            vqx = _mm512_mask_expandloadu_ps(vqx, fill, qx + next);
            vqy = _mm512_mask_expandloadu_ps(vqy, fill, qy + next);
            vqz = _mm512_mask_expandloadu_ps(vqz, fill, qz + next);
            query = _mm512_mask_expand_epi32(query, fill,
                                             _mm512_add_epi32(_mm512_set1_epi32(next), lane));
            _mm512_mask_storeu_epi32(stack, fill, zero);  /* the root, bound 0 */
            _mm512_mask_storeu_ps(bound, fill, zero_f);
            sp = _mm512_mask_mov_epi32(sp, fill, one);
            best = _mm512_mask_mov_ps(best, fill, _mm512_set1_ps(3.0e38f));
            best_node = _mm512_mask_mov_epi32(best_node, fill, _mm512_set1_epi32(-1));
            active |= fill;
            next += _mm_popcnt_u32(fill);
        }
        if (!active)
            break;
        sp = _mm512_mask_sub_epi32(sp, active, sp, one);
        __m512i slot = _mm512_add_epi32(_mm512_slli_epi32(sp, 4), lane);
        __m512i node = _mm512_mask_i32gather_epi32(zero, active, slot, stack, 4);
        __m512 b = _mm512_mask_i32gather_ps(zero_f, active, slot, bound, 4);
        __mmask16 live = _mm512_mask_cmp_ps_mask(active, b, best, _CMP_LT_OQ);
        if (live) {
            __m512 dx = _mm512_sub_ps(vqx, _mm512_mask_i32gather_ps(zero_f, live, node, px, 4));
            __m512 dy = _mm512_sub_ps(vqy, _mm512_mask_i32gather_ps(zero_f, live, node, py, 4));
            __m512 dz = _mm512_sub_ps(vqz, _mm512_mask_i32gather_ps(zero_f, live, node, pz, 4));
            __m512 d2 = _mm512_fmadd_ps(dz, dz, _mm512_fmadd_ps(dy, dy, _mm512_mul_ps(dx, dx)));
            __mmask16 closer = _mm512_mask_cmp_ps_mask(live, d2, best, _CMP_LT_OQ);
            best = _mm512_mask_mov_ps(best, closer, d2);
            best_node = _mm512_mask_mov_epi32(best_node, closer, node);
            __m512i d = _mm512_mask_i32gather_epi32(zero, live, node, dim, 4);
            __m512 diff = _mm512_mask_mov_ps(dz, _mm512_cmpeq_epi32_mask(d, one), dy);
            diff = _mm512_mask_mov_ps(diff, _mm512_cmpeq_epi32_mask(d, zero), dx);
            __m512i l = _mm512_mask_i32gather_epi32(zero, live, node, left, 4);
            __m512i r = _mm512_mask_i32gather_epi32(zero, live, node, right, 4);
            __mmask16 neg = _mm512_cmp_ps_mask(diff, zero_f, _CMP_LT_OQ);
            __m512i near = _mm512_mask_mov_epi32(r, neg, l);
            __m512i far = _mm512_mask_mov_epi32(l, neg, r);
            __mmask16 push_far = _mm512_mask_cmpge_epi32_mask(live, far, zero);
            _mm512_mask_i32scatter_epi32(stack, push_far, slot, far, 4);
            _mm512_mask_i32scatter_ps(bound, push_far, slot, _mm512_mul_ps(diff, diff), 4);
            sp = _mm512_mask_add_epi32(sp, push_far, sp, one);
            __mmask16 push_near = _mm512_mask_cmpge_epi32_mask(live, near, zero);
            slot = _mm512_add_epi32(_mm512_slli_epi32(sp, 4), lane);
            _mm512_mask_i32scatter_epi32(stack, push_near, slot, near, 4);
            _mm512_mask_i32scatter_ps(bound, push_near, slot, zero_f, 4);
            sp = _mm512_mask_add_epi32(sp, push_near, sp, one);
        }
        __mmask16 done = _mm512_mask_cmpeq_epi32_mask(active, sp, zero);
        _mm512_mask_i32scatter_epi32(found, done, query, best_node, 4);
        active &= (__mmask16)~done;
    }
}
