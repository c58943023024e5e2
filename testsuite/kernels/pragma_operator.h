/* Included by pragma_operator.c: a portability header's loop macro. */
#ifndef PRAGMA_OPERATOR_H
#define PRAGMA_OPERATOR_H
#define PO_SIMD _Pragma("omp simd")
#endif
