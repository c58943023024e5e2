"""C types in and around simd loops: each vectorizes into code that compiles
for every target, or stays scalar with a warning naming it at file:line:col.

Untagged structs are spelled in the output through their typedef name or
``__typeof__`` (s2s/frontend/record_names.py); array typedefs, typedef
chains, enums, _Bool and flexible array members vectorize (the differential
kernels struct_untagged, array_typedef and enum_bool_flexible check their
results); va_list, jmp_buf, _Atomic, __int128, _Float16, function pointers,
bit-fields, anonymous unions and structs declared inside the loop stay
scalar.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import compile_everywhere, vectorize
from test_lower_support import lower_one

from s2s.ir.region import Region
from s2s.ir.types import ArrayType, PtrType, StructType, Type

VECTORIZED = {
    "typedef_struct": """
typedef struct { double x, y; } P;
void f(double *o, P *p, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = p[i].x + p[i].y;
}
""",
    "typedef_chain_and_const": """
typedef struct { double x, y; } P;
typedef P P2;
typedef const P2 CP;
void f(P2 *o, CP *p, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) { P t = p[i]; t.x *= 2; o[i] = t; }
}
""",
    "untagged_member_and_array_member": """
struct O { struct { double a; int b; } in; struct { float u, v; } pair[2]; };
void f(double *o, struct O *p, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) { o[i] = p[i].in.a * p[i].pair[i & 1].u; p[i].in.b = i; }
}
""",
    "file_scope_variable": """
struct { double x, y; } g[100];
void f(double *o, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) { o[i] = g[i].x - g[i].y; g[i].x = 0; }
}
""",
    "local_variable_before_the_loop": """
void f(double *o, int n) {
  struct { double x, y; } pts[64];
  for (int i = 0; i < 64; i++) { pts[i].x = i; pts[i].y = 2 * i; }
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = pts[i & 63].x - pts[i & 63].y;
}
""",
    "parameter_of_untagged_type": """
void f(double *o, struct { double x, y; } *p, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = p[i].x + p[i].y;
}
""",
    "pointer_typedef": """
typedef struct { double x, y; } *PP;
void f(double *o, PP p, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = p[i].x + p[i].y;
}
""",
    "typedef_local_to_the_function": """
void f(double *o, double *a, int n) {
  typedef struct { double x, y; } Q;
  Q *q = (Q *)a;
#pragma omp simd
  for (int i = 0; i < n / 2; i++) o[i] = q[i].x + q[i].y;
}
""",
    "anonymous_struct_member": """
struct S { int tag; struct { float x, y; }; struct { struct { double d; }; }; };
void f(float *o, struct S *s, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) { o[i] = s[i].x + s[i].y * s[i].tag; s[i].d = o[i]; }
}
""",
    "tag_and_typedef_of_the_same_name": """
struct S { double x; };
typedef struct { double x, y; } S;
void f(double *o, struct S *p, S *q, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = p[i].x + q[i].y;
}
""",
    "array_typedef_local_in_body": """
typedef int V[4];
void f(int *o, const int *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) { V t; t[0] = a[i]; t[3] = 2; o[i] = t[0] * t[3]; }
}
""",
    "array_typedef_parameters": """
typedef int V[4];
void f(int *o, V *rows, V w, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = rows[i][1] + w[i & 3];
}
""",
    "array_typedef_member_and_outer_local": """
typedef double V3[3];
struct S { V3 p; double w; };
void f(double *o, struct S *s, int n) {
  V3 k = {1, 2, 3};
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = (s[i].p[0] + s[i].p[2]) * s[i].w * k[i % 3];
}
""",
    "array_typedef_private": """
typedef float F4[4];
void f(float *o, int n) {
  F4 t;
#pragma omp simd private(t)
  for (int i = 0; i < n; i++) { t[0] = i; t[1] = 2 * i; o[i] = t[0] + t[1]; }
}
""",
    "flexible_array_member": """
struct F { int n; double d[]; };
void f(double *o, const struct F *fl, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = fl->d[i] * fl->n;
}
""",
    "enum_bool_and_typedef_chains": """
#include <stdbool.h>
enum color { RED, GREEN = 5, BLUE };
typedef int I1; typedef I1 I2; typedef const I2 I3;
void f(enum color *c, _Bool *b, bool *d, I2 *o, I3 *a, int n) {
#pragma omp simd
  for (I2 i = 0; i < n; i++) {
    enum color k = c[i];
    b[i] = a[i] > 3; d[i] = !b[i];
    o[i] = (k == GREEN ? BLUE : RED) + b[i];
  }
}
""",
}


@pytest.mark.parametrize("name", sorted(VECTORIZED))
def test_vectorized_and_compiles_everywhere(tmp_path: Path, name: str) -> None:
    r = vectorize(tmp_path, VECTORIZED[name])
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == 1
    compile_everywhere(r.output)


OK = """
void ok(double *o, const double *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = a[i] + 1.0;
}
"""

# (code, line of the warning, words of the message)
SCALAR = {
    "struct_declared_in_the_loop": (
        """
void f(double *o, const double *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) {
    struct T { double u, v; } t;
    t.u = a[i]; t.v = 2 * a[i]; o[i] = t.u * t.v;
  }
}
""",
        5,
        ("struct T declared inside the simd loop",),
    ),
    "untagged_struct_declared_in_the_loop": (
        """
void f(double *o, const double *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) {
    struct { double u, v; } t;
    t.u = a[i]; o[i] = t.u;
  }
}
""",
        5,
        ("unnamed struct declared inside the simd loop",),
    ),
    "anonymous_union_member": (
        """
struct S { int tag; union { float f; int i; }; };
void f(float *o, struct S *s, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = s[i].f;
}
""",
        5,
        ("anonymous union member of 'struct S'",),
    ),
    "jmp_buf": (
        """
#include <setjmp.h>
void f(int *o, jmp_buf *bufs, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = bufs[i][0].__mask_was_saved;
}
""",
        5,
        ("struct __jmp_buf_tag", "system header"),
    ),
    "jmp_buf_local": (
        """
#include <setjmp.h>
void f(int *o, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) { jmp_buf b; b[0].__mask_was_saved = i;
    o[i] = b[0].__mask_was_saved; }
}
""",
        5,
        ("system header",),
    ),
    "sigjmp_buf_global": (
        """
#include <setjmp.h>
sigjmp_buf sj;
void f(int *o, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = sj[0].__mask_was_saved + i;
}
""",
        6,
        ("system header",),
    ),
    "va_list_in_the_loop": (
        """
#include <stdarg.h>
int f(int *o, int n, ...) {
  va_list ap;
  va_start(ap, n);
#pragma omp simd
  for (int i = 0; i < n; i++) { va_list c; va_copy(c, ap); o[i] = va_arg(c, int); va_end(c); }
  va_end(ap);
  return 0;
}
""",
        7,
        ("va_list",),
    ),
    "atomic": (
        """
void f(int *o, _Atomic int *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = a[i];
}
""",
        4,
        ("_Atomic",),
    ),
    "int128": (
        """
void f(__int128 *o, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = o[i] * 3;
}
""",
        4,
        ("__int128",),
    ),
    "float16": (
        """
void f(_Float16 *o, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = o[i] * 3;
}
""",
        4,
        ("_Float16",),
    ),
    "function_pointer_typedef": (
        """
typedef int (*fp_t)(int);
void f(int *o, fp_t *fs, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = fs[i](i);
}
""",
        5,
        ("function pointer",),
    ),
    "bit_field": (
        """
struct B { int a : 3; int b; };
void f(struct B *b, int *o, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = b[i].a;
}
""",
        5,
        ("bit-field 'a' of 'struct B'",),
    ),
    "volatile_typedef": (
        """
typedef volatile double vd;
void f(double *o, vd *q, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = q[i];
}
""",
        5,
        ("volatile",),
    ),
    "lastprivate_array_typedef": (
        """
typedef int V[4];
void f(int *o, int n) {
  V t = {0};
#pragma omp simd lastprivate(t)
  for (int i = 0; i < n; i++) { t[0] = i; o[i] = t[0]; }
}
""",
        6,
        ("lastprivate array or struct 't'",),
    ),
    "lastprivate_struct_with_array_member": (
        """
struct w { int k; int v[2]; };
void f(int *o, int n) {
  struct w t = {0, {0, 0}};
#pragma omp simd lastprivate(t)
  for (int i = 0; i < n; i++) { t.k = i; t.v[0] = i; o[i] = t.k; }
}
""",
        6,
        ("lastprivate variable 't': member 'v' of a lastprivate struct must be a scalar",),
    ),
    "lastprivate_conditional_struct": (
        """
struct p2 { int k, m; };
void f(int *o, int n) {
  struct p2 t = {0, 0};
#pragma omp simd lastprivate(conditional: t)
  for (int i = 0; i < n; i++) { if (o[i]) { t.k = i; t.m = 1; } o[i] = 2; }
}
""",
        6,
        ("lastprivate array or struct 't'",),
    ),
}


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_stays_scalar_with_a_located_warning(tmp_path: Path, name: str) -> None:
    code, line, words = SCALAR[name]
    r = vectorize(tmp_path, code + OK)
    assert r.returncode == 0, r.stderr
    r.warning_at(line, "loop not vectorized", *words)
    assert r.vectorized_loops() == 1, "the rest of the file is still vectorized"
    compile_everywhere(r.output)


def test_untagged_struct_spellings(tmp_path: Path) -> None:
    """The C spelling of each struct type the region uses, as the output has it."""
    region = lower_one(
        tmp_path,
        """
typedef struct { double x; } P;
typedef struct { float w; } *WP;
struct O { struct { double a; } in[2]; };
struct { int k; } g[4];
struct S { int s; };
void f(double *o, P *p, WP w, struct O *q, struct S *s, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) o[i] = p[i].x + w[i].w + q[i].in[1].a + g[i & 3].k + s[i].s;
}
""",
    )
    spellings = sorted(st.c_spelling for st in _structs(region))
    assert spellings == sorted(
        [
            "P",
            "__typeof__(((void)0, ((*(WP *)0))[0]))",
            "__typeof__(((void)0, (((struct O *)0)->in)[0]))",
            "__typeof__(((void)0, (g)[0]))",
            "struct O",
            "struct S",
        ]
    )


def test_flexible_array_member_is_an_array_in_place(tmp_path: Path) -> None:
    """``f->d`` is ``(char *)f + offsetof(d)``, not a pointer loaded from there."""
    region = lower_one(tmp_path, VECTORIZED["flexible_array_member"])
    (st,) = [s for s in _structs(region) if s.name == "F"]
    assert [str(f.type) for f in st.fields] == ["i32", "[0 x f64]"]
    assert st.size == 8


def _structs(region: Region) -> list[StructType]:
    found: dict[str, StructType] = {}

    def visit(t: Type) -> None:
        if isinstance(t, PtrType):
            visit(t.pointee)
        elif isinstance(t, ArrayType):
            visit(t.elem)
        elif isinstance(t, StructType) and t.name not in found:
            found[t.name] = t
            for f in t.fields:
                visit(f.type)

    for arg in region.fn.args:
        visit(arg.type)
    for inst in region.fn.instructions():
        visit(inst.type)
    return list(found.values())
