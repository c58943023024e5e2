/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_list_walk: pointer chasing through linked lists stored as
 * next[] indices (-1 ends a list): every lane starts at its own head and
 * walks until the end or until it meets a value above its threshold; the
 * walk length differs per lane, every step is a gather. */
#include "harness.h"

#define POOL 512

void walk(int n, const int32_t *head, const int32_t *next, const float *val, const float *thr,
          int32_t *stop, int32_t *len, float *sum)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        int32_t p = head[i], l = 0;
        float s = 0.0f;
        while (p != -1) {
            if (val[p] > thr[i])
                break;
            s += val[p];
            p = next[p];
            l++;
        }
        stop[i] = p;
        len[i] = l;
        sum[i] = s;
    }
}

int main(int argc, char **argv)
{
    static int32_t head[S2S_CAP], next[POOL], stop[S2S_CAP], len[S2S_CAP];
    static float val[POOL], thr[S2S_CAP], sum[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        /* a forest: node k points to a random later node or ends */
        for (int k = 0; k < POOL; k++) {
            next[k] = (k + 1 < POOL && s2s_int(0, 15) != 0) ? (int32_t)s2s_int(k + 1, k + 8 < POOL ? k + 8 : POOL - 1) : -1;
            val[k] = (float)s2s_f64(0.0, 10.0);
        }
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            for (int i = 0; i < n; i++) {
                head[i] = i % 9 == 4 ? -1 : (int32_t)s2s_int(0, POOL - 1);
                thr[i] = s2s_pattern(p, i, n) ? 100.0f : (float)s2s_f64(5.0, 10.0);
            }
            s2s_fill_i32(stop, S2S_CAP, 3, 3);
            s2s_fill_i32(len, S2S_CAP, 3, 3);
            s2s_fill_f32(sum, S2S_CAP, 3.0, 3.0);
            walk(n, s2s_tail(0, head, n * sizeof head[0]), next, val, s2s_tail(1, thr, n * sizeof thr[0]),
                 stop, len, sum);
            S2S_OUT("stop", stop, n + S2S_GUARD);
            S2S_OUT("len", len, n + S2S_GUARD);
            S2S_OUT("sum", sum, n + S2S_GUARD);
        }
    }
    return 0;
}
