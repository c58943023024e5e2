"""``#pragma omp atomic`` (and what stays scalar) in simd loops, issue 21 item 5.

The atomic forms are lowered to calls of helpers the output defines
(s2s/frontend/lower_omp.py, s2s/ir/atomic_calls.py); the kernels
``atomic_*`` of the differential testsuite check what they compute.  Here:
the helper names, which forms are vectorized, and that each form s2svec
does not take leaves its loop scalar with a warning at the construct.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hostile_support import compile_everywhere, vectorize

from s2s.ir.atomic_calls import AtomicCall, atomic_call_named
from s2s.ir.types import F32, F64, I8, I32, U32, IntType


@pytest.mark.parametrize(
    "call",
    [
        AtomicCall("update", I32, "add", I32),
        AtomicCall("old", IntType(8, False), "rsub", I32, "seq_cst"),
        AtomicCall("new", F32, "mul", F64, "acq_rel"),
        AtomicCall("read", F64, order="acquire"),
        AtomicCall("write", I8),
        AtomicCall("swap", U32, order="release"),
    ],
)
def test_helper_names_round_trip(call: AtomicCall) -> None:
    assert atomic_call_named(call.name) == call


def test_helper_names_of_other_calls() -> None:
    assert atomic_call_named("s2s_atomic_update_i32_relaxed") is None  # an update needs an op
    assert atomic_call_named("s2s_atomic_read_add_i32_i32_relaxed") is None
    assert atomic_call_named("s2s_cexp_re") is None


def test_fetch_builtins_only_where_they_compute_the_update() -> None:
    assert AtomicCall("update", I8, "add", I32).fetch == "__atomic_fetch_add"
    assert AtomicCall("new", I32, "xor", I32).fetch == "__atomic_xor_fetch"
    assert AtomicCall("update", I32, "rsub", I32).fetch == ""  # x = e - x
    assert AtomicCall("update", I32, "mul", I32).fetch == ""
    assert AtomicCall("update", I32, "add", F64).fetch == ""  # x += 0.5
    assert AtomicCall("update", F64, "add", F64).fetch == ""


VECTORIZED = """
int g;
void f(int n, int *h, const int *k, const double *x, double *s, float *out)
{
    int count = 0;
    double t = 0.0;
#pragma omp simd
    for (int i = 0; i < n; i++) {
#pragma omp atomic
        h[k[i]] += 2;
#pragma omp atomic update
        count++;
        if (x[i] > 0) {
#pragma omp atomic
            t = t + x[i];
#pragma omp atomic
            g = 7 - g;
        }
#pragma omp atomic write seq_cst
        s[k[i]] = x[i];
#pragma omp atomic read
        out[i] = s[k[i] + 1];
        int v;
#pragma omp atomic capture
        { v = h[i]; h[i] *= 3; }
        out[i] += (float)v;
        int p = 0;
#pragma omp atomic
        p += 1;  /* private to the lane: plain code */
        out[i] += (float)p;
    }
    *s = t + count;
}
"""


def test_atomic_forms_are_vectorized(tmp_path: Path) -> None:
    r = vectorize(tmp_path, VECTORIZED)
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == 1
    text = r.output.read_text()
    for name in (
        "s2s_atomic_update_add_i32_i32_relaxed",
        "s2s_atomic_update_add_f64_f64_relaxed",
        "s2s_atomic_update_rsub_i32_i32_relaxed",
        "s2s_atomic_write_f64_seq_cst",
        "s2s_atomic_read_f64_relaxed",
        "s2s_atomic_old_mul_i32_i32_relaxed",
    ):
        assert name + "(" in text, name
    assert "s2s_atomic_update_add_i32_i32_relaxed((void *)(s2s_p" not in text  # p is private
    compile_everywhere(r.output)
    warning_free(r.output)


def warning_free(path: Path) -> None:
    """gcc and clang-19, with and without OpenMP, build the output without
    a warning (the input's own pragmas warn without -fopenmp)."""
    for cc in ("gcc", "clang-19"):
        if shutil.which(cc) is None:
            pytest.skip(f"needs {cc}")
        for flags in (["-mavx2", "-mfma"], ["-march=x86-64-v4"]):
            for omp in (["-fopenmp"], ["-Wno-unknown-pragmas"]):
                done = subprocess.run(
                    [cc, *omp, *flags, "-Wall", "-Wextra", "-Werror", "-O1", "-c"]
                    + [str(path), "-o", "/dev/null"],
                    capture_output=True,
                    text=True,
                )
                assert done.returncode == 0, f"{cc} {omp} {flags}:\n{done.stderr[-3000:]}"


# name: (loop body, line and column of the warning, words of the warning)
SCALAR = {
    "compare": (
        "#pragma omp atomic compare\n    if (h[0] < x[i]) h[0] = x[i];",
        6,
        5,
        "'#pragma omp atomic compare' in a simd loop is not supported",
    ),
    "not_an_update": (
        "#pragma omp atomic\n    h[0] = x[i];",
        7,
        5,
        "is not an atomic form s2svec recognizes",
    ),
    "x_in_the_operand": (
        "#pragma omp atomic\n    h[0] += h[0] * x[i];",
        7,
        13,
        "'h[0]' accessed atomically also appears in 'h[0] * x[i]'",
    ),
    "pointer": (
        "#pragma omp atomic\n    q++;",
        7,
        5,
        "'#pragma omp atomic' on 'q' of type 'int *' in a simd loop is not supported",
    ),
    "also_accessed_without_atomic": (
        "#pragma omp atomic\n    c++;\n    h[i] = c;",
        8,
        12,
        "'c' is written by '#pragma omp atomic' or in a '#pragma omp ordered simd' block at line 7",
    ),
    "whole_body": (
        "",
        6,
        1,
        "'#pragma omp atomic' on the whole body of the simd loop (write the body in braces)",
    ),
}


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_atomic_forms_left_scalar(tmp_path: Path, name: str) -> None:
    body, line, column, words = SCALAR[name]
    loop = (
        "    for (int i = 0; i < n; i++) {\n    " + body + "\n    }\n"
        if body
        else "    for (int i = 0; i < n; i++)\n#pragma omp atomic\n        c++;\n"
    )
    code = (
        "int f(int n, int *h, const int *x, int *q)\n{\n    int c = 0;\n#pragma omp simd\n"
        + loop
        + "    return c + (q != 0);\n}\n"
    )
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    m = r.warning_at(line, words)
    assert int(m["col"]) == column, m.group(0)
    assert r.vectorized_loops() == 0
    compile_everywhere(r.output)


def test_functions_with_omp_directives_are_not_inlined(tmp_path: Path) -> None:
    """Inlined as plain code, the atomic update of colliding lanes would
    be a gather and a scatter that loses updates: the call stays a call."""
    code = """
static void add1(int *h, int k)
{
#pragma omp atomic
    h[k] += 1;
}
void f(int n, int *hist, const int *idx)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        add1(hist, idx[i]);
}
"""
    r = vectorize(tmp_path, code, "--report")
    assert r.returncode == 0, r.stderr
    assert "call to 'add1' runs lane by lane: 'add1' has '#pragma omp atomic' at line 4" in (
        r.stderr
    )
    assert "scatter" not in r.output.read_text()
    compile_everywhere(r.output)


ORDERED = """
#include <stdio.h>
typedef double real;
int total;
void f(int n, const real *x, real *out, int *len)
{
    int count = 0;
#pragma omp simd
    for (int i = 1; i < n; i++) {
        real y = x[i] * 2;
        int k = -1;
        if (y > 0) {
#pragma omp ordered simd
            {
                k = count;
                out[count++] = y;
                total += i;
                for (int j = 0; j < 2; j++)
                    if (j == 1)
                        break;
            }
        }
        out[n + i] = k;
#pragma omp ordered simd
        out[i] += out[i - 1];
    }
    *len = count;
}
"""


def test_ordered_blocks_are_outlined(tmp_path: Path) -> None:
    r = vectorize(tmp_path, ORDERED, "--report")
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == 1
    text = r.output.read_text()
    assert (
        "static inline void s2s_ordered_13_1(int *k, int *count, real *out, real y, int i)" in text
    )
    assert "static inline void s2s_ordered_24_1(real *out, int i)" in text
    assert "total += i;" in text  # a global: the helper names it
    assert "/* ordered simd */" in text  # the scalar remainder runs in order anyway
    assert "the '#pragma omp ordered simd' block runs lane by lane" in r.stderr
    compile_everywhere(r.output)
    warning_free(r.output)


# name: (the ordered block, the line, the words of the warning)
ORDERED_SCALAR = {
    "return": ("{ if (a[i] > 0) return; a[i] = 1; }", 6, "return statement in it is not supported"),
    "break_out": ("{ if (a[i] > 0) break; }", 6, "break statement leaves it"),
    "local_type": ("{ T t = (T)a[i]; a[i] = t; }", 6, "the type 'T' is declared in the function"),
    "read_outside": (
        "{ c++; }\n    a[i] = c;",
        7,
        "'c' is written by '#pragma omp atomic' or in a '#pragma omp ordered simd' block",
    ),
    "writes_a_reduction_variable": (
        "{ s += a[i]; }",
        6,
        "'s', private to the lane (a data-sharing clause names it), is written",
    ),
    "array_local": (
        "{ a[i] = b[0]; }",
        6,
        "'b' of type 'double[2]' is not a scalar or object pointer",
    ),
    "nested_directive": (
        "{\n#pragma omp atomic\n      c++;\n    }",
        5,
        "'#pragma omp atomic' inside it is not supported",
    ),
}


@pytest.mark.parametrize("name", sorted(ORDERED_SCALAR))
def test_ordered_blocks_left_scalar(tmp_path: Path, name: str) -> None:
    block, line, words = ORDERED_SCALAR[name]
    code = (
        "void f(int n, double *a)\n{\n    typedef float T;\n    int c = 0; double s = 0;\n"
        "#pragma omp simd reduction(+: s)\n    for (int i = 0; i < n; i++) {\n"
        "    double b[2] = {1, 2};\n    s += b[1];\n"
        "#pragma omp ordered simd\n    " + block + "\n    }\n    a[0] = c + s;\n}\n"
    )
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    r.warning_at(line + 4, words)
    assert r.vectorized_loops() == 0
    compile_everywhere(r.output)
