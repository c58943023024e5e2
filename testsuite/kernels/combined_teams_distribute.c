/* s2s-test: vectorized=4 tolerance=exact cflags="-fopenmp" grep="^\s*#\s*pragma\s+omp\s+distribute\s+parallel\s+for\s+reduction\(\+:s\) num_threads\(2\)$" */
/* combined_teams_distribute: `teams distribute simd` and `teams distribute
 * parallel for simd` on the host, and `distribute simd` / `distribute
 * parallel for simd` in a teams region, built with -fopenmp (issue 21
 * item 7): teams, distribute and parallel for stay on the loop over vector
 * blocks, which the teams (and their threads) share out in chunks, each
 * block W iterations or the scalar remainder.  Integer reductions (exact
 * whatever the chunks), divergent branches and loops. */
#include "harness.h"

/* the teams' chunks of a branchy loop */
int tds(int n, const int32_t *a, int32_t *b)
{
    int s = 0;
#pragma omp teams distribute simd reduction(+:s) num_teams(3)
    for (int i = 0; i < n; i++) {
        int v = a[i];
        if (v & 7)
            v = v * 3;
        else
            v = -v;
        b[i] = v;
        s += v;
    }
    return s;
}

/* teams and their threads, a max over a divergent loop */
int tdpf(int n, const int32_t *a, int32_t *b)
{
    int m = 0;
#pragma omp teams distribute parallel for simd reduction(max: m) num_teams(2) thread_limit(2) dist_schedule(static, 40)
    for (int i = 0; i < n; i++) {
        int v = a[i], k = 0;
        while (v > 9) {
            v = v / 3 + (v & 1);
            k++;
        }
        b[i] = k * 16 + v;
        m = b[i] > m ? b[i] : m;
    }
    return m;
}

/* distribute parallel for simd in a teams region with a reduction */
int dpf(int n, const int32_t *a, int32_t *b)
{
    int s = 0;
#pragma omp teams num_teams(2) reduction(+:s)
    {
#pragma omp distribute parallel for simd reduction(+:s) num_threads(2)
        for (int i = 0; i < n; i++) {
            b[i] = a[i] % 5 == 0 ? 1 : a[i] - i;
            s += b[i];
        }
    }
    return s;
}

/* distribute simd in a teams region: stores only, lanes that skip */
void ds(int n, const int32_t *a, int32_t *b)
{
#pragma omp teams num_teams(2)
    {
#pragma omp distribute simd
        for (int i = 0; i < n; i++) {
            if (a[i] < 0)
                continue;
            b[i] = a[i] * 2 - 1;
        }
    }
}

int main(int argc, char **argv)
{
    static int32_t a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tds", tds(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(a, n, 0, 100000);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tdpf", tdpf(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("dpf", dpf(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(b, S2S_CAP, 5, 5);
        ds(n, s2s_tail(1, a, n * sizeof a[0]), b);
        S2S_OUT("b", b, n + S2S_GUARD);
    }
    return 0;
}
