/* declare simd functions of testsuite/fuzz/generate.py seed 42 */
#ifndef FZ_SIMD_42_H
#define FZ_SIMD_42_H

#pragma omp declare simd uniform(s, p) linear(i:1) notinbranch
static inline float fz_simd7(float s, float x, const float *p, int32_t i)
{
    float r = (s * x);
    int c = ((s) > 0.0f) ? 3 : 1;
    while (c > 0) {
        r = (r - ((float)(i)));
        c--;
    }
    return (r - p[i]);
}

#pragma omp declare simd uniform(s) inbranch
float fz_simd8(float s, uint32_t y, float x);

#pragma omp declare simd linear(q:1)
static inline float fz_simd9(const float *q, float x)
{
    float r = (x + *q);
    if (*q != 0.5f) {
        r = (r - *q);
    } else {
        r = (x - r);
    }
    int c = ((x) > 0.0f) ? 3 : 1;
    while (c > 0) {
        r = (r + x);
        c--;
    }
    if (x != *q) {
        return (r + x);
    }
    return r;
}

#endif /* FZ_SIMD_42_H */
