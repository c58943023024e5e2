/* Hand-written AVX2 version of bench/kernels/kdtree.c's nearest (AVX2 and
 * FMA intrinsics; the runner splices this function in place of the kernel's,
 * so the harness is the kernel's own: bench/README.md, "Hand-written
 * versions").  8 lanes, each working on one query with its own stack; a lane
 * whose stack runs empty writes its result and takes the next query at once,
 * so every step has all 8 lanes busy until the queries run out.  The stacks
 * are interleaved (entry s of lane l at s * 8 + l): a pop is a masked gather
 * at sp * 8 + lane.  AVX2 has no scatter and no expand: a push, a result and
 * a refill are scalar stores per lane, over the bits of the mask, from the
 * vectors spilled to small arrays (pushes happen every step, results and
 * refills once per query).  A lane whose popped bound is not below its best
 * skips the rest of the step (the scalar 'continue'). */
#include <immintrin.h>

__attribute__((noinline))
void nearest(int nq, const float *qx, const float *qy, const float *qz,
             const float *px, const float *py, const float *pz,
             const int *left, const int *right, const int *dim, int *found)
{
    int stack[STACK_DEPTH * 8];
    float bound[STACK_DEPTH * 8];
    int lane_query[8] = {0}, lane_best_node[8], lane_sp[8], lane_value[8], lane_slot[8];
    float lane_x[8] = {0}, lane_y[8] = {0}, lane_z[8] = {0}, lane_best[8], lane_bound[8];
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i zero = _mm256_setzero_si256();
    const __m256 zero_f = _mm256_setzero_ps();
    __m256 vqx = zero_f, vqy = zero_f, vqz = zero_f, best = zero_f;
    __m256i query = zero, sp = zero, best_node = zero;
    unsigned active = 0;
    int next = 0;
    for (;;) {
        unsigned free = ~active & 0xffu;
        if (free && next < nq) {  /* refill: the next queries into the free lanes */
            _mm256_storeu_ps(lane_x, vqx);
            _mm256_storeu_ps(lane_y, vqy);
            _mm256_storeu_ps(lane_z, vqz);
            _mm256_storeu_ps(lane_best, best);
            _mm256_storeu_si256((__m256i *)lane_query, query);
            _mm256_storeu_si256((__m256i *)lane_sp, sp);
            _mm256_storeu_si256((__m256i *)lane_best_node, best_node);
            for (; free && next < nq; free &= free - 1, next++) {
                int l = __builtin_ctz(free);
                lane_x[l] = qx[next];
                lane_y[l] = qy[next];
                lane_z[l] = qz[next];
                lane_query[l] = next;
                lane_sp[l] = 1;
                lane_best[l] = 3.0e38f;
                lane_best_node[l] = -1;
                stack[l] = 0;  /* the root, bound 0 */
                bound[l] = 0.0f;
                active |= 1u << l;
            }
            vqx = _mm256_loadu_ps(lane_x);
            vqy = _mm256_loadu_ps(lane_y);
            vqz = _mm256_loadu_ps(lane_z);
            best = _mm256_loadu_ps(lane_best);
            query = _mm256_loadu_si256((const __m256i *)lane_query);
            sp = _mm256_loadu_si256((const __m256i *)lane_sp);
            best_node = _mm256_loadu_si256((const __m256i *)lane_best_node);
        }
        if (!active)
            break;
        __m256i act = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)active),
                                                          _mm256_sllv_epi32(one, lane)),
                                         _mm256_sllv_epi32(one, lane));
        sp = _mm256_add_epi32(sp, act);  /* act is -1 in the active lanes */
        __m256i slot = _mm256_add_epi32(_mm256_slli_epi32(sp, 3), lane);
        __m256i node = _mm256_mask_i32gather_epi32(zero, stack, slot, act, 4);
        __m256 b = _mm256_mask_i32gather_ps(zero_f, bound, slot, _mm256_castsi256_ps(act), 4);
        __m256 live = _mm256_and_ps(_mm256_castsi256_ps(act), _mm256_cmp_ps(b, best, _CMP_LT_OQ));
        unsigned live_bits = (unsigned)_mm256_movemask_ps(live);
        if (live_bits) {
            __m256 dx = _mm256_sub_ps(vqx, _mm256_mask_i32gather_ps(zero_f, px, node, live, 4));
            __m256 dy = _mm256_sub_ps(vqy, _mm256_mask_i32gather_ps(zero_f, py, node, live, 4));
            __m256 dz = _mm256_sub_ps(vqz, _mm256_mask_i32gather_ps(zero_f, pz, node, live, 4));
            __m256 d2 = _mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_mul_ps(dx, dx)));
            __m256 closer = _mm256_and_ps(live, _mm256_cmp_ps(d2, best, _CMP_LT_OQ));
            best = _mm256_blendv_ps(best, d2, closer);
            best_node = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(best_node),
                                                             _mm256_castsi256_ps(node), closer));
            __m256i live_i = _mm256_castps_si256(live);
            __m256i d = _mm256_mask_i32gather_epi32(zero, dim, node, live_i, 4);
            __m256 diff = _mm256_blendv_ps(dz, dy, _mm256_castsi256_ps(_mm256_cmpeq_epi32(d, one)));
            diff = _mm256_blendv_ps(diff, dx, _mm256_castsi256_ps(_mm256_cmpeq_epi32(d, zero)));
            __m256i l = _mm256_mask_i32gather_epi32(zero, left, node, live_i, 4);
            __m256i r = _mm256_mask_i32gather_epi32(zero, right, node, live_i, 4);
            __m256 neg = _mm256_cmp_ps(diff, zero_f, _CMP_LT_OQ);
            __m256i near = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(r),
                                                                _mm256_castsi256_ps(l), neg));
            __m256i far = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(l),
                                                               _mm256_castsi256_ps(r), neg));
            __m256i push_far = _mm256_andnot_si256(_mm256_cmpgt_epi32(zero, far), live_i);
            unsigned bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(push_far));
            _mm256_storeu_si256((__m256i *)lane_slot, slot);
            _mm256_storeu_si256((__m256i *)lane_value, far);
            _mm256_storeu_ps(lane_bound, _mm256_mul_ps(diff, diff));
            for (; bits; bits &= bits - 1) {
                int k = __builtin_ctz(bits);
                stack[lane_slot[k]] = lane_value[k];
                bound[lane_slot[k]] = lane_bound[k];
            }
            sp = _mm256_sub_epi32(sp, push_far);
            __m256i push_near = _mm256_andnot_si256(_mm256_cmpgt_epi32(zero, near), live_i);
            bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(push_near));
            _mm256_storeu_si256((__m256i *)lane_slot,
                                _mm256_add_epi32(_mm256_slli_epi32(sp, 3), lane));
            _mm256_storeu_si256((__m256i *)lane_value, near);
            for (; bits; bits &= bits - 1) {
                int k = __builtin_ctz(bits);
                stack[lane_slot[k]] = lane_value[k];
                bound[lane_slot[k]] = 0.0f;
            }
            sp = _mm256_sub_epi32(sp, push_near);
        }
        __m256i done = _mm256_and_si256(act, _mm256_cmpeq_epi32(sp, zero));
        unsigned done_bits = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(done));
        if (done_bits) {
            _mm256_storeu_si256((__m256i *)lane_query, query);
            _mm256_storeu_si256((__m256i *)lane_best_node, best_node);
            for (unsigned bits = done_bits; bits; bits &= bits - 1) {
                int k = __builtin_ctz(bits);
                found[lane_query[k]] = lane_best_node[k];
            }
            active &= ~done_bits;
        }
    }
}
