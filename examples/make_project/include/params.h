/* Parameters of the kernels: editing this file regenerates kernels_simd.c. */
#ifndef PARAMS_H
#define PARAMS_H
#define SCALE 0.5
#define THRESHOLD 0.25
void kernels_run(int n, double *x, double *y, double *sum, double *hits);
#endif
