/* s2s-test: vectorized=5 tolerance=exact */
/* struct_untagged: structs without a tag.  The output must name them where
 * the loop is: the typedef name (also through a typedef chain and a const
 * typedef), or __typeof__ of a member, a variable or a pointer typedef for a
 * member struct, an array of them, a file-scope and a local array of an
 * untagged struct; the members of an anonymous struct member (C11) are
 * members of the enclosing struct. */
#include "harness.h"

typedef struct { double x, y; } P;
typedef P P2;
typedef const P CP;
typedef struct { float w; int k; } *WP;
struct O { struct { double a; int b; } in; struct { float u, v; } pair[2]; };
struct A { int tag; struct { float x, y; }; double d; };
static struct { double lo, hi; } bounds[S2S_CAP];

void k_typedef(int n, P2 *restrict out, CP *in)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        P t = in[i];
        t.x += t.y;
        out[i] = t;
        out[i].y = in[i].x * in[i].y;
    }
}

void k_member(int n, const struct O *o, double *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        r[i] = o[i].in.a * o[i].in.b + o[i].pair[i & 1].u - o[i].pair[1].v;
}

void k_anonymous_member(int n, struct A *a, float *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        r[i] = a[i].x * (float)a[i].tag + a[i].y;
        a[i].x = r[i];
        a[i].d = a[i].y;
    }
}

void k_file_scope(int n, double *r)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        r[i] = bounds[i].hi - bounds[i].lo;
        bounds[i].lo = r[i];
    }
}

void k_local_and_pointer(int n, WP w, const double *a, double *r)
{
    struct { double scale, shift; } tab[4] = {{1, 0}, {2, 1}, {0.5, -1}, {3, 2}};
#pragma omp simd
    for (int i = 0; i < n; i++)
        r[i] = a[i] * tab[i & 3].scale + tab[i & 3].shift + w[i].w * (double)w[i].k;
}

static P in[S2S_CAP], out[S2S_CAP];
static struct O o[S2S_CAP];
static struct A an[S2S_CAP];
static __typeof__(*(WP)0) ws[S2S_CAP];   /* the pointee of WP itself */
static double a[S2S_CAP], r[S2S_CAP];
static float rf[S2S_CAP];

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(&in[0].x, 2 * S2S_CAP, -4.0, 4.0);
        s2s_fill_f64(&out[0].x, 2 * S2S_CAP, 1.0, 1.0);
        k_typedef(n, out, in);
        S2S_OUT("typedef", &out[0].x, 2 * (n + S2S_GUARD));

        for (int i = 0; i < S2S_CAP; i++) {
            o[i].in.a = s2s_f64(-3.0, 3.0);
            o[i].in.b = (int)s2s_int(-9, 9);
            for (int k = 0; k < 2; k++) {
                o[i].pair[k].u = (float)s2s_f64(-2.0, 2.0);
                o[i].pair[k].v = (float)s2s_f64(-2.0, 2.0);
            }
            an[i].tag = (int)s2s_int(-5, 5);
            an[i].x = (float)s2s_f64(-2.0, 2.0);
            an[i].y = (float)s2s_f64(-2.0, 2.0);
            an[i].d = 0.0;
            bounds[i].lo = s2s_f64(-1.0, 0.0);
            bounds[i].hi = s2s_f64(0.0, 1.0);
            ws[i].w = (float)s2s_f64(-1.0, 1.0);
            ws[i].k = (int)s2s_int(-100, 100);
        }
        s2s_fill_f64(r, S2S_CAP, 0.0, 0.0);
        k_member(n, o, r);
        S2S_OUT("member", r, n + S2S_GUARD);

        s2s_fill_f32(rf, S2S_CAP, 0.0, 0.0);
        k_anonymous_member(n, an, rf);
        S2S_OUT("anonymous", rf, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++) {
            s2s_out_f64("an.x", an[i].x);
            s2s_out_f64("an.d", an[i].d);
        }

        s2s_fill_f64(r, S2S_CAP, 0.0, 0.0);
        k_file_scope(n, r);
        S2S_OUT("file_scope", r, n + S2S_GUARD);
        for (int i = 0; i < n + S2S_GUARD; i++)
            s2s_out_f64("bounds.lo", bounds[i].lo);

        s2s_fill_f64(a, S2S_CAP, -8.0, 8.0);
        s2s_fill_f64(r, S2S_CAP, 0.0, 0.0);
        k_local_and_pointer(n, ws, a, r);
        S2S_OUT("local", r, n + S2S_GUARD);
    }
    return 0;
}
