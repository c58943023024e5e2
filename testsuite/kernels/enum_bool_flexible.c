/* s2s-test: vectorized=4 tolerance=exact */
/* enum_bool_flexible: enums (values, a loop variable of enum type), _Bool
 * and bool (stores of 0/1), typedef chains of scalars, and a flexible array
 * member read through a uniform struct pointer. */
#include <stdbool.h>
#include <stdlib.h>
#include "harness.h"

enum color { RED, GREEN = 5, BLUE };
typedef int I1;
typedef I1 I2;
typedef const I2 I3;
struct flex { int n; double scale; double d[]; };

void k_enum(int n, enum color *c, int *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        enum color k = c[i];
        o[i] = k == GREEN ? BLUE : (k == BLUE ? RED : GREEN);
        c[i] = (enum color)(o[i] + 0);
    }
}

void k_bool(int n, const int *a, _Bool *b, bool *c, int *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        _Bool t = a[i] > 3;
        b[i] = t;
        c[i] = !t || a[i] < -3;
        o[i] = b[i] + 2 * c[i];
    }
}

void k_typedef_chain(int n, I2 *o, I3 *a)
{
#pragma omp simd
    for (I2 i = 0; i < n; i++) {
        I1 t = a[i];
        o[i] = t * 2 - (I3)i;
    }
}

void k_flexible(int n, const struct flex *f, double *o)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o[i] = f->d[i] * f->scale + f->n;
}

static enum color c[S2S_CAP];
static int a[S2S_CAP], o[S2S_CAP];
static _Bool b[S2S_CAP];
static bool bb[S2S_CAP];
static double od[S2S_CAP];

int main(int argc, char **argv)
{
    struct flex *f = malloc(sizeof *f + S2S_CAP * sizeof(double));
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < S2S_CAP; i++)
            c[i] = (enum color)(s2s_int(0, 2) == 0 ? RED : s2s_int(0, 1) ? GREEN : BLUE);
        s2s_fill_i32(o, S2S_CAP, 9, 9);
        k_enum(n, c, o);
        S2S_OUT("enum.o", o, n + S2S_GUARD);
        S2S_OUT("enum.c", c, n + S2S_GUARD);

        s2s_fill_i32(a, S2S_CAP, -6, 6);
        for (int i = 0; i < S2S_CAP; i++) b[i] = bb[i] = 0;
        s2s_fill_i32(o, S2S_CAP, 9, 9);
        k_bool(n, a, b, bb, o);
        S2S_OUT("bool.b", b, n + S2S_GUARD);
        S2S_OUT("bool.c", bb, n + S2S_GUARD);
        S2S_OUT("bool.o", o, n + S2S_GUARD);

        s2s_fill_i32(o, S2S_CAP, 9, 9);
        k_typedef_chain(n, o, a);
        S2S_OUT("chain", o, n + S2S_GUARD);

        f->n = (int)s2s_int(-3, 3);
        f->scale = s2s_f64(-2.0, 2.0);
        s2s_fill_f64(f->d, S2S_CAP, -1.0, 1.0);
        s2s_fill_f64(od, S2S_CAP, 0.0, 0.0);
        k_flexible(n, f, od);
        S2S_OUT("flexible", od, n + S2S_GUARD);
    }
    free(f);
    return 0;
}
