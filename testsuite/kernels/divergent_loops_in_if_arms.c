/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_loops_in_if_arms: two different divergent loops in the two
 * arms of a divergent if (loops under divergent control): lanes in the
 * then-arm run a while loop, lanes in the else-arm a for loop with a
 * break, and the values they leave join after the if.  (`v = -v;` right
 * after the loop in the arm is a separate, known failure.) */
#include "harness.h"

void arms(int n, const int32_t *x, int32_t *y, int32_t *z)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t v = x[i], c = 0;
        if (v >= 0) {
            while (v >= 10) {
                v = v / 10 + v % 10;
                c++;
            }
        } else {
            for (c = 0; c < 30; c++) {
                v = v / 2;
                if (v > -3)
                    break;
            }
        }
        y[i] = x[i] < 0 ? -v : v;
        z[i] = c;
    }
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP], y[S2S_CAP], z[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_u32() & 0x7fffffff : -(int32_t)(s2s_u32() & 0x7fffffff);
            s2s_fill_i32(y, S2S_CAP, 5, 5);
            s2s_fill_i32(z, S2S_CAP, 5, 5);
            arms(n, s2s_tail(0, x, n * sizeof x[0]), y, z);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("z", z, n + S2S_GUARD);
        }
    }
    return 0;
}
