/* s2s-test: vectorized=1 tolerance=exact */
/* comments_and_macros_preserved: macros (object-like, function-like, used
 * inside the loop) and comments around the loop stay as written; every line
 * marked s2s-keep must be in the output exactly once. */
#include "harness.h"

#define SCALE 3            /* s2s-keep */
#define SQ(v) ((v) * (v))  /* s2s-keep */
#define LIMIT(n) ((n) > 0 ? (n) : 0)   /* s2s-keep */

/* s2s-keep: a block comment before the function
 *   with a second line */
static double offset_of(int k) { return 0.125 * k; }   /* s2s-keep */

// s2s-keep: a line comment
void macro_loop(int n, const double *x, double *y)
{
    double off = offset_of(SCALE);   // s2s-keep: scalar code before the loop
#pragma omp simd
    for (int i = 0; i < LIMIT(n); i++)
        y[i] = SQ(x[i]) * SCALE + off;
    /* s2s-keep: after the loop */
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(x, n, -2.0, 2.0);
        s2s_fill_f64(y, S2S_CAP, 6.0, 6.0);
        macro_loop(n, s2s_tail(0, x, n * sizeof x[0]), y);
        S2S_OUT("y", y, n + S2S_GUARD);
    }
    return 0;
}
