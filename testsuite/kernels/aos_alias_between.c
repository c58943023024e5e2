/* s2s-test: vectorized=1 tolerance=exact */
/* aos_alias_between: a store through another pointer into the same records
 * between two field accesses: the group must end there (the later read of z
 * sees the new value, the earlier write of x is not lost). */
#include "harness.h"

struct v3d { double x, y, z; };

void upd(int n, struct v3d *p, double *zs)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        p[i].x = p[i].y + 1.0;
        zs[3 * i] = p[i].x * 2.0;      /* zs aliases p[i].z */
        p[i].y = p[i].z - p[i].x;
        p[i].z = p[i].y * 0.5;
    }
}

int main(int argc, char **argv)
{
    static struct v3d src[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(&src[0].x, 3 * S2S_CAP, -4.0, 4.0);
        struct v3d *p = s2s_tail(0, src, (size_t)n * sizeof src[0]);
        upd(n, p, &p[0].z);
        S2S_OUT("p", &p[0].x, 3 * n);
    }
    return 0;
}
