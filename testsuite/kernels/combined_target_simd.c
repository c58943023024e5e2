/* s2s-test: vectorized=5 tolerance=reduction-fp rel=1e-12 cflags="-fopenmp" grep="^\s*#\s*pragma\s+omp\s+target\s+map\(to: x\[0:n\]\) map\(tofrom: y\[0:n\]\) map\(tofrom: s, j\)$" */
/* combined_target_simd: `target simd` and simd loops in target regions,
 * built with -fopenmp and no offload target, so the target regions run on
 * the host (issue 21 item 7): the loops are vectorized inside `target`,
 * which keeps its map clauses, and what simd's reduction, lastprivate and
 * linear clauses carry out of the loop is mapped tofrom (OpenMP 5.2,
 * 17.2).  Divergent if-cascades and loops, `if(simd:)`, collapse. */
#include "harness.h"

/* qemu-aarch64 and qemu-riscv64 abort at exit now and then (the reference
 * too: clean-clone CI of 2026-11-29, riscv64 reference exit -6 after its
 * whole output) once libgomp has run a parallel region of two threads in a
 * target region on the host: there the region gets one thread */
#if defined(__aarch64__) || defined(__riscv)
#define TARGET_THREADS 1
#else
#define TARGET_THREADS 2
#endif

/* a reduction, a linear variable and an if-cascade */
double tsimd(int n, const double *x, double *y, int *jout)
{
    double s = 0.0;
    int j = 7;
#pragma omp target simd reduction(+:s) linear(j:3) map(to: x[0:n]) map(tofrom: y[0:n])
    for (int i = 0; i < n; i++) {
        double v = x[i];
        if (v > 1.0)
            v = v * 0.5 + j;
        else if (v < -1.0)
            v = -v;
        else
            v = v * v;
        y[i] = v;
        s += v;
        j += 3;
    }
    *jout = j;
    return s;
}

/* lastprivate and max under if(simd:), lanes that skip the rest */
int tlast(int n, const int32_t *a, int32_t *b, int *last)
{
    int m = -2147483647 - 1, lp = 0;
#pragma omp target simd reduction(max: m) lastprivate(lp) if(simd: n > 3) map(to: a[0:n]) map(tofrom: b[0:n])
    for (int i = 0; i < n; i++) {
        int v = a[i];
        lp = v * 2 + i;
        if (v < 0) {
            b[i] = 0;
            continue;
        }
        b[i] = lp;
        m = lp > m ? lp : m;
    }
    if (n > 0)
        *last = lp;  /* lastprivate after no iteration: unspecified */
    return m;
}

/* a simd loop in a target region */
int tregion(int n, const int32_t *a, int32_t *b)
{
    int s = 0;
#pragma omp target map(to: a[0:n]) map(tofrom: b[0:n]) map(tofrom: s)
    {
        int bias = 3;
#pragma omp simd reduction(+:s)
        for (int i = 0; i < n; i++) {
            int v = a[i] + bias;
            b[i] = v & 1 ? v * 3 : v / 2;
            s += b[i];
        }
    }
    return s;
}

/* parallel for simd as the target's statement, a divergent inner loop */
int tparallel(int n, const int32_t *a, int32_t *b)
{
    int s = 0;
#pragma omp target map(to: a[0:n]) map(tofrom: b[0:n]) map(tofrom: s)
#pragma omp parallel for simd reduction(+:s) num_threads(TARGET_THREADS)
    for (int i = 0; i < n; i++) {
        int v = a[i];
        while (v > 100)
            v -= 37;
        b[i] = v;
        s += v;
    }
    return s;
}

/* a collapsed nest: the outer loop stays, the inner one is vectorized */
int tcollapse(int rows, int m, const int32_t *a, int32_t *b)
{
    int s = 0;
#pragma omp target simd collapse(2) reduction(+:s) map(to: a[0:rows * m]) map(tofrom: b[0:rows * m])
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < m; k++) {
            b[r * m + k] = a[r * m + k] > k ? a[r * m + k] - k : k;
            s += b[r * m + k];
        }
    return s;
}

int main(int argc, char **argv)
{
    static double x[S2S_CAP], y[S2S_CAP];
    static int32_t a[S2S_CAP], b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        int j = 0, last = -1;
        s2s_fill_f64(x, n, -3.0, 3.0);
        s2s_fill_f64(y, S2S_CAP, -1.0, 0.0);
        s2s_out_red("tsimd", tsimd(n, s2s_tail(0, x, n * sizeof x[0]), y, &j));
        s2s_out_i64("j", j);
        S2S_OUT("y", y, n + S2S_GUARD);

        s2s_fill_i32(a, n, -300, 300);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tlast", tlast(n, s2s_tail(1, a, n * sizeof a[0]), b, &last));
        s2s_out_i64("last", last);
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tregion", tregion(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(a, n, -100, 1000);
        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tparallel", tparallel(n, s2s_tail(1, a, n * sizeof a[0]), b));
        S2S_OUT("b", b, n + S2S_GUARD);

        s2s_fill_i32(b, S2S_CAP, 5, 5);
        s2s_out_i64("tcollapse", tcollapse(n / 3, 3, a, b));
        S2S_OUT("b", b, n + S2S_GUARD);
    }
    return 0;
}
