/* The bundled example: a Gaussian weight over gathered neighbours.
 *
 *   out[i] = exp(-d*d) * w[idx[i]] with d = x[i] - c
 *   sum   += out[i]
 *
 * gcc and clang keep this loop scalar (exp has no vector form for them
 * without -ffast-math); s2svec turns it into AVX-512/AVX2 code with a
 * gather and libmvec's vector exp.  main() times the loop and prints a
 * checksum so the scalar and vector builds can be compared. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double gaussian_gather(int n, const double *x, const int *idx, const double *w,
                       double c, double *out)
{
    double sum = 0.0;
#pragma omp simd reduction(+:sum)
    for (int i = 0; i < n; i++) {
        double d = x[i] - c;
        out[i] = exp(-d * d) * w[idx[i]];
        sum += out[i];
    }
    return sum;
}

int main(void)
{
    enum { N = 1 << 16, REPS = 400 };
    double *x = malloc(N * sizeof *x), *w = malloc(N * sizeof *w);
    double *out = malloc(N * sizeof *out);
    int *idx = malloc(N * sizeof *idx);
    unsigned s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        x[i] = (double)(s >> 8) / (1 << 24) * 4.0 - 2.0;
        w[i] = 1.0 + (double)(i % 7);
        idx[i] = (int)((s >> 4) % N);
    }
    struct timespec t0, t1;
    double total = 0.0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int r = 0; r < REPS; r++)
        total += gaussian_gather(N, x, idx, w, 0.25 * (r % 4), out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("checksum %.6f\ntime %.6f\n", total, secs);
    free(x); free(w); free(out); free(idx);
    return 0;
}
