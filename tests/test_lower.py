"""Tests of s2s.frontend.lower: printed IR, bindings, canonical loop forms."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_lower_support import alloc, ir_text, lower_all, lower_one, run_loop, unsupported_of

from s2s.ir.interpreter import Memory, run_scalar
from s2s.ir.types import F64, I32, I64, U32, ArrayType, PtrType, StructType
from s2s.ir.values import Alloca, Phi


def test_saxpy_prints_exact_ir(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void saxpy(int n, float a, const float *x, float *restrict y) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
""",
    )
    assert (
        ir_text(r)
        == """\
func @saxpy.4(i32 %i, ptr<f32> %y, f32 %a, ptr<f32> %x) -> () {
entry:
  %0 = cast %i to i64
  %1 = gep %y, %0
  %2 = gep %x, %0
  %3 = load %2
  %4 = mul %a, %3
  %5 = load %1
  %6 = add %4, %5
  store %6, %1
  br ret
ret:
  ret
}
"""
    )
    assert r.name == "saxpy:4"
    assert r.kind == "loop"
    assert [(a.role, a.c_expr, a.c_type) for a in r.args] == [
        ("iv", "i", "int"),
        ("uniform", "y", "float *restrict"),
        ("uniform", "a", "float"),
        ("uniform", "x", "const float *"),
    ]
    assert r.bounds is not None
    b = r.bounds
    assert (b.var, b.var_c_type, b.var_declared_in_loop, b.lower, b.upper, b.cmp, b.step) == (
        "i",
        "int",
        True,
        "0",
        "n",
        "<",
        1,
    )
    assert r.body_text == "y[i] = a * x[i] + y[i];"
    assert r.loop_text.startswith("for (int i = 0;") and r.loop_text.endswith("y[i];")
    assert r.pragma_text == "#pragma omp simd"
    assert r.replace is not None
    code = (tmp_path / "k.c").read_bytes()
    assert code[r.replace.start : r.replace.end].decode().endswith("+ y[i];")


def test_reduction_binding_and_semantics(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
double dot(int n, const double *a, const double *b) {
  double s = 0.0;
  #pragma omp simd reduction(+:s)
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}
""",
    )
    assert [(a.role, a.c_expr, a.reduction_op) for a in r.args] == [
        ("iv", "i", ""),
        ("reduction", "s", "+"),
        ("uniform", "a", ""),
        ("uniform", "b", ""),
    ]
    assert len(r.results) == 1
    res = r.results[0]
    assert (res.index, res.role, res.c_var, res.type, res.reduction_op) == (
        0,
        "reduction",
        "s",
        F64,
        "+",
    )
    assert res.arg is r.args[1].arg
    assert r.fn.ret_types == [F64]
    mem = Memory()
    a = alloc(mem, F64, [1.0, 2.0, 3.0, 4.0, 5.0])
    b = alloc(mem, F64, [2.0, 2.0, 2.0, 2.0, 0.5])
    out = run_loop(r, {"n": 5, "a": a, "b": b, "s": 0.0}, mem)
    assert out == {"s": 2.0 + 4.0 + 6.0 + 8.0 + 2.5}


@pytest.mark.parametrize(
    "header, lower, upper, cmp, step",
    [
        ("for (int i = 0; i < n; i++)", "0", "n", "<", 1),
        ("for (int i = 0; i <= n; ++i)", "0", "n", "<=", 1),
        ("for (int i = n; i > 0; i--)", "n", "0", ">", -1),
        ("for (int i = n; i >= 1; --i)", "n", "1", ">=", -1),
        ("for (int i = 0; i != n; i++)", "0", "n", "!=", 1),
        ("for (int i = 0; n > i; i += 2)", "0", "n", "<", 2),
        ("for (int i = 0; n != i; i++)", "0", "n", "!=", 1),
        ("for (int i = 2 * 3; i < n - 1; i += STEP)", "2 * 3", "n - 1", "<", 4),
        ("for (int i = 0; i < N; i += STEP / 2)", "0", "N", "<", 2),
        ("for (int i = n; i > -5; i -= 3)", "n", "-5", ">", -3),
        ("for (int i = 0; i < n; i = i + 3)", "0", "n", "<", 3),
        ("for (int i = 0; i < n; i = 5 + i)", "0", "n", "<", 5),
        ("for (int i = n; i >= 0; i = i - 2)", "n", "0", ">=", -2),
        ("for (int i = 0; i < n; i += sizeof(double))", "0", "n", "<", 8),
        ("for (unsigned char i = 0; i < 200; i++)", "0", "200", "<", 1),
        ("for (unsigned long i = 0; i < n; i++)", "0", "n", "<", 1),
        ("for (short i = 10; i >= 0; i--)", "10", "0", ">=", -1),
    ],
)
def test_canonical_forms(
    tmp_path: Path, header: str, lower: str, upper: str, cmp: str, step: int
) -> None:
    r = lower_one(
        tmp_path,
        f"""
#define N 100
#define STEP 4
void f(int n, int *a) {{
  #pragma omp simd
  {header}
    a[i] = 1;
}}
""",
    )
    assert r.bounds is not None
    b = r.bounds
    assert (b.lower, b.upper, b.cmp, b.step) == (lower, upper, cmp, step)
    assert r.args[0].role == "iv" and r.args[0].step == step
    assert r.fn.args[0] is r.args[0].arg


def test_loop_variable_declared_outside(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, long *a) {
  long i;
  #pragma omp simd
  for (i = 1; i < n; i++)
    a[i] = i;
}
""",
    )
    assert r.bounds is not None
    assert r.bounds.var_declared_in_loop is False
    assert r.bounds.var_c_type == "long"
    assert r.fn.args[0].type == I64


def test_iv_types(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(unsigned n, unsigned *a) {
  #pragma omp simd
  for (unsigned i = 0; i < n; i++)
    a[i] = i;
}
""",
    )
    assert r.fn.args[0].type == U32


@pytest.mark.parametrize(
    "var, bound, cmp, ctype",
    [
        ("unsigned char", "int n", "c < n", "int"),
        ("unsigned char", "int n", "n > c", "int"),
        ("unsigned short", "unsigned n", "c != n", "unsigned int"),
        ("int", "unsigned n", "c <= n", "unsigned int"),
        ("unsigned int", "long long n", "c < n", "long long"),
        ("signed char", "long n", "c >= n", "long"),
    ],
)
def test_comparison_type_is_kept(
    tmp_path: Path, var: str, bound: str, cmp: str, ctype: str
) -> None:
    """The bound keeps its value: the count is computed in the type the
    comparison is evaluated in, not in the variable's type (a bound of 300
    for an unsigned char variable was truncated to 44)."""
    step = "c--" if ">" in cmp.replace("n > c", "<") else "c++"
    r = lower_one(
        tmp_path,
        f"""
void f({bound}, int *a) {{
  #pragma omp simd
  for ({var} c = 0; {cmp}; {step})
    a[c] = c;
}}
""",
    )
    assert r.bounds is not None and r.bounds.cmp_c_type == ctype
    assert r.bounds.var_c_type == var


def test_collapse_keeps_outer_headers(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
#define M 8
void f(int n, double a[][M]) {
  #pragma omp simd collapse(2)
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < M; j++) {
      a[i][j] = i * j;
    }
  }
}
""",
    )
    assert r.outer_loops == ["for (int i = 0; i < n; i++)"]
    assert r.bounds is not None and r.bounds.var == "j" and r.bounds.upper == "M"
    roles = [(a.role, a.c_expr, a.c_type) for a in r.args]
    assert roles == [("iv", "j", "int"), ("uniform", "a", "double (*)[8]"), ("uniform", "i", "int")]
    assert r.fn.args[1].type == PtrType(ArrayType(F64, 8))
    assert r.loop_text.startswith("for (int i = 0;")


@pytest.mark.parametrize("clause", ["lastprivate(i, j)", "private(i)", "private(i) lastprivate(j)"])
@pytest.mark.parametrize("directive", ["simd", "for simd", "parallel for simd"])
def test_collapse_outer_variable_in_clause_stays_live_in(
    tmp_path: Path, directive: str, clause: str
) -> None:
    """The outer loop variable of a collapsed nest is a live-in of the region
    even when private/lastprivate names it (it was bound as an undefined
    private: the body saw 0, and lastprivate wrote it, so the outer loop
    never ended)."""
    r = lower_one(
        tmp_path,
        f"""
int a[64];
void f(void) {{
  int i, j;
  #pragma omp {directive} collapse(2) {clause}
  for (i = 0; i < 4; i++)
    for (j = 0; j < 16; j++)
      a[i * 16 + j] = i;
}}
""",
    )
    roles = [(b.role, b.c_expr) for b in r.args]
    assert roles == [("iv", "j"), ("uniform", "a"), ("uniform", "i")]
    assert r.results == []
    assert r.outer_loops == ["for (i = 0; i < 4; i++)"]


@pytest.mark.parametrize("var", ["i", "j", "k"])
def test_collapse_linear_iteration_variable_is_an_error(tmp_path: Path, var: str) -> None:
    from s2s.diagnostics import UserError

    with pytest.raises(
        UserError, match=f"loop variable '{var}' of a collapse\\(3\\) nest may not be linear"
    ):
        lower_one(
            tmp_path,
            f"""
int a[64];
void f(void) {{
  int i, j, k;
  #pragma omp simd collapse(3) linear({var})
  for (i = 0; i < 2; i++)
    for (j = 0; j < 2; j++)
      for (k = 0; k < 16; k++)
        a[i * 32 + j * 16 + k] = i + j;
}}
""",
        )


def test_linear_private_lastprivate(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, int *a, int *b) {
  int j = 0, t, last = -1;
  #pragma omp simd linear(j:2) private(t) lastprivate(last)
  for (int i = 0; i < n; i++) {
    t = a[j] + 1;
    b[i] = t;
    last = t * 2;
    j += 2;
  }
}
""",
    )
    assert [(a.role, a.c_expr, a.step) for a in r.args] == [
        ("iv", "i", 1),
        ("linear", "j", 2),
        ("uniform", "a", 0),
        ("uniform", "b", 0),
    ]
    assert [(x.role, x.c_var, x.index) for x in r.results] == [("lastprivate", "last", 0)]
    mem = Memory()
    a = alloc(mem, I32, list(range(10, 30)))
    b = alloc(mem, I32, [0] * 5)
    out = run_loop(r, {"n": 5, "a": a, "b": b, "j": 0}, mem)
    assert mem.read_array(b, I32, 5) == [11, 13, 15, 17, 19]
    assert out == {"last": 38}


def test_results_order_reductions_then_lastprivate(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
int f(int n, const int *a) {
  int lo = 0, mx = -1000, s = 0;
  #pragma omp simd lastprivate(lo) reduction(max:mx) reduction(+:s)
  for (int i = 0; i < n; i++) {
    lo = a[i];
    mx = mx > a[i] ? mx : a[i];
    s += a[i];
  }
  return lo + mx + s;
}
""",
    )
    assert [(x.role, x.c_var, x.index) for x in r.results] == [
        ("reduction", "mx", 0),
        ("reduction", "s", 1),
        ("lastprivate", "lo", 2),
    ]
    assert [a.c_expr for a in r.args[:3]] == ["i", "mx", "s"]
    mem = Memory()
    a = alloc(mem, I32, [3, 9, -2, 7])
    assert run_loop(r, {"n": 4, "a": a, "mx": -1000, "s": 0}, mem) == {"mx": 9, "s": 17, "lo": 7}


def test_uniform_by_address(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
struct vec3 { double x, y, z; };
double gscale;
void f(int n, double *out) {
  struct vec3 v = {1, 2, 3};
  double w[4] = {1, 2, 3, 4};
  double k = 2;
  double *pk = &k;
  #pragma omp simd
  for (int i = 0; i < n; i++)
    out[i] = v.y * w[i & 3] * k * gscale;
  (void)pk;
}
""",
    )
    got = [(a.role, a.c_expr, a.c_type, str(a.arg.type)) for a in r.args]
    assert got == [
        ("iv", "i", "int", "i32"),
        ("uniform", "out", "double *", "ptr<f64>"),
        ("uniform", "&v", "struct vec3 *", "ptr<struct.vec3>"),
        ("uniform", "w", "double *", "ptr<f64>"),
        ("uniform", "&k", "double *", "ptr<f64>"),
        ("uniform", "&gscale", "double *", "ptr<f64>"),
    ]


def test_struct_type_layout(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
typedef struct { char tag; double v[3]; int id; } item_t;
struct wrap { short s; item_t it; };
void f(int n, struct wrap *w, double *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    o[i] = w[i].it.v[2] + w[i].s + w->it.tag;
}
""",
    )
    wt = next(a.arg.type for a in r.args if a.c_expr == "w")
    assert isinstance(wt, PtrType) and isinstance(wt.pointee, StructType)
    st = wt.pointee
    assert (st.name, st.c_spelling, st.size) == ("wrap", "struct wrap", 48)
    item = st.field_named("it").type
    assert isinstance(item, StructType)
    assert (item.name, item.c_spelling, item.size) == ("item_t", "item_t", 40)
    assert [(f.name, str(f.type), f.offset) for f in item.fields] == [
        ("tag", "i8", 0),
        ("v", "[3 x f64]", 8),
        ("id", "i32", 32),
    ]
    assert "fieldaddr" in ir_text(r)


def test_local_array_and_address_taken_are_allocas(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void g(int *);
void f(int n, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    int tmp[3] = {i, 2 * i};
    int x = i;
    g(&x);
    o[i] = tmp[0] + tmp[1] + tmp[2] + x;
  }
}
""",
    )
    allocas = [i for i in r.fn.instructions() if isinstance(i, Alloca)]
    assert [str(a.allocated) for a in allocas] == ["[3 x i32]", "i32"]
    assert all(a.block is r.fn.entry for a in allocas)


def test_scalar_locals_are_ssa_with_phis(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const double *a, double *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    double x = a[i];
    if (x < 0) x = -a[i];
    else if (x > 10) x = 10;
    o[i] = x;
  }
}
""",
    )
    phis = [i for i in r.fn.instructions() if isinstance(i, Phi)]
    assert len(phis) >= 1
    assert not any(isinstance(i, Alloca) for i in r.fn.instructions())
    mem = Memory()
    a = alloc(mem, F64, [-3.0, 4.0, 25.0])
    o = alloc(mem, F64, [0.0] * 3)
    run_loop(r, {"n": 3, "a": a, "o": o}, mem)
    assert mem.read_array(o, F64, 3) == [3.0, 4.0, 10.0]


def test_trapping_conditional_keeps_branches(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const int *a, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    o[i] = a[i] != 0 ? 100 / a[i] : 0;
}
""",
    )
    text = ir_text(r)
    assert "condbr" in text and "select" not in text
    mem = Memory()
    a = alloc(mem, I32, [0, 7, -3])
    o = alloc(mem, I32, [9, 9, 9])
    run_loop(r, {"n": 3, "a": a, "o": o}, mem)
    assert mem.read_array(o, I32, 3) == [0, 14, -33]


def test_short_circuit_with_load_branches(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const int *a, const int *idx, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    o[i] = idx[i] >= 0 && a[idx[i]] > 5;
}
""",
    )
    text = ir_text(r)
    assert "land.rhs" in text and "phi i1" in text
    mem = Memory()
    a = alloc(mem, I32, [1, 10])
    idx = alloc(mem, I32, [-1000000, 0, 1])
    o = alloc(mem, I32, [7, 7, 7])
    run_loop(r, {"n": 3, "a": a, "idx": idx, "o": o}, mem)
    assert mem.read_array(o, I32, 3) == [0, 0, 1]


def test_continue_ends_iteration(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    if (i % 3 == 0) continue;
    o[i] = 1;
  }
}
""",
    )
    mem = Memory()
    o = alloc(mem, I32, [0] * 7)
    run_loop(r, {"n": 7, "o": o}, mem)
    assert mem.read_array(o, I32, 7) == [0, 1, 1, 0, 1, 1, 0]
    assert r.fn.blocks[-1].name == "ret"


def test_inner_loops_are_loop_closed_by_canonicalize(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const int *a, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    int x = a[i], steps = 0;
    do { x = x / 2; } while (x > 0);
    while (steps < a[i]) steps += 3;
    o[i] = x + steps;
  }
}
""",
    )
    # loop-closed SSA is built by canonicalize (one builder for all of s2svec):
    # the value of x leaving the do-loop goes through a phi in its exit block
    from s2s.transform.canonicalize import canonicalize

    canonicalize(r.fn)
    text = ir_text(r)
    end = text.split("do.end:\n")[1]
    assert end.lstrip().startswith("%x") and "phi" in end.splitlines()[0]
    mem = Memory()
    a = alloc(mem, I32, [5, 0, 7])
    o = alloc(mem, I32, [0] * 3)
    run_loop(r, {"n": 3, "a": a, "o": o}, mem)
    assert mem.read_array(o, I32, 3) == [6, 0, 9]


def test_switch_fallthrough_and_default(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const int *a, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    int r = 0;
    switch (a[i]) {
    case 1: r += 1;
    case 2: r += 10; break;
    case 7:
    case 8: r = 5; break;
    default: r = -1;
    }
    o[i] = r;
  }
}
""",
    )
    assert "switch" in ir_text(r)
    mem = Memory()
    a = alloc(mem, I32, [1, 2, 7, 8, 3])
    o = alloc(mem, I32, [0] * 5)
    run_loop(r, {"n": 5, "a": a, "o": o}, mem)
    assert mem.read_array(o, I32, 5) == [11, 10, 5, 5, -1]


def test_break_and_continue_of_inner_loop(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const int *a, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    int s = 0;
    for (int j = 0; j < 100; j++) {
      if (j % 2) continue;
      if (j > a[i]) break;
      s += j;
    }
    o[i] = s;
  }
}
""",
    )
    mem = Memory()
    a = alloc(mem, I32, [0, 4, 9])
    o = alloc(mem, I32, [0] * 3)
    run_loop(r, {"n": 3, "a": a, "o": o}, mem)
    assert mem.read_array(o, I32, 3) == [0, 6, 20]


def test_math_calls_are_pure_other_calls_not(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
#include <math.h>
double ext(double);
void f(int n, const double *a, double *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    o[i] = sqrt(a[i]) + fmax(a[i], 1.0) + expf((float)a[i]) + ext(a[i]);
}
""",
    )
    text = ir_text(r)
    assert "call f64 @sqrt(" in text and "@sqrt(%" in text
    for line in text.splitlines():
        if "@sqrt" in line or "@fmax" in line or "@expf" in line:
            assert line.endswith(" pure")
        if "@ext" in line:
            assert not line.endswith(" pure")
    mem = Memory()
    a = alloc(mem, F64, [4.0])
    o = alloc(mem, F64, [0.0])
    run_loop(r, {"n": 1, "a": a, "o": o}, mem, externals={"ext": lambda x: x * 100})
    import math

    assert mem.read_array(o, F64, 1)[0] == pytest.approx(
        2.0 + 4.0 + math.exp(4.0) + 400.0, rel=1e-6
    )


def test_several_loops_in_one_file(tmp_path: Path) -> None:
    regions = lower_all(
        tmp_path,
        """
void f(int n, int *a) {
  #pragma omp simd
  for (int i = 0; i < n; i++) a[i] = 0;
  #pragma omp parallel for simd
  for (int i = 0; i < n; i++) a[i] += 1;
  #pragma omp for simd
  for (int i = 0; i < n; i++) a[i] *= 2;
}
""",
    )
    assert [r.worksharing for r in regions] == ["", "parallel for", "for"]
    assert [r.body_text for r in regions] == ["a[i] = 0;", "a[i] += 1;", "a[i] *= 2;"]


def test_region_runs_one_iteration(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, int *a) {
  #pragma omp simd
  for (int i = 0; i < n; i += 4) a[i] = i * 3;
}
""",
    )
    mem = Memory()
    a = alloc(mem, I32, [0] * 12)
    assert run_scalar(r.fn, [8, a], mem) == []
    assert mem.read_array(a, I32, 12)[8] == 24


def test_if_with_store_keeps_branch(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const int *a, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    int q = 0;
    if (a[i] > 0) q = 100 / a[i];
    if (a[i] < 0) o[i] = q;
  }
}
""",
    )
    assert ir_text(r).count("condbr") == 2


def test_plain_char_signedness_is_selectable(tmp_path: Path) -> None:
    code = """
void f(int n, char *c, signed char *s, int *q) {
  #pragma omp simd
  for (int i = 0; i < n; i++) q[i] = c[i] / 3 + s[i];
}
"""
    r = lower_one(tmp_path, code)
    assert r.plain_char
    assert str(r.fn.args[2].type) == "ptr<i8>"
    from s2s.frontend.lower import lower_loop
    from s2s.frontend.parse import parse_file
    from s2s.frontend.pragmas import find_pragmas

    parsed = parse_file(str(tmp_path / "k.c"), [], [], "c11")
    unsigned = lower_loop(parsed, find_pragmas(parsed)[0], plain_char_signed=False)
    types = {a.c_expr: str(a.arg.type) for a in unsigned.args}
    assert types["c"] == "ptr<u8>" and types["s"] == "ptr<i8>"
    mem = Memory()
    c = mem.alloc_array(I32, [0])  # 4 bytes: one char 0xF0 and padding
    t = unsigned.fn.args[2].type
    assert isinstance(t, PtrType)
    mem.store(c, t.pointee, 0xF0)
    s = mem.alloc_array(I32, [0])
    q = alloc(mem, I32, [0])
    run_scalar(unsigned.fn, [0, q, c, s], mem)
    assert mem.read_array(q, I32, 1) == [0xF0 // 3]
    no_char = lower_one(
        tmp_path,
        "void f(int n, int *q) {\n#pragma omp simd\nfor (int i = 0; i < n; i++) q[i] = 'a';\n}\n",
    )
    assert not no_char.plain_char


def test_address_taken_clause_variables_live_in_stack_objects(tmp_path: Path) -> None:
    """A reduction, linear or lastprivate variable whose address is taken is
    an alloca of the region (one copy per lane): the accumulator and the
    linear value are stored to it at entry, the reduction and the
    lastprivate values are loaded from it at ``ret``."""
    r = lower_one(
        tmp_path,
        """
void f(int n, const int *a, int *b, int *out) {
  int s = 1, j = 5, last = -1;
  #pragma omp simd reduction(+:s) linear(j:2) lastprivate(last)
  for (int i = 0; i < n; i++) {
    int *ps = &s;
    *ps += a[i];
    int *pj = &j;
    b[i] = *pj;
    *pj += 2;
    int *pl = &last;
    *pl = a[i] * 3;
  }
  out[0] = s; out[1] = j; out[2] = last;
}
""",
    )
    assert [(a.role, a.c_expr) for a in r.args] == [
        ("iv", "i"),
        ("reduction", "s"),
        ("linear", "j"),
        ("uniform", "a"),
        ("uniform", "b"),
    ]
    assert [(x.role, x.c_var, x.index, x.assigned_index) for x in r.results] == [
        ("reduction", "s", 0, None),
        ("lastprivate", "last", 1, None),
    ]
    assert (
        ir_text(r)
        == """\
func @f.5(i32 %i, i32 %s, i32 %j, ptr<i32> %a, ptr<i32> %b) -> (i32, i32) {
entry:
  %s.1 = alloca i32
  %j.1 = alloca i32
  %last = alloca i32
  store %s, %s.1
  store %j, %j.1
  %0 = cast %i to i64
  %1 = gep %a, %0
  %2 = load %1
  %3 = load %s.1
  %4 = add %3, %2
  store %4, %s.1
  %5 = gep %b, %0
  %6 = load %j.1
  store %6, %5
  %7 = load %j.1
  %8 = add %7, i32 2
  store %8, %j.1
  %9 = load %1
  %10 = mul %9, i32 3
  store %10, %last
  br ret
ret:
  %11 = load %s.1
  %12 = load %last
  ret %11, %12
}
"""
    )
    mem = Memory()
    a = alloc(mem, I32, [4, -2, 7])
    b = alloc(mem, I32, [0] * 3)
    out = run_loop(r, {"n": 3, "a": a, "b": b, "s": 1, "j": 5}, mem)
    assert out == {"s": 10, "last": 21}
    assert mem.read_array(b, I32, 3) == [5, 7, 9]


WRITE_ONLY = """
int g;
int f(int n, int *a) {
  int last = -1, seen = 0, bound = n;
  #pragma omp simd
  for (int i = 0; i < bound; i++) {
    if (a[i] > 3) last = a[i];
    BODY
  }
  return last + seen + bound;
}
"""


def test_shared_variable_assigned_and_not_read(tmp_path: Path) -> None:
    """A local with no clause that the loop assigns and never reads gets the
    value of the last iteration that assigns it (lastprivate(conditional:)),
    with a note; a read, a global, a compound assignment or a variable of
    the loop's header keep the loop scalar."""
    r = lower_one(tmp_path, WRITE_ONLY.replace("BODY", "seen = i;"))
    assert [(x.role, x.c_var) for x in r.results] == [
        ("lastprivate", "last"),
        ("lastprivate", "seen"),
    ]
    assert len(r.notes) == 2 and "'last' is assigned and not read" in r.notes[0]
    assert r.notes[0].endswith("as 'lastprivate(conditional:)' would give")
    for body, name in [
        ("a[i] = seen; seen = i;", "seen"),
        ("seen += i;", "seen"),
        ("g = i;", "g"),
        ("bound = i;", "bound"),
    ]:
        exc = unsupported_of(tmp_path, WRITE_ONLY.replace("BODY", body))
        assert exc.message.startswith(f"assignment to shared variable '{name}'"), exc.message
