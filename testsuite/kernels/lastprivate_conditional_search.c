/* s2s-test: vectorized=2 tolerance=exact */
/* lastprivate_conditional_search: the index of the last element equal to a
 * key, a loop whose only statement is a conditional assignment of the loop
 * variable.  Lane 0's condition was extracted lane by lane, into a variable
 * that gcc -O2 -Wall then took for "maybe used uninitialized" (found by
 * bench/tool_speed.py's second file): a mask's lane is now read from its
 * bits. */
#include "harness.h"

int last_match(int n, const int *a, int key)
{
    int found = -1;
#pragma omp simd lastprivate(conditional: found)
    for (int i = 0; i < n; i++)
        if (a[i] == key)
            found = i;
    return found;
}

long last_match_long(int n, const long *a, long key)
{
    long found = -7;
#pragma omp simd lastprivate(conditional: found)
    for (int i = 0; i < n; i++)
        if (a[i] == key)
            found = a[i] + i;
    return found;
}

int main(int argc, char **argv)
{
    static int a[S2S_CAP];
    static long b[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) {
            a[i] = (int)s2s_int(0, 9);
            b[i] = (long)s2s_int(0, 5);
        }
        s2s_out_i64("int", last_match(n, a, 3));
        s2s_out_i64("int_none", last_match(n, a, 11));
        s2s_out_i64("long", last_match_long(n, b, 2));
    }
    return 0;
}
