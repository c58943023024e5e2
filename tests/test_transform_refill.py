"""Lane refill (s2s.transform.refill), on lowered C loops.

The refill region runs every iteration of the loop, lane l taking l, l + W,
l + 2W, ...  Run lane by lane (the transform alone) and in predicated lock
step (after the whole pipeline), it must leave memory exactly as the
original region run once per iteration does, for any count and width, and
never touch an element past the last iteration (the arrays end there).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_codegen_kit import vectorize
from test_lower_support import lower_one

from s2s.analysis.divergence import DivergenceInfo
from s2s.analysis.shapes import region_arg_shapes
from s2s.ir.interpreter import Memory, Scalar, run_lanes, run_predicated, run_scalar
from s2s.ir.printer import print_function
from s2s.ir.types import F64, I32
from s2s.pipeline import AnalyzedRegion, PassState, analyze_variant, passes, run_passes
from s2s.report import RegionReport
from s2s.transform.passes import PassOptions
from s2s.transform.refill import refill_lanes

# A divergent loop with a per-lane trip count and an expensive trip (five
# math calls), a value computed before it and a store after it.
LOOP = """
#include <math.h>
void f(int n, const double *x, const int *lim, double *out) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    double v = x[i] * 0.5;
    int k = 0, m = lim[i];
    while (k < m) {
      v = log(v * v + 2.0) + exp(-v) + sqrt(v + 1.0) + log(v + 3.0) + exp(v * 0.25);
      k++;
    }
    out[i] = v + k;
  }
}
"""
# Loads in the loop whose address depends only on the iteration (read once
# per iteration and lane: _cache_iteration_loads), one under a branch.
RELOADS = LOOP.replace(
    "while (k < m) {",
    """while (k < lim[i]) {
      if (v > 0.5)
        v -= x[i] * 0.125;""",
)
TRIP = "log(v * v + 2.0) + exp(-v) + sqrt(v + 1.0) + log(v + 3.0) + exp(v * 0.25)"
CHEAP = LOOP.replace(TRIP, "v * 0.5 + 1.0")
# Loops of their own before the divergent loop (divergent: per-lane trips)
# and after it (uniform): they run with the lane's start and end of an
# iteration, the heaviest loop is the refilled one.
PRE_POST_LOOPS = LOOP.replace(
    "int k = 0, m = lim[i];",
    """int k = 0, m = lim[i];
    for (int s = 0; s < (m & 3); s++)
      v += 0.5;""",
).replace(
    "out[i] = v + k;",
    """for (int j = 0; j < 3; j++)
      v = v * 0.5 + j;
    out[i] = v + k;""",
)

# A start that weighs more than a trip of the loop (a loop of math calls
# before it): lanes whose iteration ended wait for a quarter of the vector.
HEAVY_START = LOOP.replace(
    "int k = 0, m = lim[i];",
    """int k = 0, m = lim[i];
    for (int s = 0; s < (m & 3) + 1; s++)
      v = log(v * v + 2.0) + exp(-v) + log(v + 4.0);""",
)


def _canonical(tmp_path: Path, code: str):
    region = lower_one(tmp_path, code)
    state = PassState(region.fn, region_arg_shapes(region))
    run_passes(state, passes("dce", "canonicalize"))
    return region, state.get(DivergenceInfo)


def test_the_loop_nest_becomes_one_loop(tmp_path: Path) -> None:
    region, div = _canonical(tmp_path, LOOP)
    assert refill_lanes(region, div) is region
    text = print_function(region.fn)
    assert [b.role for b in region.args][-3:] == ["lane", "count", "width"]
    assert text.index("refill.entry:") < text.index("refill.head:") < text.index("refill.start:")
    assert "%fresh = phi i1 [i1 1, refill.entry], [i1 0, " in text
    assert "%t.next = add %t, %s2s.width" in text
    assert "%more = cmp lt %t, %s2s.count" in text
    # one loop: the old header is entered from refill.head, not from its latch
    _, div2 = _canonical_fn(region)
    assert [lp.header.name for lp in div2.loops.loops] == ["refill.head"]


def test_lanes_wait_to_start_only_when_a_start_weighs_more_than_a_trip(tmp_path: Path) -> None:
    """HEAVY_START: refill.head counts the lanes ready to start and sends
    them on (refill.gate) when a quarter of the vector is ready or no lane
    is left in the loop, else round again (refill.wait); a light start goes
    on at once."""
    region, div = _canonical(tmp_path, HEAVY_START)
    assert refill_lanes(region, div, min_ratio=0) is region
    text = print_function(region.fn)
    assert "%enough = shr %s2s.width, i32 2" in text
    assert "%ready = call i32 @s2s.popcount(%fresh)" in text
    assert "%busy = call i1 @s2s.any(%in.loop)" in text
    assert "condbr %fresh, refill.gate, " in text
    assert "condbr %go, refill.start, refill.wait" in text
    assert "[i1 1, refill.wait]" in text.split("%fresh = phi")[1].split("\n")[0]
    region, div = _canonical(tmp_path, LOOP)
    assert refill_lanes(region, div, min_ratio=0) is region
    text = print_function(region.fn)
    assert "popcount" not in text and "refill.wait" not in text


def test_the_arm_that_stays_in_the_loop_gets_no_all_false_skip(tmp_path: Path) -> None:
    """Refilled lanes leave the loop together only at the end: its body arm
    is marked usually entered and BOSCC skips it by no weight (the trip's
    five math calls weigh far above the threshold), while the exit arm
    keeps its rarely-entered skip; unmarked, the body gets a gadget."""
    from s2s.transform.boscc import insert_gadgets

    region, div = _canonical(tmp_path, LOOP)
    header = div.loops.loops[0].header
    body, leave = header.successors
    refill_lanes(region, div)
    assert body.usually_entered and not body.rarely_entered and leave.rarely_entered
    _, div2 = _canonical_fn(region)
    assert [g.skipped for g in insert_gadgets(region.fn, div2, 16) if g.branch is header] == [leave]
    region, div = _canonical(tmp_path, LOOP)
    refill_lanes(region, div)
    for block in region.fn.blocks:
        block.usually_entered = False
    _, div2 = _canonical_fn(region)
    assert body.name in {g.skipped.name for g in insert_gadgets(region.fn, div2, 16)}


def _canonical_fn(region):
    state = PassState(region.fn, region_arg_shapes(region))
    run_passes(state, passes("canonicalize"))
    return region, state.get(DivergenceInfo)


def _memory(n: int, lim: list[int]) -> tuple[Memory, int, int, int]:
    mem = Memory()
    x = mem.alloc_array(F64, [0.25 * k - 1.0 for k in range(n)] or [0.0])
    lim_addr = mem.alloc_array(I32, lim or [0])
    out = mem.alloc_array(F64, [-7.0] * max(n, 1))
    return mem, x, lim_addr, out


def _args(region, lane: int, n: int, width: int, x: int, lim: int, out: int) -> list[object]:
    by_role = {"iv": lane, "lane": lane, "count": n, "width": width}
    by_name = {"n": n, "x": x, "lim": lim, "out": out}
    return [by_role.get(b.role, by_name.get(b.c_expr)) for b in region.args]


def _reference(tmp_path: Path, n: int, lim: list[int], code: str) -> list[Scalar]:
    region = lower_one(tmp_path, code)
    mem, x, lim_addr, out = _memory(n, lim)
    for i in range(n):
        run_scalar(region.fn, _args(region, i, n, 1, x, lim_addr, out), mem)
    return mem.read_array(out, F64, n)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 13),
    width=st.sampled_from([2, 4, 8, 16]),
    lim=st.lists(st.integers(0, 6), min_size=13, max_size=13),
    code=st.sampled_from([LOOP, RELOADS, PRE_POST_LOOPS, HEAVY_START]),
)
def test_lanes_leave_memory_as_the_iterations_do(
    n: int, width: int, lim: list[int], code: str
) -> None:
    with tempfile.TemporaryDirectory(prefix="s2s_refill_") as tmp:
        _check_refill(Path(tmp), n, width, lim[:n], code)


@pytest.mark.parametrize("width", [8, 16])
def test_waiting_lanes_leave_memory_as_the_iterations_do(tmp_path: Path, width: int) -> None:
    """Lanes ending one or two at a time wait for others (a quarter of 8
    or 16 lanes) in the lock-step run."""
    _check_refill(tmp_path, 13, width, [6, 0, 1, 5, 2, 6, 3, 0, 4, 1, 6, 2, 5], HEAVY_START)


def _check_refill(tmp_path: Path, n: int, width: int, lim: list[int], code: str) -> None:
    """Refilled lanes and the predicated refill variant write what the
    iterations run one by one write."""
    expected = _reference(tmp_path, n, lim, code)
    region, div = _canonical(tmp_path, code)
    assert refill_lanes(region, div, min_ratio=0) is not None
    analyzed = analyze_variant(lower_one(tmp_path, code), "refill", PassOptions(refill_min_ratio=0))
    assert isinstance(analyzed, AnalyzedRegion)
    for fn_region, run in ((region, run_lanes), (analyzed.region, run_predicated)):
        mem, x, lim_addr, out = _memory(n, lim)
        run(
            fn_region.fn,
            [_args(fn_region, k, n, width, x, lim_addr, out) for k in range(width)],
            mem,
        )
        got = mem.read_array(out, F64, n)
        assert got == expected, run.__name__


@pytest.mark.parametrize(
    "code, why",
    [
        (CHEAP, "a trip of the loop weighs less than starting an iteration"),
        (LOOP.replace("#pragma omp simd", "#pragma omp simd safelen(8)"), "safelen"),
        (
            LOOP.replace("double *out) {", "double *out) {\n  double last = 0;")
            .replace("#pragma omp simd", "#pragma omp simd lastprivate(last)")
            .replace("out[i] = v + k;", "out[i] = v + k;\n    last = v;"),
            "lastprivate",
        ),
        (
            LOOP.replace("double *out) {", "double *out) {\n  int j = 0;")
            .replace("#pragma omp simd", "#pragma omp simd linear(j:1)")
            .replace("out[i] = v + k;", "out[i] = v + j;\n    j++;"),
            "linear",
        ),
        (LOOP.replace("while (k < m)", "while (k < n)"), "no divergent loop"),
    ],
)
def test_declines(tmp_path: Path, code: str, why: str) -> None:
    region, div = _canonical(tmp_path, code)
    assert refill_lanes(region, div) is None, why


def test_the_cost_model_weighs_what_the_lanes_pay(tmp_path: Path) -> None:
    """The cheap loop is declined only by the weights: with no bar
    (``--refill-ratio 0``) it is refilled."""
    region, div = _canonical(tmp_path, CHEAP)
    assert refill_lanes(region, div, min_ratio=0) is not None


def test_loads_of_the_iteration_are_made_once(tmp_path: Path) -> None:
    """``x[i]`` and ``lim[i]`` in the loop: loaded in a fill block entered
    while the lane has not loaded them in this iteration."""
    region, div = _canonical(tmp_path, RELOADS)
    assert refill_lanes(region, div, min_ratio=0) is not None
    text = print_function(region.fn)
    assert text.count(".fill:") == 2
    assert "condbr %" in text and "= load" in text.split(".fill:")[1].split("\n")[1]


def test_accesses_that_become_gathers_count(tmp_path: Path) -> None:
    """``out[i]`` written in every trip is contiguous in the plain loop and
    a scatter with refill: at the default gather weight (AVX2, NEON) it
    weighs more than at AVX-512's (cheap 16-lane gathers), so fewer bars
    let refill through."""
    code = LOOP.replace("while (k < m) {", "while (k < m) {\n      out[i] = v;")

    def refilled(weight: int, ratio: float) -> bool:
        region, div = _canonical(tmp_path, code)
        return refill_lanes(region, div, gather_weight=weight, min_ratio=ratio) is not None

    ratios = [0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
    cheap = [refilled(1, r) for r in ratios]
    dear = [refilled(8, r) for r in ratios]
    assert all(c or not d for c, d in zip(cheap, dear)) and sum(cheap) > sum(dear), (cheap, dear)


@pytest.mark.parametrize("target", ["avx512", "avx2", "neon"])
def test_the_vector_loop_is_the_refill_region(tmp_path: Path, target: str) -> None:
    """No vector loop over blocks of W iterations and no remainder: one run
    of the refill region per 2^30 iterations; --no-refill keeps the plain loop."""
    res, _ = vectorize(LOOP, target, workdir=tmp_path, refill_ratio=0)
    assert "s2s_chunk = 0x40000000ULL;" in res.text
    assert "s2s_trip - s2s_k <= s2s_chunk" in res.text
    assert "s2s_e++" not in res.text  # no scalar remainder loop
    plain = tmp_path / "plain"
    plain.mkdir()
    res, _ = vectorize(LOOP, target, workdir=plain, refill=False, refill_ratio=0)
    assert "0x40000000ULL" not in res.text and "s2s_e++" in res.text


def test_the_report_says_lane_refill(tmp_path: Path) -> None:
    """The text remark names it; the JSON keeps its schema (docs/user/report.rst)."""
    src = tmp_path / "k.c"
    src.write_text(LOOP)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "s2s",
            str(src),
            "-o",
            str(tmp_path / "o.c"),
            "--target",
            "avx2",
            "--refill-ratio",
            "0",
            "--report-file",
            str(tmp_path / "r.txt"),
            "--report",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "r.txt").read_text().splitlines()[0].endswith("divergent; lane refill")
    report = RegionReport("k.c", 1, "loop", "f", "avx2", vectorized=True, width=4, refill=True)
    assert "refill" not in report.to_json()
