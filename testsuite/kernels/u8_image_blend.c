/* s2s-test: vectorized=1 tolerance=exact */
/* u8_image_blend: an all-byte loop (up to 64 lanes on AVX-512):
 * (a*alpha + b*(255-alpha) + 127) / 255 computed in int, stored as bytes. */
#include "harness.h"

void blend(int n, const unsigned char *a, const unsigned char *b, unsigned char alpha, unsigned char *out)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = (unsigned char)((a[i] * alpha + b[i] * (255 - alpha) + 127) / 255);
}

int main(int argc, char **argv)
{
    static unsigned char a[S2S_CAP], b[S2S_CAP], out[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_u8(a, n);
        s2s_fill_u8(b, n);
        s2s_fill_u8(out, S2S_CAP);
        blend(n, s2s_tail(0, a, n), s2s_tail(1, b, n), 77, out);
        S2S_OUT("out", out, n + S2S_GUARD);
    }
    return 0;
}
