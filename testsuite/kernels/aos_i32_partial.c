/* s2s-test: vectorized=2 tolerance=exact */
/* aos_i32_partial: 4 int32 fields, the loop writes only a and c (the group
 * writes b and d back as it read them) and reads b twice, once after a
 * store to another field; set_ac only writes a and c (b and d are read
 * first, then written back unchanged); records end at a guard page. */
#include "harness.h"

struct quad { int32_t a, b, c, d; };

void mix(int n, struct quad *q, int32_t k)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        q[i].a = q[i].b * k + q[i].d;
        q[i].c = (q[i].c ^ q[i].b) - q[i].a;
    }
}

void set_ac(int n, struct quad *q, const int32_t *x)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        q[i].a = v + 1;
        q[i].c = -v;
    }
}

int main(int argc, char **argv)
{
    static struct quad src[S2S_CAP];
    static int32_t x[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(&src[0].a, 4 * S2S_CAP, -100000, 100000);
        struct quad *q = s2s_tail(0, src, (size_t)n * sizeof src[0]);
        mix(n, q, 7);
        S2S_OUT("q", &q[0].a, 4 * n);
        s2s_fill_i32(x, S2S_CAP, -100000, 100000);
        set_ac(n, q, x);
        S2S_OUT("q2", &q[0].a, 4 * n);
    }
    return 0;
}
