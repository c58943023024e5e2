/* s2s-test: vectorized=3 tolerance=exact cflags="-fopenmp" */
/* shared_write_only: variables with no clause that a simd loop assigns and
 * never reads.  The lanes would race to write them; one outcome is the
 * sequential one, the value of the last iteration that assigns them (as
 * lastprivate(conditional:)), and s2svec gives that instead of leaving the
 * loop scalar.  The OpenMP validation suite's tests count their threads
 * so: `if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();`
 * in a 'parallel for simd' loop (the variable stays shared between the
 * threads: each block of the vector code writes it as the original's
 * iterations do).  The kernel's value does not depend on the team's size:
 * clang 19 with gcc's runtime (libgomp, as the suite links clang's OpenMP
 * builds) runs 'num_threads(3)' loops on one thread, the original too. */
#include "harness.h"

/* Declared here, not through <omp.h>: Debian's clang 14 has no omp.h. */
int omp_get_thread_num(void);
int omp_get_num_threads(void);

int kern(int n, const int *a, int *o, long *last_out, const int **where)
{
    int seen = -1;
#pragma omp parallel for simd num_threads(3)
    for (int i = 0; i < n; i++) {
        o[i] = a[i] * 2;
        if (omp_get_thread_num() == 0)
            seen = 1 + (omp_get_num_threads() > 0);
    }
    long last = 7;
    const int *p = 0;
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (a[i] > 900) {
            last = (long)a[i] * i;
            p = &a[i];
        }
    }
    int every = -5;
#pragma omp simd
    for (int i = 0; i < n; i++)
        every = a[i] + i;
    *last_out = last + every;
    *where = p;
    return seen;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP], o[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        s2s_fill_i32(a, n, -1000, 1000);
        for (int i = 0; i < S2S_CAP; i++) o[i] = 9;
        long last = 0;
        const int *p = 0;
        int t = kern(n, a, o, &last, &p);
        long at = p ? (long)(p - a) : -1;
        S2S_OUT("t", &t, 1);
        S2S_OUT("last", &last, 1);
        S2S_OUT("at", &at, 1);
        S2S_OUT("o", o, n + S2S_GUARD);
    }
    return 0;
}
