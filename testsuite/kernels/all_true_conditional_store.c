/* s2s-test: vectorized=2 tolerance=exact grep="_mixed:" */
/* all_true_conditional_store: arms that store contiguously get an all-true
 * path (transform/all_true.py): when every lane of a vector takes the arm
 * it runs unmasked, else masked as before.  The patterns give vectors whose
 * lanes all take the arm, none do, and mixes; the if/else stores in both
 * arms and its join merges a value computed in each; a division in the
 * arm must not trap in the lanes that do not take it. */
#include "harness.h"

void clamp_store(int n, const float *x, const int32_t *on, float *y, float t)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        float v = x[i];
        if (on[i] && v > t) {
            y[i] = v * 0.5f + t;
        }
    }
}

void split(int n, const int32_t *a, const int32_t *on, int32_t *p, int32_t *q, int32_t *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t w;
        if (on[i]) {
            w = 1000 / (a[i] | 1);
            p[i] = w + i;
        } else {
            w = a[i] * 3;
            q[i] = w;
        }
        r[i] = w - a[i];
    }
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP], y[S2S_CAP];
    static int32_t a[S2S_CAP], on[S2S_CAP], p[S2S_CAP], q[S2S_CAP], r[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int pat = 0; pat < S2S_NPATTERNS; pat++) {
            s2s_fill_f32(x, n, -2.0f, 6.0f);
            s2s_fill_i32(a, n, -50000, 50000);
            for (int i = 0; i < n; i++)
                on[i] = s2s_pattern(pat, i, n);
            s2s_fill_f32(y, S2S_CAP, -1.0f, -1.0f);
            s2s_fill_i32(p, S2S_CAP, -1, -1);
            s2s_fill_i32(q, S2S_CAP, -1, -1);
            s2s_fill_i32(r, S2S_CAP, -1, -1);
            clamp_store(n, s2s_tail(0, x, n * sizeof x[0]), s2s_tail(1, on, n * sizeof on[0]), y,
                        -3.0f);
            split(n, s2s_tail(2, a, n * sizeof a[0]), s2s_tail(3, on, n * sizeof on[0]), p, q, r);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("p", p, n + S2S_GUARD);
            S2S_OUT("q", q, n + S2S_GUARD);
            S2S_OUT("r", r, n + S2S_GUARD);
        }
    }
    return 0;
}
