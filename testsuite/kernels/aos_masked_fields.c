/* s2s-test: vectorized=1 tolerance=exact */
/* aos_masked_fields: field accesses under a divergent condition (masked:
 * inactive lanes' records must not be read or written, the records end at a
 * guard page) next to unmasked reads of the same records. */
#include "harness.h"

struct v4 { float x, y, z, w; };

void clamp(int n, struct v4 *p, float lim)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float m = p[i].x + p[i].w;
        if (m > lim) {
            p[i].y = p[i].z * 0.5f;
            p[i].w = lim;
        }
    }
}

int main(int argc, char **argv)
{
    static struct v4 src[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int pat = 0; pat < S2S_NPATTERNS; pat++) {
            s2s_fill_f32(&src[0].x, 4 * S2S_CAP, -1.0, 1.0);
            for (int i = 0; i < n; i++)
                src[i].x = s2s_pattern(pat, i, n) ? 5.0f : -5.0f;
            struct v4 *p = s2s_tail(0, src, (size_t)n * sizeof src[0]);
            clamp(n, p, 2.0f);
            S2S_OUT("p", &p[0].x, 4 * n);
        }
    }
    return 0;
}
