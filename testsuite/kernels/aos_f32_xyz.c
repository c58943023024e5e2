/* s2s-test: vectorized=1 tolerance=exact */
/* aos_f32_xyz: float x, y, z records (12 bytes): every field read and
 * written (contiguous loads + de-interleave, interleave + stores); the
 * records end at an inaccessible page, so reading past them faults. */
#include "harness.h"

struct v3 { float x, y, z; };

void scale(int n, struct v3 *p, float *len2, float s)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        len2[i] = p[i].x * p[i].x + p[i].y * p[i].y + p[i].z * p[i].z;
        p[i].x = p[i].x * s;
        p[i].y = p[i].y - s;
        p[i].z = p[i].z + p[i].x;
    }
}

int main(int argc, char **argv)
{
    static struct v3 src[S2S_CAP];
    static float len2[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(&src[0].x, 3 * S2S_CAP, -8.0, 8.0);
        s2s_fill_f32(len2, S2S_CAP, 0.0, 0.0);
        struct v3 *p = s2s_tail(0, src, (size_t)n * sizeof src[0]);
        scale(n, p, len2, 1.5f);
        S2S_OUT("p", &p[0].x, 3 * n);
        S2S_OUT("len2", len2, n + S2S_GUARD);
    }
    return 0;
}
