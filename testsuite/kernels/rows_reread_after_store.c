/* s2s-test: vectorized=1 tolerance=exact */
/* rows_reread_after_store: each lane reads its row r[0..1] (a pointer per
 * lane: row loads), stores into it, and reads it again: two row groups of
 * the same row addresses with a store between.  The emitter once took the
 * two for one group (keyed by the row address vector) and copied both at
 * the first: the second read missed the store and the first group's
 * vectors were never set (found writing this session's row loads). */
#include "harness.h"

void f(int n, double *const *rows, double *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        double *r = rows[i];
        double a = r[0] + r[1];
        r[1] = a;
        out[i] = r[0] * r[1];
    }
}

int main(int argc, char **argv)
{
    static double data[2 * S2S_CAP], out[S2S_CAP + S2S_GUARD];
    static double *rows[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < 2 * n; i++)
            data[i] = (double)s2s_int(-50, 50);
        for (int i = 0; i < n; i++)
            rows[i] = data + 2 * (n - 1 - i);
        for (int i = 0; i < n + S2S_GUARD; i++)
            out[i] = 7.0;
        f(n, rows, out);
        for (int i = 0; i < n + S2S_GUARD; i++)
            s2s_out_f64("out", out[i]);
        for (int i = 0; i < 2 * n; i++)
            s2s_out_f64("data", data[i]);
    }
    return 0;
}
