/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_linear_lastprivate_loop: a linear(j:3) variable used inside a
 * divergent loop as a base index, and a lastprivate variable last written
 * inside a divergent loop (or left from before it when the lane's loop
 * runs zero times): after the simd loop j and the lastprivate hold the
 * sequentially last values. */
#include "harness.h"

void lin(int n, const int32_t *x, const int32_t *len, int32_t *y, int32_t *j_out, int32_t *last_out)
{
    int32_t j = 5, last = -1;
#pragma omp simd linear(j : 3) lastprivate(last)
    for (int i = 0; i < n; i++) {
        last = -i;
        int32_t s = 0;
        for (int32_t k = 0; k < len[i]; k++) {
            s += x[j + k];
            last = s;
        }
        y[i] = s;
        j += 3;
    }
    *j_out = j;
    *last_out = last;
}

int main(int argc, char **argv)
{
    static int32_t x[3 * S2S_CAP + 40], len[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_i32(x, 3 * n + 40, -1000, 1000);
            for (int i = 0; i < n; i++)
                len[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 30) : 0;
            s2s_fill_i32(y, S2S_CAP, 2, 2);
            int32_t jo = 0, lo = 0;
            lin(n, s2s_tail(0, x, (size_t)(3 * n + 40) * sizeof x[0]), s2s_tail(1, len, n * sizeof len[0]),
                y, &jo, &lo);
            S2S_OUT("y", y, n + S2S_GUARD);
            s2s_out_i64("j", jo);
            if (n > 0) s2s_out_i64("last", lo);
        }
    }
    return 0;
}
