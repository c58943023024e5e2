/* util.c -- allocation, clocks and argument helpers of xsproxy. */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "xsproxy.h"

/* calloc that ends the program when memory runs out. */
void *xs_alloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "xsproxy: out of memory (%zu x %zu bytes)\n", count, size);
        exit(1);
    }
    return p;
}

/* Nanoseconds on the wall clock (XS_WALL, CLOCK_MONOTONIC) or of CPU time
 * of the whole process, all threads (XS_CPU). */
int64_t xs_clock_ns(int which)
{
    struct timespec t;
    clock_gettime(which == XS_CPU ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Threads a parallel region gets (OMP_NUM_THREADS). */
int xs_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* A positive decimal number; 0 on success. */
int xs_parse_long(const char *text, long *value)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v <= 0)
        return -1;
    *value = v;
    return 0;
}
