/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_for_ever_break: `for (;;)` whose only exits are two breaks in
 * the middle of the body: the store before the first break happens on the
 * exiting trip too, the code after it does not; different values are live
 * out of the two breaks. */
#include "harness.h"

#define ROW 10

void trace(int n, const int32_t *x, int32_t *path, int32_t *res, int32_t *trips)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t v = x[i], t = 0, r;
        for (;;) {
            path[i * ROW + t] = v;
            if (v <= 1) {
                r = v * 1000;
                break;
            }
            v = v % 2 ? v + 1 : v / 2;
            t++;
            if (t == ROW - 1) {
                r = -v;
                break;
            }
        }
        res[i] = r;
        trips[i] = t;
    }
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP], path[S2S_CAP * ROW], res[S2S_CAP], trips[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(-3, 1) : (int32_t)s2s_int(2, 2000);
            s2s_fill_i32(path, S2S_CAP * ROW, 8, 8);
            s2s_fill_i32(res, S2S_CAP, 8, 8);
            s2s_fill_i32(trips, S2S_CAP, 8, 8);
            trace(n, s2s_tail(0, x, n * sizeof x[0]), path, res, trips);
            S2S_OUT("path", path, (n + S2S_GUARD) * ROW);
            S2S_OUT("res", res, n + S2S_GUARD);
            S2S_OUT("trips", trips, n + S2S_GUARD);
        }
    }
    return 0;
}
