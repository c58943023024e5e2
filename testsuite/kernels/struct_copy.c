/* s2s-test: vectorized=1 tolerance=exact */
/* struct_copy: whole-struct assignment out[i] = in[perm[i]] (an aggregate
 * copy, gathered) and a struct local built field by field. */
#include "harness.h"

struct vec3 { float x, y, z; };

void permute(int n, const struct vec3 *in, const int *perm, struct vec3 *out, struct vec3 *scaled)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        struct vec3 v = in[perm[i]];
        out[i] = v;
        v.x *= 2.0f;
        scaled[i] = v;
    }
}

int main(int argc, char **argv)
{
    static struct vec3 in[S2S_CAP], out[S2S_CAP], scaled[S2S_CAP];
    static int perm[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f32(&in[0].x, 3 * n, -5.0, 5.0);
        s2s_fill_i32(perm, n, 0, n > 0 ? n - 1 : 0);
        s2s_fill_f32(&out[0].x, 3 * S2S_CAP, 1.0, 1.0);
        s2s_fill_f32(&scaled[0].x, 3 * S2S_CAP, 1.0, 1.0);
        permute(n, in, perm, out, scaled);
        S2S_OUT("out", &out[0].x, 3 * (n + 4));
        S2S_OUT("scaled", &scaled[0].x, 3 * (n + 4));
    }
    return 0;
}
