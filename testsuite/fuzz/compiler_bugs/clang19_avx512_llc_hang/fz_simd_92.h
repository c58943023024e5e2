/* declare simd functions of testsuite/fuzz/generate.py seed 92 */
#ifndef FZ_SIMD_92_H
#define FZ_SIMD_92_H

#pragma omp declare simd uniform(p) linear(i:2) linear(q:2)
int8_t fz_simd1(int32_t i, int8_t x, const int8_t *q, const int8_t *p);

#endif /* FZ_SIMD_92_H */
