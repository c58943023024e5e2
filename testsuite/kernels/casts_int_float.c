/* s2s-test: vectorized=1 tolerance=exact */
/* casts_int_float: double -> int truncation (toward zero, negatives too),
 * int -> double/float (float rounds above 2^24), double -> float rounding,
 * float -> double, and int64 -> double (rounds above 2^53). */
#include "harness.h"

void casts(int n, const double *d, const int *k, const long long *l,
           int *di, double *kd, float *kf, float *df, double *fd, double *ld)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        di[i] = (int)d[i];
        kd[i] = (double)k[i];
        kf[i] = (float)k[i];
        df[i] = (float)d[i];
        fd[i] = (double)(float)d[i] * 2.0;
        ld[i] = (double)l[i];
    }
}

int main(int argc, char **argv)
{
    static double d[S2S_CAP], kd[S2S_CAP], fd[S2S_CAP], ld[S2S_CAP];
    static int k[S2S_CAP], di[S2S_CAP];
    static float kf[S2S_CAP], df[S2S_CAP];
    static long long l[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_f64(d, n, -2e9, 2e9);
        for (int i = 2; i < n; i += 3) d[i] = s2s_f64(-3.0, 3.0);
        s2s_fill_i32(k, n, -2147483647 - 1, 2147483647);
        for (int i = 0; i < n; i++) l[i] = (long long)s2s_u64();
        s2s_fill_i32(di, S2S_CAP, 0, 0);
        s2s_fill_f64(kd, S2S_CAP, 0, 0);
        s2s_fill_f32(kf, S2S_CAP, 0, 0);
        s2s_fill_f32(df, S2S_CAP, 0, 0);
        s2s_fill_f64(fd, S2S_CAP, 0, 0);
        s2s_fill_f64(ld, S2S_CAP, 0, 0);
        casts(n, s2s_tail(0, d, n * sizeof d[0]), s2s_tail(1, k, n * sizeof k[0]),
              s2s_tail(2, l, n * sizeof l[0]), di, kd, kf, df, fd, ld);
        S2S_OUT("di", di, n + S2S_GUARD);
        S2S_OUT("kd", kd, n + S2S_GUARD);
        S2S_OUT("kf", kf, n + S2S_GUARD);
        S2S_OUT("df", df, n + S2S_GUARD);
        S2S_OUT("fd", fd, n + S2S_GUARD);
        S2S_OUT("ld", ld, n + S2S_GUARD);
    }
    return 0;
}
