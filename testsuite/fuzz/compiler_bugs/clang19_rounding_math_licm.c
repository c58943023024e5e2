/* clang 19 crash found by the fuzz campaign (seed 20603878, 2026-11-25),
 * reduced with cvise from s2svec's NEON output of that program to the
 * scalar remainder loop (the program's own loop body, no intrinsics) and
 * made free of undefined behaviour by hand.
 *
 *   clang-19 -O3 -frounding-math -c clang19_rounding_math_licm.c
 *
 * segfaults in LICM (MemorySSA clobber walk -> BasicAA ->
 * isMallocOrCallocLikeFn on the sinf call) on x86-64 and AArch64 alike;
 * -O2, or -O3 without -frounding-math, compiles it.  Whether a file trips
 * it depends on the shape of the surrounding loops, so the original fuzz
 * program compiled while s2svec's output (which wraps the body in its
 * remainder loop) did not.  Not an s2svec bug: the generated programs pass
 * -frounding-math (a workaround for a gcc 12 fold) to gcc builds only. */
#include <math.h>

int f2_n;
float *f2_in15;
float *f2_out17;

void f2(double t10)
{
    long s2s_lo = f2_n;
    for (;;) {
        long i = s2s_lo;
        while ((t10 ?: 0) && i) {
            sinf(f2_in15[2]);
        }
        f2_out17[0] = +0;
    }
}
