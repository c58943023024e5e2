/* s2s-test: vectorized=1 tolerance=exact */
/* unsigned_iv: an unsigned induction variable, used in wrapping unsigned
 * arithmetic (multiplicative hash) and as an index. */
#include "harness.h"

void hash_iv(unsigned n, unsigned seed, unsigned *y)
{
#pragma omp simd
    for (unsigned i = 0; i < n; i++)
        y[i] = (i + seed) * 2654435761u ^ (i >> 1);
}

int main(int argc, char **argv)
{
    static unsigned y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u32(y, S2S_CAP);
        hash_iv((unsigned)n, 0xfffffff0u, y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
