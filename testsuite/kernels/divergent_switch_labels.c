/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_switch_labels: a switch on loaded data (divergent) with several
 * case labels per arm, a negative label, a label far from the others and
 * default last; each arm computes and stores something different. */
#include "harness.h"

void classify(int n, const int32_t *k, const int32_t *x, int32_t *y, int32_t *z)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t v = x[i], w = 0;
        switch (k[i]) {
        case 0:
        case 1:
        case 2:
            v = v * 3;
            w = 1;
            break;
        case 3:
        case 5:
            v = v - 100;
            w = 2;
            break;
        case -1:
        case 1000:
            v = -v;
            w = 3;
            break;
        case 4:
            z[i] = v;       /* a store in only one arm */
            w = 4;
            break;
        default:
            v = v ^ 0x55;
            w = 5;
            break;
        }
        y[i] = v * 16 + w;
    }
}

int main(int argc, char **argv)
{
    static int32_t k[S2S_CAP], x[S2S_CAP], y[S2S_CAP], z[S2S_CAP];
    static const int32_t keys[] = {0, 1, 2, 3, 4, 5, -1, 1000, 6, 7, -2, 999, 1001};
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS + 4; p++) {
            for (int i = 0; i < n; i++) {
                if (p < S2S_NPATTERNS)   /* pattern lanes: case 4 (store), others mixed */
                    k[i] = s2s_pattern(p, i, n) ? 4 : keys[s2s_int(0, 12)];
                else                     /* uniform keys: all lanes take one arm */
                    k[i] = keys[(p - S2S_NPATTERNS) * 2];
                x[i] = (int32_t)s2s_int(-100000, 100000);
            }
            s2s_fill_i32(y, S2S_CAP, 1, 1);
            s2s_fill_i32(z, S2S_CAP, 2, 2);
            classify(n, s2s_tail(0, k, n * sizeof k[0]), s2s_tail(1, x, n * sizeof x[0]), y, z);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("z", z, n + S2S_GUARD);
        }
    }
    return 0;
}
