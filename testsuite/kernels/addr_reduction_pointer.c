/* s2s-test: vectorized=3 tolerance=exact */
/* addr_reduction_pointer: reduction variables whose address is taken live
 * in per-lane stack storage, each lane's copy starting at the operator's
 * identity and combined with the original value after the loop: &s passed
 * to an inlined function in one arm of a divergent branch and a pointer to
 * it in the other, &lo passed to an inlined min update, a pointer to hi
 * compared and written under a branch; &t passed to a recursive
 * function, which runs lane by lane on each lane's copy; a pointer that
 * selects per lane between a private variable and the reduction variable
 * (the copies stay in memory, one per lane). */
#include "harness.h"

static void add_to(long long *s, long long v)
{
    *s += v;
}

static void keep_min(int *m, int v)
{
    if (v < *m)
        *m = v;
}

static void add_deep(unsigned *t, unsigned v, int depth)
{
    if (depth > 0)
        add_deep(t, v ^ 1u, depth - 1);
    else
        *t += v;
}

void sum_min_max(int n, const int *x, long long *sum, int *lo_out, int *hi_out)
{
    long long s = 7;
    int lo = 1 << 20, hi = -(1 << 20);
#pragma omp simd reduction(+:s) reduction(min:lo) reduction(max:hi)
    for (int i = 0; i < n; i++) {
        int v = x[i];
        if (v & 1) {
            add_to(&s, v);
        } else {
            long long *ps = &s;
            *ps += 2LL * v;
        }
        keep_min(&lo, v);
        int *ph = &hi;
        if (v > *ph)
            *ph = v;
    }
    *sum = s;
    *lo_out = lo;
    *hi_out = hi;
}

unsigned deep_sum(int n, const unsigned *x)
{
    unsigned t = 5u;
#pragma omp simd reduction(+:t)
    for (int i = 0; i < n; i++)
        add_deep(&t, x[i], (int)(x[i] & 3u));
    return t;
}

int pick(int n, const int *x, int *y)
{
    int a = 0, s = 3;
#pragma omp simd private(a) reduction(+:s)
    for (int i = 0; i < n; i++) {
        int *p = x[i] > 0 ? &a : &s;
        a = 1;
        *p += x[i];
        y[i] = a;
    }
    return s;
}

int main(int argc, char **argv)
{
    static int x[S2S_CAP];
    static unsigned u[S2S_CAP];
    static int y[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p += 2) {
            for (int i = 0; i < n; i++) {
                x[i] = (int)s2s_int(-1000000, 1000000) * 2;
                if (s2s_pattern(p, i, n)) x[i] += 1;
            }
            long long s;
            int lo, hi;
            sum_min_max(n, s2s_tail(0, x, n * sizeof x[0]), &s, &lo, &hi);
            s2s_out_i64("s", s);
            s2s_out_i64("lo", lo);
            s2s_out_i64("hi", hi);
            for (int i = 0; i < S2S_CAP; i++) y[i] = -9;
            s2s_out_i64("pick", pick(n, s2s_tail(0, x, n * sizeof x[0]), y));
            S2S_OUT("y", y, n + S2S_GUARD);
        }
        for (int i = 0; i < n; i++) u[i] = s2s_u32();
        s2s_out_u64("t", deep_sum(n, s2s_tail(0, u, n * sizeof u[0])));
    }
    return 0;
}
