/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_parse_state_machine: each lane parses its own decimal field
 * (optional sign, digits, optional fraction, garbage) with a state
 * machine: a divergent loop around a switch on the state, whose arms
 * change the state, `break` out of the switch, `continue` the loop, or
 * end the loop through the state.  Value, status and length live out. */
#include "harness.h"

#define ROW 12

enum { START, INT, FRAC, DONE, BAD };

void parse(int n, const uint8_t *txt, int64_t *val, int32_t *status, int32_t *used)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t st = START, k = 0, neg = 0, fd = 0;
        int64_t v = 0;
        while (st != DONE && st != BAD && k < ROW) {
            uint8_t c = txt[i * ROW + k];
            k++;
            switch (st) {
            case START:
                if (c == '-') {
                    neg = 1;
                    st = INT;
                    continue;
                }
                if (c == '+') {
                    st = INT;
                    continue;
                }
                /* fall through */
            case INT:
                if (c >= '0' && c <= '9') {
                    v = v * 10 + (c - '0');
                    st = INT;
                } else if (c == '.') {
                    st = FRAC;
                } else {
                    st = c == ' ' ? DONE : BAD;
                }
                break;
            case FRAC:
                if (c >= '0' && c <= '9') {
                    v = v * 10 + (c - '0');
                    fd++;
                    break;
                }
                st = c == ' ' ? DONE : BAD;
                break;
            }
        }
        val[i] = neg ? -v : v;
        status[i] = st * 100 + fd;
        used[i] = k;
    }
}

int main(int argc, char **argv)
{
    static uint8_t txt[S2S_CAP * ROW];
    static int64_t val[S2S_CAP];
    static int32_t status[S2S_CAP], used[S2S_CAP];
    static const char alphabet[] = "0123456789012345678901234567890123456789.. +-x";
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                int good = s2s_pattern(p, i, n);
                int k = 0;
                if (good) {
                    int sign = (int)s2s_int(0, 2), nd = (int)s2s_int(1, 5), nf = (int)s2s_int(-1, 3);
                    if (sign) txt[i * ROW + k++] = sign == 1 ? '-' : '+';
                    for (int d = 0; d < nd; d++) txt[i * ROW + k++] = (uint8_t)('0' + s2s_int(0, 9));
                    if (nf >= 0) {
                        txt[i * ROW + k++] = '.';
                        for (int d = 0; d < nf; d++) txt[i * ROW + k++] = (uint8_t)('0' + s2s_int(0, 9));
                    }
                    if (k < ROW) txt[i * ROW + k++] = ' ';
                }
                for (; k < ROW; k++)
                    txt[i * ROW + k] = (uint8_t)alphabet[s2s_int(0, (int)sizeof alphabet - 2)];
            }
            s2s_fill_i64(val, S2S_CAP, 1, 1);
            s2s_fill_i32(status, S2S_CAP, 1, 1);
            s2s_fill_i32(used, S2S_CAP, 1, 1);
            parse(n, s2s_tail(0, txt, (size_t)n * ROW), val, status, used);
            S2S_OUT("val", val, n + S2S_GUARD);
            S2S_OUT("status", status, n + S2S_GUARD);
            S2S_OUT("used", used, n + S2S_GUARD);
        }
    }
    return 0;
}
