/* s2s-test: vectorized=3 tolerance=exact cflags="-fopenmp" */
/* collapse_worksharing_linear: 'linear' on collapsed worksharing nests
 * (parallel for simd collapse(2|3) linear(...)), 2 threads.  The threads
 * run the outer iterations in any order, so each computes the linear
 * variable's value at its iteration from the value before the nest and the
 * iterations of the collapsed space before it; the variable ends with its
 * sequential final value.  An int and a pointer, a decreasing outer loop,
 * steps 1, 2 and 3.  These nests stayed scalar. */
#include "harness.h"

int kern(int n, const int *a, int *o1, int *o2, int *o3, int **pend)
{
    int k = 5;
    int m = n / 4;
#pragma omp parallel for simd collapse(2) linear(k:2) num_threads(2)
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < m; j++) {
            o1[i * m + j] = a[i * m + j] + k;
            k += 2;
        }
    int *p = o2;
#pragma omp parallel for simd collapse(2) linear(p:1) num_threads(2)
    for (int i = 3; i >= 0; i--)
        for (int j = 0; j < m; j++) {
            *p = a[j] * (i + 1);
            p++;
        }
    *pend = p;
    long q = -7;
    int r = m / 2;
#pragma omp parallel for simd collapse(3) linear(q:3) num_threads(2)
    for (int i = 0; i < 2; i++)
        for (int h = 6; h > 0; h -= 3)
            for (int j = 0; j < r; j++) {
                o3[(i * 2 + (6 - h) / 3) * r + j] = (int)q ^ a[j];
                q += 3;
            }
    return k + (int)q;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], o1[S2S_CAP], o2[S2S_CAP], o3[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) { o1[i] = 1; o2[i] = 2; o3[i] = 3; }
        int *pend = 0;
        int r = kern(n, a, o1, o2, o3, &pend);
        long used = (long)(pend - o2);
        S2S_OUT("r", &r, 1);
        S2S_OUT("used", &used, 1);
        S2S_OUT("o1", o1, n + S2S_GUARD);
        S2S_OUT("o2", o2, n + S2S_GUARD);
        S2S_OUT("o3", o3, n + S2S_GUARD);
    }
    return 0;
}
