/* kdtree: nearest-neighbour search in a 3-d k-d tree, simd over queries.
 * Each lane descends the tree with its own stack (two small local arrays in
 * the loop body: node and lower bound of its distance), pushing the far
 * child and then the near one, and skips a popped subtree that cannot hold a
 * closer point.  The trip count and every load address differ between lanes.
 * bench-rtol: 0 (integer-valued float coordinates: every distance is exact)
 * bench-class: divergent
 * Prints the kernel time in ns and a checksum (sum of the nearest indices). */
#define _POSIX_C_SOURCE 200112L  /* clock_gettime under -std=c11 too */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NPOINT 4096
#define NQUERY 8192
#define STACK_DEPTH 32     /* > 2 x tree depth (12) */
#define COORD_RANGE 1024   /* coordinates 0..1023: squares sum exactly in float */
#define REPS 12

struct kdtree {
    float *x, *y, *z;      /* point of each node */
    int *left, *right;     /* children, -1 for none */
    int *dim;              /* split dimension: 0 x, 1 y, 2 z */
};

__attribute__((noinline))
void nearest(int nq, const float *qx, const float *qy, const float *qz,
             const float *px, const float *py, const float *pz,
             const int *left, const int *right, const int *dim, int *found)
{
#pragma omp simd
    for (int q = 0; q < nq; q++) {
        int stack[STACK_DEPTH];
        float bound[STACK_DEPTH];
        int sp = 1;
        stack[0] = 0;      /* the root */
        bound[0] = 0.0f;
        float best = 3.0e38f;
        int best_node = -1;
        while (sp > 0) {
            sp--;
            int node = stack[sp];
            if (bound[sp] >= best)
                continue;  /* the whole subtree is farther than the best */
            float dx = qx[q] - px[node], dy = qy[q] - py[node], dz = qz[q] - pz[node];
            float d2 = dx * dx + dy * dy + dz * dz;
            if (d2 < best) {
                best = d2;
                best_node = node;
            }
            int d = dim[node];
            float diff = d == 0 ? dx : d == 1 ? dy : dz;
            int near = diff < 0.0f ? left[node] : right[node];
            int far = diff < 0.0f ? right[node] : left[node];
            if (far >= 0) {
                stack[sp] = far;
                bound[sp] = diff * diff;
                sp++;
            }
            if (near >= 0) {
                stack[sp] = near;
                bound[sp] = 0.0f;
                sp++;
            }
        }
        found[q] = best_node;
    }
}

static unsigned long long lcg_state = 99;

static float random_coord(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((lcg_state >> 33) % COORD_RANGE);
}

static const float *sort_coords[3];
static int sort_dim;

static int by_coord(const void *a, const void *b)
{
    float u = sort_coords[sort_dim][*(const int *)a];
    float v = sort_coords[sort_dim][*(const int *)b];
    return (u > v) - (u < v);
}

/* Build the subtree of points ids[0..n) in preorder from slot *next: the
 * median along the depth's axis becomes the node, halves its children. */
static int build(struct kdtree *t, int *ids, int n, int depth, int *next)
{
    if (n == 0)
        return -1;
    sort_dim = depth % 3;
    qsort(ids, (size_t)n, sizeof(int), by_coord);
    int mid = n / 2, node = (*next)++;
    t->x[node] = sort_coords[0][ids[mid]];
    t->y[node] = sort_coords[1][ids[mid]];
    t->z[node] = sort_coords[2][ids[mid]];
    t->dim[node] = depth % 3;
    t->left[node] = build(t, ids, mid, depth + 1, next);
    t->right[node] = build(t, ids + mid + 1, n - mid - 1, depth + 1, next);
    return node;
}

static float *random_coords(int n)
{
    float *c = malloc((size_t)n * sizeof(float));
    for (int i = 0; i < n; i++)
        c[i] = random_coord();
    return c;
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
    float *cx = random_coords(NPOINT), *cy = random_coords(NPOINT), *cz = random_coords(NPOINT);
    float *qx = random_coords(NQUERY), *qy = random_coords(NQUERY), *qz = random_coords(NQUERY);
    struct kdtree t = {malloc(NPOINT * sizeof(float)), malloc(NPOINT * sizeof(float)),
                       malloc(NPOINT * sizeof(float)), malloc(NPOINT * sizeof(int)),
                       malloc(NPOINT * sizeof(int)), malloc(NPOINT * sizeof(int))};
    int *ids = malloc(NPOINT * sizeof(int)), *found = malloc(NQUERY * sizeof(int));
    for (int i = 0; i < NPOINT; i++)
        ids[i] = i;
    sort_coords[0] = cx; sort_coords[1] = cy; sort_coords[2] = cz;
    int next = 0;
    build(&t, ids, NPOINT, 0, &next);
    long long total = 0;
    long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long long t0 = clock_ns(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        nearest(NQUERY, qx, qy, qz, t.x, t.y, t.z, t.left, t.right, t.dim, found);
        __asm__ volatile("" : : : "memory");  /* the call cannot be hoisted */
        total += found[r % NQUERY];
    }
    long long t1 = clock_ns(CLOCK_MONOTONIC);
    long long c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < NQUERY; i++)
        total += found[i];
    printf("kernel kdtree n=%d reps=%d\n", NQUERY, reps);
    printf("time_ns %lld\n", t1 - t0);
    printf("cpu_ns %lld\n", c1 - c0);
    printf("checksum %lld\n", total);
    free(cx); free(cy); free(cz); free(qx); free(qy); free(qz);
    free(t.x); free(t.y); free(t.z); free(t.left); free(t.right); free(t.dim);
    free(ids); free(found);
    return 0;
}
