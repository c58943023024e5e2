/* s2s-test: vectorized=1 tolerance=exact report="calls.inlined=6 calls.serialized=0" */
/* call_inline_structs: structs passed to and returned from functions of
 * the file by value: a parameter struct the same for every lane (read in
 * place, never copied), a struct the callee modifies (its own copy), a
 * struct result assigned to a local, passed on directly and stored into
 * an array of structs, and a struct argument whose address another
 * argument also passes (copied, so writes through the pointer do not
 * show in the value). */
#include "harness.h"

typedef struct { double scale; int32_t nsteps; double bias[3]; } Params;
typedef struct { double lo, hi; } Range;
struct vec { double x, y; };

static Range range_of(Params p, double v)
{
    Range r;
    r.lo = v * p.scale - p.bias[0];
    r.hi = v * p.scale + p.bias[1];
    return r;
}

static double narrowed(Range r, Params p)
{
    for (int32_t k = 0; k < p.nsteps; k++)
        r.hi = r.hi * 0.5 + r.lo * 0.5;
    return r.hi - r.lo;
}

static struct vec turn(struct vec a)
{
    struct vec b = { -a.y, a.x };
    return b;
}

static double poke(struct vec v, struct vec *same)
{
    same->x = 100.0;
    return v.x + v.y;
}

void run(int n, const double *x, double *y, Params prm, struct vec *pts, double *w)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        Range r = range_of(prm, x[i]);
        y[i] = narrowed(r, prm) + narrowed(range_of(prm, 1.0), prm);
        struct vec v = pts[i];
        w[i] = x[i] > 0.0 ? poke(v, &v) + v.x : 0.0;
        pts[i] = turn(v);
    }
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP], w[S2S_CAP];
    static struct vec pts[S2S_CAP];
    static double flat[2 * S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        Params p = { s2s_f64(0.5, 2.0), (int32_t)s2s_int(0, 4),
                     { s2s_f64(0.0, 1.0), s2s_f64(0.0, 1.0), 0.75 } };
        s2s_fill_f64(x, n, -3.0, 3.0);
        s2s_fill_f64(y, S2S_CAP, 1.0, 1.0);
        s2s_fill_f64(w, S2S_CAP, 2.0, 2.0);
        for (int i = 0; i < S2S_CAP; i++) {
            pts[i].x = s2s_f64(-5.0, 5.0);
            pts[i].y = s2s_f64(-5.0, 5.0);
        }
        run(n, s2s_tail(0, x, n * sizeof x[0]), y, p, pts, w);
        S2S_OUT("y", y, n + S2S_GUARD);
        S2S_OUT("w", w, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) {
            flat[2 * i] = pts[i].x;
            flat[2 * i + 1] = pts[i].y;
        }
        S2S_OUT("pts", flat, 2 * (n + S2S_GUARD));
    }
    return 0;
}
