/* s2s-test: vectorized=4 tolerance=exact */
/* loop_variable_address: the loop variable's address taken in the body
 * (gcc's libgomp simd tests pass `&i` to helpers).  OpenMP makes the
 * variable private to each iteration, so `&i` in lane k is lane k's copy:
 * read through a local pointer, passed to a function inlined into the
 * loop and to one that is not (an opaque call per lane), in a divergent
 * branch, and with the variable declared before the loop (its final value
 * read after it), and both variables of a collapsed nest.  s2svec refused every such loop ("address of a register
 * variable"). */
#include "harness.h"

static int read_through(const int *p) { return *p * 3; }

__attribute__((noinline)) int opaque_read(const long *p, int k)
{
    return (int)(*p % 7) + k;
}

int kern(int n, const int *a, int *o1, int *o2, int *o3, int *o4)
{
    int i;
#pragma omp simd
    for (i = 0; i < n; i++) {
        int *p = &i;
        o1[i] = *p + a[i];
    }
    int after = i;
#pragma omp simd
    for (int j = 0; j < n; j++) {
        if (a[j] > 0)
            o2[j] = read_through(&j);
        else
            o2[j] = -j;
    }
#pragma omp simd
    for (long k = 0; k < n; k++)
        o3[k] = a[k] < 0 ? opaque_read(&k, a[k]) : 5;
#pragma omp simd collapse(2)
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < n / 4; c++)
            o4[r * (n / 4) + c] = read_through(&r) - read_through(&c) + a[c];
    return after;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], o1[S2S_CAP], o2[S2S_CAP], o3[S2S_CAP], o4[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) { o1[i] = 1; o2[i] = 2; o3[i] = 3; o4[i] = 4; }
        int last = kern(n, a, o1, o2, o3, o4);
        S2S_OUT("last", &last, 1);
        S2S_OUT("o1", o1, n + S2S_GUARD);
        S2S_OUT("o2", o2, n + S2S_GUARD);
        S2S_OUT("o3", o3, n + S2S_GUARD);
        S2S_OUT("o4", o4, n + S2S_GUARD);
    }
    return 0;
}
