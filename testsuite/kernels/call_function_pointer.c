/* s2s-test: vectorized=1 tolerance=exact report="calls.serialized=2 calls.inlined=1" */
/* call_function_pointer: calls through function pointers -- a parameter
 * of the loop's function and a global -- run lane by lane under the mask
 * of their divergent condition (the loop is vectorized around them); a
 * callee reached through a pointer parameter of an inlined function keeps
 * that function a call (here: inlined, since the pointer is a global). */
#include "harness.h"

typedef int64_t (*step_fn)(int64_t);

static int64_t triple(int64_t v) { return 3 * v + 1; }
static int64_t half(int64_t v) { return v / 2; }

step_fn global_step = half;

static int64_t apply_global(int64_t v)
{
    return v > 100 ? global_step(v) : v;
}

void run(int n, const int64_t *x, int64_t *y, step_fn f)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int64_t v = x[i];
        if ((v & 1) != 0)
            v = f(v);
        y[i] = apply_global(v);
    }
}

int main(int argc, char **argv)
{
    static int64_t x[S2S_CAP], y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? 2 * s2s_int(0, 500) + 1 : 2 * s2s_int(0, 500);
            s2s_fill_i64(y, S2S_CAP, 5, 5);
            run(n, s2s_tail(0, x, n * sizeof x[0]), y, triple);
            S2S_OUT("y", y, n + S2S_GUARD);
        }
    }
    return 0;
}
