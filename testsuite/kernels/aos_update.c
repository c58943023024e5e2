/* s2s-test: vectorized=1 tolerance=exact */
/* aos_update: an array-of-structs particle push (field accesses with a
 * 48-byte stride). */
#include "harness.h"

struct particle { double x, y, z, vx, vy, vz; };

void push(int n, struct particle *p, double dt)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        p[i].x += dt * p[i].vx;
        p[i].y += dt * p[i].vy;
        p[i].z += dt * p[i].vz;
        p[i].vz -= dt * 9.81;
    }
}

int main(int argc, char **argv)
{
    static struct particle p[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(&p[0].x, 6 * S2S_CAP, -5.0, 5.0);
        push(n, p, 0.01);
        S2S_OUT("p", &p[0].x, 6 * (n + S2S_GUARD));
    }
    return 0;
}
