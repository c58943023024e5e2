/* s2s-test: vectorized=6 tolerance=reduction-fp rel=1e-12 cflags="-fopenmp" grep="^\s*#\s*pragma\s+omp\s+target\s+teams\s+distribute\s+parallel\s+for\s+reduction\(\+:s\) map\(to: x\[0:n\]\) map\(tofrom: y\[0:n\]\) num_teams\(TARGET_TEAMS\) num_threads\(TARGET_THREADS\)$" */
/* combined_target_teams: `target parallel for simd`, `target teams
 * distribute simd` and `target teams distribute parallel for simd`, built
 * with -fopenmp and no offload target (issue 21 item 7): the loop runs on
 * the host; the target, teams, distribute and parallel for constructs stay
 * (with their clauses) on the loop over vector blocks, which the teams and
 * threads share, each block W iterations or the scalar remainder.
 * A teams construct in a target region (the target holds nothing else)
 * gets a teams region of its own around the vector code, with distribute
 * written apart.  Reductions (+, max, min), a linear variable, divergent
 * branches and loops, if(simd:). */
#include "harness.h"

/* qemu-aarch64 and qemu-riscv64 abort at exit now and then (the reference
 * too; riscv64: combined_target_simd's reference in the clean-clone CI of
 * 2026-11-29) once libgomp has run teams or a parallel region of two
 * threads in a target region on the host: there they get one thread */
#if defined(__aarch64__) || defined(__riscv)
#define TARGET_THREADS 1
#define TARGET_TEAMS 1
#else
#define TARGET_THREADS 2
#define TARGET_TEAMS 2
#endif

/* an if-cascade with a divergent inner loop */
double ttdpf(int n, const double *x, double *y)
{
    double s = 0.0;
#pragma omp target teams distribute parallel for simd reduction(+:s) map(to: x[0:n]) map(tofrom: y[0:n]) num_teams(TARGET_TEAMS) num_threads(TARGET_THREADS)
    for (int i = 0; i < n; i++) {
        double v = x[i];
        if (v > 2.0) {
            int k = 0;
            while (v > 0.75 && k < 20) {
                v = v * 0.5;
                k++;
            }
            v += k;
        } else if (v < -2.0) {
            v = -v;
        }
        y[i] = v;
        s += v;
    }
    return s;
}

/* max over lanes that leave a loop at different trips */
int ttds(int n, const int32_t *a, int32_t *b)
{
    int m = -1;
#pragma omp target teams distribute simd reduction(max: m) num_teams(TARGET_TEAMS) map(to: a[0:n]) map(tofrom: b[0:n])
    for (int i = 0; i < n; i++) {
        int v = a[i], steps = 0;
        while (v != 1 && steps < 40) {
            v = v & 1 ? 3 * v + 1 : v / 2;
            steps++;
        }
        b[i] = steps;
        m = steps > m ? steps : m;
    }
    return m;
}

/* a linear variable and a scheduled worksharing loop */
long long tpf(int n, const int32_t *a, int32_t *b, int *jout)
{
    long long s = 0;
    int j = -5;
#pragma omp target parallel for simd reduction(+:s) linear(j:2) schedule(static, 3) num_threads(TARGET_THREADS) map(to: a[0:n]) map(tofrom: b[0:n])
    for (int i = 0; i < n; i++) {
        b[i] = a[i] > 0 ? a[i] * j : a[i] - j;
        s += b[i];
        j += 2;
    }
    *jout = j;
    return s;
}

/* min under if(simd:) and if(target:): the else branch is the original */
int ttdpf_if(int n, const int32_t *a, int32_t *b)
{
    int mn = 2147483647;
#pragma omp target teams distribute parallel for simd reduction(min: mn) if(simd: n > 20) if(target: n > 0) map(to: a[0:n]) map(tofrom: b[0:n]) num_teams(TARGET_TEAMS) thread_limit(TARGET_THREADS)
    for (int i = 0; i < n; i++) {
        int v = a[i] % 7 == 0 ? -a[i] : a[i] / 3;
        b[i] = v;
        mn = v < mn ? v : mn;
    }
    return mn;
}

/* target, then teams distribute parallel for simd as its statement */
long long nested(int n, const int32_t *a, int32_t *b)
{
    long long s = 0;
#pragma omp target map(tofrom: s) map(to: a[0:n]) map(tofrom: b[0:n])
#pragma omp teams distribute parallel for simd reduction(+:s) num_teams(TARGET_TEAMS) num_threads(TARGET_THREADS) shared(a, b)
    for (int i = 0; i < n; i++) {
        int v = a[i];
        if (v & 4)
            v = v * 5 - i;
        b[i] = v;
        s += v;
    }
    return s;
}

/* teams distribute simd in braces in a target region, under if(simd:) */
int nested_block(int n, const int32_t *a, int32_t *b)
{
    int m = -1;
#pragma omp target map(tofrom: m) map(to: a[0:n]) map(tofrom: b[0:n])
    {
#pragma omp teams distribute simd reduction(max: m) num_teams(TARGET_TEAMS) if(simd: n > 6)
        for (int i = 0; i < n; i++) {
            int v = a[i] < 0 ? -a[i] : a[i], k = 0;
            while (v > 3) {
                v /= 2;
                k++;
            }
            b[i] = k;
            m = k > m ? k : m;
        }
    }
    return m;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int32_t a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int j = 0;
        s2s_fill_f64(x, n, -6.0, 6.0);
        s2s_fill_f64(y, S2S_CAP, -1.0, 0.0);
        s2s_out_red("ttdpf", ttdpf(n, s2s_tail(0, x, n * sizeof x[0]), y));
        S2S_OUT("y", y, n + S2S_GUARD);

        s2s_fill_i32(a, n, 1, 5000);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("ttds", ttds(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(a, n, -1000, 1000);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tpf", tpf(n, s2s_tail(1, a, n * sizeof a[0]), b, &j));
        s2s_out_i64("j", j);
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("ttdpf_if", ttdpf_if(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("nested", nested(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("nested_block", nested_block(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);
    }
    return 0;
}
