/* s2s-test: vectorized=4 tolerance=exact */
/* scalable_many_lanes: loops of byte and short elements, which take the
 * most lanes a vector has (256 bytes at 2048-bit SVE vectors, 128 at RISC-V
 * VLEN 1024), run at sizes around multiples of 128, 256 and 512 besides the
 * harness's, so that full vectors, the masked last iteration and their
 * boundary meet at every vector length.  What depends on the lane count is
 * read at run time: the last lane's value of a uniform store, the lowest
 * address of a loop walking downwards, a lastprivate variable, the final
 * value of the loop variable, and the count of a divergent loop's lanes. */
#include "harness.h"

int last_byte(int n, const signed char *a, signed char *out, signed char *last)
{
    int i;
#pragma omp simd
    for (i = 0; i < n; i++) {
        signed char v = (signed char)(a[i] * 3 + 1);
        if (v > 20)
            out[i] = (signed char)(v - a[i]);
        else
            out[i] = v;
        *last = v;
    }
    return i;
}

void down_short(int n, const short *a, short *b)
{
#pragma omp simd
    for (int i = n - 1; i >= 0; i--)
        b[i] = (short)(a[i] * 2 - i);
}

short cond_last(int n, const short *a)
{
    short seen = -1;
#pragma omp simd lastprivate(conditional: seen)
    for (int i = 0; i < n; i++)
        if (a[i] > 100)
            seen = a[i];
    return seen;
}

void steps(int n, const unsigned char *a, unsigned char *trips)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        unsigned v = a[i], t = 0;
        while (v > 1) {
            v = (v & 1) ? 3 * v + 1 : v / 2;
            t++;
            if (t > 200)
                break;
        }
        trips[i] = (unsigned char)t;
    }
}

static const int sizes[] = {127, 128, 129, 255, 256, 257, 511, 512, 513, 767, 1000};

static void run(int n)
{
    static signed char a[S2S_CAP], out[S2S_CAP];
    static short s[S2S_CAP], b[S2S_CAP];
    static unsigned char u[S2S_CAP], trips[S2S_CAP];
    signed char last = 7;
    for (int i = 0; i < n; i++) {
        a[i] = (signed char)s2s_int(-40, 40);
        u[i] = (unsigned char)s2s_int(0, 255);
    }
    s2s_fill_i16(s, n, -300, 300);
    for (int i = 0; i < S2S_CAP; i++) {
        out[i] = 9;
        trips[i] = 9;
        b[i] = 9;
    }
    int end = last_byte(n, s2s_tail(0, a, (size_t)n), out, &last);
    down_short(n, s2s_tail(1, s, n * sizeof s[0]), b);
    short seen = cond_last(n, s2s_tail(2, s, n * sizeof s[0]));
    steps(n, s2s_tail(3, u, (size_t)n), trips);
    S2S_OUT("out", out, n + S2S_GUARD);
    S2S_OUT("b", b, n + S2S_GUARD);
    S2S_OUT("trips", trips, n + S2S_GUARD);
    s2s_out_i64("last", last);
    s2s_out_i64("end", end);
    s2s_out_i64("seen", seen);
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) run(n);
    for (int k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
        s2s_begin_size(sizes[k]);
        run(sizes[k]);
    }
    return 0;
}
