"""The speculate pass: harmless arms of divergent branches become selects.

The front end lowers ``?:``, ``&&``, ``||`` and ``if`` as branches; the pass
decides, on the IR, what may run on every lane (transform/speculate.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_lower_support import alloc, ir_text, lower_one, run_loop

from s2s.analysis.shapes import region_arg_shapes
from s2s.ir.interpreter import Memory
from s2s.ir.types import F64, I32
from s2s.pipeline import PIPELINE, PassState, run_passes


def speculated(region):
    """Run the pipeline up to and including speculate."""
    passes = []
    for p in PIPELINE:
        passes.append(p)
        if p.name == "speculate":
            break
    run_passes(PassState(region.fn, region_arg_shapes(region)), tuple(passes))
    return region


def test_divergent_if_cascade_becomes_selects(tmp_path: Path) -> None:
    r = speculated(
        lower_one(
            tmp_path,
            """
void f(int n, const double *a, double *o, double lo, double hi) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    double x = a[i], y = 0;
    int k = 0;
    if (x < lo) { x = lo; k++; }
    else if (x > hi) x = hi;
    else { y = x * 2; k += 2; }
    o[i] = x + y + k;
  }
}
""",
        )
    )
    text = ir_text(r)
    assert "condbr" not in text and "phi" not in text
    assert "select" in text
    mem = Memory()
    a = alloc(mem, F64, [-3.0, 4.0, 25.0])
    o = alloc(mem, F64, [0.0] * 3)
    run_loop(r, {"n": 3, "a": a, "o": o, "lo": 0.0, "hi": 10.0}, mem)
    assert mem.read_array(o, F64, 3) == [1.0, 14.0, 10.0]


def test_short_circuit_in_a_conditional_becomes_and_and_select(tmp_path: Path) -> None:
    r = speculated(
        lower_one(
            tmp_path,
            """
void f(int n, const double *a, double *o, double lo) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    double x = a[i];
    o[i] = (x < lo && x > -lo) ? lo : x * 2.0;
  }
}
""",
        )
    )
    text = ir_text(r)
    assert "select" in text and "condbr" not in text
    assert " and " in text


def test_uniform_branches_stay_branches(tmp_path: Path) -> None:
    """Arms longer than MAX_UNIFORM_ARM, or choosing between scalars."""
    r = speculated(
        lower_one(
            tmp_path,
            """
void f(int n, const double *a, double *o, double lo, int *k) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    double x = a[i];
    o[i] = lo > 0 ? ((x * 2 + 1) * x - 3) * x + 4 : x * 3;
    *k = lo > 1 ? n + 1 : n;
  }
}
""",
        )
    )
    assert ir_text(r).count("condbr") == 2


def test_short_uniform_arms_choosing_vectors_become_selects(tmp_path: Path) -> None:
    """``it < MAX && |z| <= 4`` of an escape-time loop: the uniform test's
    arm is one compare, and the loop keeps no diamond of vector phis."""
    r = speculated(
        lower_one(
            tmp_path,
            """
void f(int n, const double *c, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    double z = 0;
    int it = 0;
    while (it < 50 && z <= 4) { z = z * z + c[i]; it++; }
    o[i] = it;
  }
}
""",
        )
    )
    text = ir_text(r)
    assert text.count("condbr") == 1, text  # the while loop's exit
    assert " and " in text
    mem = Memory()
    c = alloc(mem, F64, [0.1, 1.0, 3.0])
    o = alloc(mem, I32, [0] * 3)
    run_loop(r, {"n": 3, "c": c, "o": o}, mem)
    assert mem.read_array(o, I32, 3) == [50, 3, 2]


def test_stores_keep_their_branch(tmp_path: Path) -> None:
    r = speculated(
        lower_one(
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
    )
    assert ir_text(r).count("condbr") == 2


@pytest.mark.parametrize(
    "expr, folded",
    [
        ("a[i] > 0 ? x / 4 : x", True),
        ("a[i] > 0 ? x % 3 : x", True),
        ("a[i] > 0 ? x / k : x", False),  # k may be 0
        ("a[i] > 0 ? x / -1 : x", False),  # INT_MIN / -1
        ("a[i] > 0 ? x << 3 : x", True),
        ("a[i] > 0 ? x << k : x", False),  # the count may be out of range
        ("a[i] > 0 ? (int)d : x", False),  # out of range is undefined
        ("a[i] > 0 ? (double)x * d : 0", True),
        ("a[i] > 0 ? sqrt(d) : d", False),  # calls are left to linearization + BOSCC
        ("a[i] > 0 ? ext(d) : d", False),
        ("x > 0 && d / x > 1.0", True),  # becomes 'and'
        ("x > 0 && k / x > 1", False),
        ("a[i] > 0 ? a[i + 1] : 0", False),  # a load may trap
    ],
)
def test_what_may_run_on_every_lane(tmp_path: Path, expr: str, folded: bool) -> None:
    r = speculated(
        lower_one(
            tmp_path,
            f"""
#include <math.h>
double ext(double);
void f(int n, const int *a, double *o, int k, double d) {{
  #pragma omp simd
  for (int i = 0; i < n; i++) {{
    int x = a[i];
    o[i] = {expr};
  }}
}}
""",
        )
    )
    assert ("condbr" not in ir_text(r)) == folded
