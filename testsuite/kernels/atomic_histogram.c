/* s2s-test: vectorized=1 tolerance=exact report="calls.serialized=6" */
/* atomic_histogram: `#pragma omp atomic` updates of histogram bins whose
 * indices collide within a vector (bins 0..7, runs of one bin): every
 * lane's update must count.  Integer `+=` and `++` (a fetch-and-add), a
 * double `+=` (a compare-and-exchange loop; lanes in iteration order, so
 * the sums are exact), the `x = x * e` and `x = e - x` forms on unsigned
 * char bins (computed in int, wrapped back), `<<=` on unsigned bins. */
#include "harness.h"

#define BINS 8

void hist(int n, const int32_t *idx, const double *w, int32_t *count, int32_t *hits,
          double *weight, uint8_t *prod, uint8_t *flip, uint32_t *bits)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int k = idx[i];
#pragma omp atomic
        count[k] += 1;
#pragma omp atomic update
        hits[(k + 3) & (BINS - 1)]++;
#pragma omp atomic
        weight[k] += w[i];
#pragma omp atomic
        prod[k] = prod[k] * (uint8_t)(k + 3);
#pragma omp atomic
        flip[k] = (uint8_t)(200 + i % 7) - flip[k];
#pragma omp atomic
        bits[k] <<= (i & 1);
    }
}

int main(int argc, char **argv)
{
    static int32_t idx[S2S_CAP];
    static double w[S2S_CAP];
    int32_t count[BINS], hits[BINS];
    double weight[BINS];
    uint8_t prod[BINS], flip[BINS];
    uint32_t bits[BINS];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < 3; p++) {
            for (int i = 0; i < n; i++)   /* random, runs of one bin, all in bin 5 */
                idx[i] = p == 0 ? (int32_t)s2s_int(0, BINS - 1) : p == 1 ? (i / 5) % BINS : 5;
            for (int i = 0; i < n; i++)
                w[i] = (double)s2s_int(-1000, 1000) / 8.0;
            for (int b = 0; b < BINS; b++) {
                count[b] = b;
                hits[b] = -b;
                weight[b] = 0.5 * b;
                prod[b] = (uint8_t)(b + 1);
                flip[b] = (uint8_t)(3 * b);
                bits[b] = 1u + (uint32_t)b;
            }
            hist(n, s2s_tail(0, idx, n * sizeof idx[0]), s2s_tail(1, w, n * sizeof w[0]), count,
                 hits, weight, prod, flip, bits);
            S2S_OUT("count", count, BINS);
            S2S_OUT("hits", hits, BINS);
            S2S_OUT("weight", weight, BINS);
            S2S_OUT("prod", prod, BINS);
            S2S_OUT("flip", flip, BINS);
            S2S_OUT("bits", bits, BINS);
        }
    }
    return 0;
}
