/* s2s-test: vectorized=1 tolerance=exact report="calls.inlined=5 calls.serialized=0" */
/* call_inline_control: callees with the control flow the loop body may
 * have -- an early return from inside a loop (a divergent loop with two
 * exits once inlined), a switch with fall-through, a void function
 * storing through a pointer parameter under a condition, a local array
 * (per-lane storage), a parameter whose address is taken and several
 * returns -- each inlined into a divergent branch of the loop. */
#include "harness.h"

static int32_t first_above(const int32_t *v, int32_t len, int32_t t)
{
    for (int32_t k = 0; k < len; k++)
        if (v[k] > t)
            return k;
    return -1;
}

static int32_t classify(int32_t x)
{
    int32_t r = 0;
    switch (x & 7) {
    case 0:
        r += 100;
    case 1:
        r += 10;
        break;
    case 5:
        return -x;
    default:
        r = x * 3;
    }
    return r;
}

static void store_if_even(int32_t *dst, int32_t value)
{
    if ((value & 1) != 0)
        return;
    *dst = value;
}

static int32_t digits_sum(int32_t x)
{
    int32_t d[12];
    int32_t k = 0;
    uint32_t u = x < 0 ? (uint32_t)-(int64_t)x : (uint32_t)x;
    do {
        d[k++] = (int32_t)(u % 10u);
        u /= 10u;
    } while (u != 0 && k < 12);
    int32_t s = 0;
    while (k > 0)
        s = s * 3 + d[--k];
    return s;
}

static int32_t bump(int32_t x)
{
    int32_t *p = &x;
    *p += 7;
    return x;
}

void run(int n, const int32_t *x, const int32_t *table, int32_t len, int32_t *y, int32_t *z)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t v = x[i];
        int32_t r;
        if (v > 0)
            r = first_above(table, len, v);
        else
            r = classify(-v) + digits_sum(v);
        store_if_even(&z[i], bump(r));
        y[i] = r;
    }
}

int main(int argc, char **argv)
{
    static int32_t x[S2S_CAP], y[S2S_CAP], z[S2S_CAP], table[64];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int k = 0; k < 64; k++)
            table[k] = (int32_t)s2s_int(-50, 1000);
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++)
                x[i] = s2s_pattern(p, i, n) ? (int32_t)s2s_int(1, 1100)
                                            : (int32_t)s2s_int(-2000000000, 0);
            s2s_fill_i32(y, S2S_CAP, 1, 1);
            s2s_fill_i32(z, S2S_CAP, 3, 3);
            run(n, s2s_tail(0, x, n * sizeof x[0]), table, 1 + (int32_t)s2s_int(0, 63), y, z);
            S2S_OUT("y", y, n + S2S_GUARD);
            S2S_OUT("z", z, n + S2S_GUARD);
        }
    }
    return 0;
}
