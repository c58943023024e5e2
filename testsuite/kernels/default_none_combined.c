/* s2s-test: vectorized=3 tolerance=exact cflags="-fopenmp" grep="^\s*#\s*pragma\s+omp\s+parallel\s+for\s+shared\(a, o1, n\) reduction\(\+:s\) num_threads\(2\)$" */
/* default_none_combined: default(none) on constructs kept with the vector
 * loop (gcc's libgomp simd tests write it).  It only checks the program's
 * own clauses; kept on the vector loop it would ask clauses of s2svec's own
 * variables (trip count, pointers), so the vector loop's copy of the
 * pragma leaves it off -- the vector loop runs with the original's clauses
 * (grep: the pragma on the vector loop).  s2svec kept these loops scalar. */
#include "harness.h"

int kern(int n, const int *a, int *o1, int *o2, int *o3)
{
    int s = 0;
#pragma omp parallel for simd default(none) shared(a, o1, n) reduction(+:s) num_threads(2)
    for (int i = 0; i < n; i++) {
        o1[i] = a[i] > 0 ? a[i] * 3 : -a[i];
        s += o1[i];
    }
#pragma omp parallel for simd default(none) shared(a, o2) firstprivate(n) num_threads(2)
    for (int i = 0; i < n; i++)
        o2[i] = a[i] - i;
#pragma omp teams distribute parallel for simd default(none) shared(a, o3) firstprivate(n) num_teams(1) thread_limit(2)
    for (int i = 0; i < n; i++)
        o3[i] = a[n - 1 - i] ^ i;
    return s;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], o1[S2S_CAP], o2[S2S_CAP], o3[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) { o1[i] = 1; o2[i] = 2; o3[i] = 3; }
        int s = kern(n, a, o1, o2, o3);
        S2S_OUT("s", &s, 1);
        S2S_OUT("o1", o1, n + S2S_GUARD);
        S2S_OUT("o2", o2, n + S2S_GUARD);
        S2S_OUT("o3", o3, n + S2S_GUARD);
    }
    return 0;
}
