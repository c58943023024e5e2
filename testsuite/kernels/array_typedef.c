/* s2s-test: vectorized=7 tolerance=exact */
/* array_typedef: array types written through typedefs (typedef int V[4]):
 * a local of the loop body, parameters (V *rows, V w: a pointer), a struct
 * member, a table declared before the loop, a private array, the same
 * through a typedef chain, a two-dimensional typedef as a parameter and an
 * array of an array typedef in the body. */
#include "harness.h"

typedef int V[4];
typedef V V2;
typedef double M[3];
typedef float F8[8];
typedef double M33[3][3];
typedef V VV[2];
struct S { M p; double w; };

void k_local(int n, const int *a, int *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        V2 t;
        t[0] = a[i];
        t[1] = a[i] * 3;
        t[2] = -a[i];
        t[3] = i;
        o[i] = t[0] + t[1] * t[2] - t[3];
    }
}

void k_params(int n, const V *rows, V w, int *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o[i] = rows[i][0] * w[0] + rows[i][1] * w[1] + rows[i][2] * w[2] +
               rows[i][3] * w[3] + w[i & 3];
}

void k_member(int n, struct S *s, double *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        o[i] = (s[i].p[0] + s[i].p[1] + s[i].p[2]) * s[i].w;
        s[i].p[1] = o[i];
    }
}

void k_table(int n, const float *a, float *o)
{
    F8 tab = {1, 2, 3, 4, 5, 6, 7, 8};
#pragma omp simd
    for (int i = 0; i < n; i++)
        o[i] = a[i] * tab[i & 7];
}

void k_private(int n, const int *a, int *o)
{
    V t;
#pragma omp simd private(t)
    for (int i = 0; i < n; i++) {
        t[0] = a[i];
        t[1] = t[0] + i;
        t[2] = t[1] * 2;
        t[3] = t[2] - t[0];
        o[i] = t[3];
    }
}

void k_matrix(int n, M33 m, const double *a, double *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o[i] = a[i] * m[i % 3][(i + 1) % 3] + m[2][2];
}

void k_nested_local(int n, const int *a, int *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        VV w;
        w[0][0] = a[i];
        w[1][3] = 2 * i;
        w[1][0] = w[0][0] - w[1][3];
        o[i] = w[0][0] * w[1][0] + w[1][3];
    }
}

static int a[S2S_CAP], o[S2S_CAP];
static V rows[S2S_CAP];
static struct S s[S2S_CAP];
static double od[S2S_CAP], ad[S2S_CAP];
static M33 mat;
static float af[S2S_CAP], of[S2S_CAP];

int main(int argc, char **argv)
{
    V w = {3, -1, 4, -2};
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, S2S_CAP, -1000, 1000);
        s2s_fill_i32(o, S2S_CAP, 7, 7);
        k_local(n, a, o);
        S2S_OUT("local", o, n + S2S_GUARD);

        s2s_fill_i32(&rows[0][0], 4 * S2S_CAP, -50, 50);
        s2s_fill_i32(o, S2S_CAP, 7, 7);
        k_params(n, rows, w, o);
        S2S_OUT("params", o, n + S2S_GUARD);

        s2s_fill_f64(&s[0].p[0], 4 * S2S_CAP, -3.0, 3.0);
        s2s_fill_f64(od, S2S_CAP, 0.0, 0.0);
        k_member(n, s, od);
        S2S_OUT("member", od, n + S2S_GUARD);
        S2S_OUT("member.s", &s[0].p[0], 4 * (n + S2S_GUARD));

        s2s_fill_f32(af, S2S_CAP, -2.0, 2.0);
        s2s_fill_f32(of, S2S_CAP, 0.0, 0.0);
        k_table(n, af, of);
        S2S_OUT("table", of, n + S2S_GUARD);

        s2s_fill_i32(o, S2S_CAP, 7, 7);
        k_private(n, a, o);
        S2S_OUT("private", o, n + S2S_GUARD);

        s2s_fill_f64(&mat[0][0], 9, -2.0, 2.0);
        s2s_fill_f64(ad, S2S_CAP, -5.0, 5.0);
        s2s_fill_f64(od, S2S_CAP, 0.0, 0.0);
        k_matrix(n, mat, ad, od);
        S2S_OUT("matrix", od, n + S2S_GUARD);

        s2s_fill_i32(o, S2S_CAP, 7, 7);
        k_nested_local(n, a, o);
        S2S_OUT("nested_local", o, n + S2S_GUARD);
    }
    return 0;
}
