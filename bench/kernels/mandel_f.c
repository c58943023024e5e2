/* mandel_f: escape-time Mandelbrot set in float, simd over the pixels of a
 * row.  Each lane iterates z = z^2 + c until |z| > 2 or MAX_ITER: a divergent
 * while loop whose trip count varies from 1 to MAX_ITER between neighbours.
 * bench-rtol: 1e-4 (an iteration count flips where a point sits on the
 * escape radius within rounding: FMA contraction and fast-math move it)
 * bench-class: divergent
 * Prints the kernel time in ns and a checksum (sum of iteration counts). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WIDTH 512
#define HEIGHT 384
#define MAX_ITER 256
#define REPS 2

__attribute__((noinline))
void mandel_row(int width, float y0, float x_min, float dx, int *iters)
{
#pragma omp simd
    for (int px = 0; px < width; px++) {
        float cx = x_min + (float)px * dx;
        float zx = 0.0f, zy = 0.0f;
        int it = 0;
        while (it < MAX_ITER && zx * zx + zy * zy <= 4.0f) {
            float t = zx * zx - zy * zy + cx;
            zy = 2.0f * zx * zy + y0;
            zx = t;
            it++;
        }
        iters[px] = it;
    }
}

/* The classic view, -2.2..0.8 x -1.15..1.15: deep interior, filaments and
 * fast-escaping background all occur in most rows. */
static void mandel_image(int *image)
{
    float dx = 3.0f / WIDTH, dy = 2.3f / HEIGHT;
    for (int row = 0; row < HEIGHT; row++)
        mandel_row(WIDTH, -1.15f + (float)row * dy, -2.2f, dx, image + row * WIDTH);
}

static long long clock_ns(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : REPS;
    int *image = malloc(WIDTH * HEIGHT * sizeof(int));
    long long total = 0;
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        mandel_image(image);
        __asm__ volatile("" : : : "memory");  /* the call cannot be hoisted */
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < WIDTH * HEIGHT; i++)
        total += image[i];
    printf("kernel mandel_f n=%d reps=%d\n", WIDTH * HEIGHT, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %lld\n", total);
    free(image);
    return 0;
}
