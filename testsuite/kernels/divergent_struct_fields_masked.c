/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_struct_fields_masked: fields of an array of structs read and
 * written under divergent conditions (masked gathers/scatters of the
 * fields), a struct held in a local variable per lane, and a divergent
 * loop updating a field until it settles. */
#include "harness.h"

struct particle {
    double x, v;
    int32_t id, bounces;
};

void step(int n, struct particle *ps, double wall)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        struct particle p = ps[i];
        if (p.id >= 0) {
            p.x += p.v;
            while (p.x > wall || p.x < -wall) {
                p.x = p.x > wall ? 2.0 * wall - p.x : -2.0 * wall - p.x;
                p.v = -p.v;
                p.bounces++;
            }
            ps[i].x = p.x;
            ps[i].v = p.v;
            ps[i].bounces = p.bounces;
        } else {
            ps[i].id = p.id - 1;
        }
    }
}

int main(int argc, char **argv)
{
    static struct particle ps[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < S2S_CAP; i++) {
                ps[i].x = s2s_f64(-1.0, 1.0);
                ps[i].v = s2s_pattern(p, i, n) ? s2s_f64(-9.0, 9.0) : s2s_f64(-0.1, 0.1);
                ps[i].id = i % 5 == 3 ? -i : i;
                ps[i].bounces = 0;
            }
            step(n, ps, 1.0);
            S2S_OUT("ps", ps, n + S2S_GUARD);
        }
    }
    return 0;
}
