/* s2s-test: vectorized=2 tolerance=exact cflags="-fopenmp" */
/* lastprivate_struct: a struct (with a nested struct member) lastprivate
 * on simd and on parallel for simd: each lane has its own copy, and after
 * the loop the variable holds the copy of the sequentially last iteration,
 * field by field (gcc's libgomp simd tests have such loops; s2svec kept
 * them scalar).  The fields are set under divergent control, and the
 * struct is read inside the iteration after it is set. */
#include "harness.h"

struct inner { double d; short s; };
struct rec { int x; struct inner in; unsigned char tag; };

struct rec kern(int n, const int *a, int *o, struct rec *par)
{
    struct rec r = {-1, {-2.0, -3}, 4};
#pragma omp simd lastprivate(r)
    for (int i = 0; i < n; i++) {
        r.x = a[i] * 2;
        if (a[i] > 0) {
            r.in.d = a[i] * 0.5;
            r.tag = (unsigned char)i;
        } else {
            r.in.d = -1.0;
            r.tag = 7;
        }
        r.in.s = (short)(i - r.x);
        o[i] = r.x + r.in.s;
    }
    struct rec q = {0, {0.0, 0}, 0};
#pragma omp parallel for simd lastprivate(q) num_threads(2)
    for (int i = 0; i < n; i++) {
        q.x = a[n - 1 - i];
        q.in.d = q.x * 1.5;
        q.in.s = (short)i;
        q.tag = (unsigned char)(a[i] & 0xff);
    }
    *par = q;
    return r;
}

static void out_rec(const char *name, const struct rec *r)
{
    S2S_OUT(name, &r->x, 1);
    S2S_OUT(name, &r->in.d, 1);
    S2S_OUT(name, &r->in.s, 1);
    S2S_OUT(name, &r->tag, 1);
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], o[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) o[i] = 5;
        struct rec q;
        struct rec r = kern(n, a, o, &q);
        if (n > 0) {  /* no iteration: gcc's -fopenmp builds copy out an unset copy */
            out_rec("r", &r);
            out_rec("q", &q);
        }
        S2S_OUT("o", o, n + S2S_GUARD);
    }
    return 0;
}
