"""The pass manager (s2s/pipeline.py), the analysis cache and region copies.

A pass's required analyses are computed before it runs and it may read no
other; analyses it does not preserve are dropped after it (and those
computed from them) unless what it returned says it changed nothing, and
with S2S_VERIFY_EACH=1 those kept are checked against new ones; the
variants of a loop are pipelines over a copy of the lowered loop, which
stays as lowered (refill's is not run for a loop without loops);
``--print-after`` shows them.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import pkgutil
import random
import re
from pathlib import Path

import pytest
from test_driver import s2svec
from test_lower_support import lower_one
from transform_gen import OUT, TABLE, arg_shapes, build_region

import s2s.transform
from s2s.analysis.divergence import DivergenceInfo
from s2s.analysis.memory import MemoryAccesses
from s2s.diagnostics import Unsupported
from s2s.ir.clone import clone_function
from s2s.ir.interpreter import Memory, run_lanes
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.types import I32
from s2s.ir.values import BinOp, Phi
from s2s.ir.verifier import verify
from s2s.pipeline import (
    PASS_NAMES,
    PIPELINE,
    VARIANTS,
    analyze_variant,
    options_read,
    run_passes,
)
from s2s.transform.passes import Pass, PassOptions, PassState, did_any

LATE_DEFINITION = """func @f(i32 %n) -> (i32) {
entry:
  br def
use:
  %y = add %x, i32 1
  ret %y
def:
  %x = mul %n, i32 3
  br use
}"""


def _outputs(fn, lanes: list[int], u: int):
    mem = Memory()
    a = mem.alloc_array(I32, [(k * 5) % 13 - 4 for k in range(TABLE)])
    out = mem.alloc_array(I32, [0] * OUT)
    result = run_lanes(fn, [[v, k, u, a, out] for k, v in enumerate(lanes)], mem)
    return result, mem.read_array(out, I32, OUT)


@pytest.mark.parametrize("seed", range(12))
def test_a_copy_prints_and_runs_as_the_original(seed: int) -> None:
    fn = build_region(seed)
    copy, values = clone_function(fn)
    verify(copy)
    assert print_function(copy) == print_function(fn)
    assert all(values[a] is b for a, b in zip(fn.args, copy.args))
    r = random.Random(seed)
    lanes, u = [r.randint(-4, 9) for _ in range(4)], r.randint(-2, 6)
    assert _outputs(copy, lanes, u) == _outputs(fn, lanes, u)


@pytest.mark.parametrize("seed", range(6))
def test_the_pipeline_on_a_copy_leaves_the_original(seed: int) -> None:
    fn = build_region(seed)
    before = print_function(fn)
    copy, _ = clone_function(fn)
    run_passes(PassState(copy, arg_shapes(copy)), PIPELINE)
    assert print_function(fn) == before
    assert print_function(copy) != before


def test_a_copy_maps_operands_defined_later_in_the_layout() -> None:
    fn = parse_function(LATE_DEFINITION)
    copy, _ = clone_function(fn)
    verify(copy)
    originals = {id(i) for i in fn.instructions()}
    assert all(id(op) not in originals for i in copy.instructions() for op in i.operands)
    assert print_function(copy) == print_function(fn)


def _state(seed: int = 3) -> PassState:
    fn = build_region(seed)
    return PassState(fn, arg_shapes(fn))


def test_required_analyses_are_computed_before_the_pass() -> None:
    seen = []
    needs = Pass(
        "needs",
        lambda s: seen.append(s.analyses.cached(DivergenceInfo)),
        requires=(DivergenceInfo,),
    )
    run_passes(_state(), (needs,))
    assert seen == [True]


def test_reading_an_undeclared_analysis_is_an_internal_error() -> None:
    sneaky = Pass("sneaky", lambda s: s.get(DivergenceInfo))
    with pytest.raises(Unsupported, match="does not require"):
        run_passes(_state(), (sneaky,))


def _breaks_then_repairs() -> tuple[Pass, Pass]:
    """A pass that leaves a value used before its definition, and one that
    moves the definition back first: sound IR again."""
    moved: list = []

    def breaks(state: PassState) -> None:
        entry = state.fn.blocks[0]
        first = next(i for i in entry.instructions if not isinstance(i, Phi) and i.users)
        user = next(iter(first.users))
        entry.instructions.remove(first)
        assert user.block is not None
        user.block.insert(user.block.instructions.index(user) + 1, first)
        moved.append((first, entry))

    def repairs(state: PassState) -> None:
        for inst, entry in moved:
            inst.block.instructions.remove(inst)
            entry.insert(len(entry.phis), inst)

    return Pass("breaks", breaks), Pass("repairs", repairs)


def test_with_verify_each_the_pass_that_breaks_the_ir_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("S2S_VERIFY_EACH", "1")
    with pytest.raises(Unsupported, match="after the breaks pass"):
        run_passes(_state(), _breaks_then_repairs())


def test_without_it_the_ir_is_verified_after_the_last_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("S2S_VERIFY_EACH", raising=False)
    run_passes(_state(), _breaks_then_repairs())  # sound at the end
    breaks, _ = _breaks_then_repairs()
    with pytest.raises(Unsupported, match="after the breaks pass"):
        run_passes(_state(), (breaks,))


def test_what_a_pass_does_not_preserve_is_computed_again() -> None:
    state = _state()
    keeps = Pass("keeps", lambda s: None, requires=(DivergenceInfo,), preserves=(DivergenceInfo,))
    drops = Pass("drops", lambda s: None, requires=(DivergenceInfo,))
    run_passes(state, (keeps, keeps))
    assert state.analyses.computed[DivergenceInfo] == 1
    run_passes(state, (drops, keeps))
    assert state.analyses.computed[DivergenceInfo] == 2


def _adds_an_instruction(state: PassState) -> int:
    """Adds ``%lane + %lane`` at the top of the entry block: a value the
    divergence analysis gives a shape; returns how many it added."""
    lane = state.fn.args[0]
    state.fn.blocks[0].insert(0, BinOp("add", lane, lane, "twice"))
    return 1


def test_a_pass_that_changed_nothing_keeps_every_analysis() -> None:
    state = _state()
    idle = Pass("idle", lambda s: 0, requires=(DivergenceInfo,), changed=did_any)
    busy = Pass("busy", _adds_an_instruction, requires=(DivergenceInfo,), changed=did_any)
    run_passes(state, (idle, idle, idle))
    assert state.analyses.computed[DivergenceInfo] == 1
    run_passes(state, (busy, idle))
    assert state.analyses.computed[DivergenceInfo] == 2


@pytest.mark.parametrize(
    "liar",
    [
        Pass("liar", _adds_an_instruction, preserves=(DivergenceInfo,)),
        Pass("liar", lambda s: _adds_an_instruction(s) - 1, changed=did_any),
    ],
    ids=["preserves", "changed"],
)
def test_with_verify_each_a_wrong_preserves_is_caught(
    liar: Pass, monkeypatch: pytest.MonkeyPatch
) -> None:
    needs = Pass("needs", lambda s: None, requires=(DivergenceInfo, MemoryAccesses))
    monkeypatch.setenv("S2S_VERIFY_EACH", "1")
    with pytest.raises(Unsupported, match="after the liar pass: it changed the DivergenceInfo"):
        run_passes(_state(), (needs, liar))
    monkeypatch.delenv("S2S_VERIFY_EACH")
    run_passes(_state(), (needs, liar))  # unchecked, the stale analysis is kept


def test_what_the_passes_return_says_whether_they_changed_the_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every pass of the pipelines says, by its result, whether it changed
    the function; checked on random regions (with the analyses it keeps
    compared to new ones after every pass)."""
    monkeypatch.setenv("S2S_VERIFY_EACH", "1")
    assert all(p.changed is not None or p.changes_region for p in PIPELINE)
    kept = 0
    for seed in range(8):
        state = _state(seed)
        run_passes(state, PIPELINE)
        kept += sum(not p.changed(state.results[p.name]) for p in PIPELINE if p.changed)
    assert kept > 0  # some passes had nothing to do: their analyses were kept


def test_an_analysis_goes_with_the_one_it_was_computed_from() -> None:
    state = _state()
    state.get(MemoryAccesses)
    assert state.analyses.cached(DivergenceInfo)
    state.analyses.keep((MemoryAccesses,))
    assert not state.analyses.cached(MemoryAccesses)
    state.get(MemoryAccesses)
    state.analyses.keep((MemoryAccesses, DivergenceInfo))
    assert state.analyses.cached(MemoryAccesses) and state.analyses.cached(DivergenceInfo)


def test_every_pass_comes_from_its_module() -> None:
    exported = {}
    for info in pkgutil.iter_modules(s2s.transform.__path__):
        module = importlib.import_module(f"s2s.transform.{info.name}")
        p = getattr(module, "PASS", None)
        if isinstance(p, Pass):
            exported[p.name] = p
    in_pipelines = {p.name: p for _, pipeline in VARIANTS.values() for p in pipeline}
    for name in PASS_NAMES:
        assert (
            in_pipelines[name].run
            is exported[
                name.replace("loop-closed-ssa", "canonicalize").replace("cleanup", "dce")
            ].run
        ), name
    assert set(exported) <= set(PASS_NAMES)


REFILL_LOOP = """
void f(int n, const double *x, const double *lim, double *out) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    int k = 0;
    double v = x[i];
    while (v > lim[i] && k < 64) {
      v = v * 0.5 + 0.25;
      k++;
    }
    out[i] = v + k;
  }
}
"""


def test_the_variants_leave_the_lowered_loop(tmp_path: Path) -> None:
    region = lower_one(tmp_path, REFILL_LOOP)
    before = print_function(region.fn)
    refilled = analyze_variant(region, "refill", PassOptions(refill_min_ratio=0))
    assert refilled is not None and refilled.region.fn is not region.fn
    assert [b.role for b in refilled.region.args][-3:] == ["lane", "count", "width"]
    assert analyze_variant(region, "tail") is None  # it stores: no masked tail
    assert print_function(region.fn) == before
    assert [b.role for b in region.args][-1] != "width"


def test_refill_declines_a_loop_without_loops_before_its_pipeline(tmp_path: Path) -> None:
    plain = lower_one(
        tmp_path,
        "void f(int n, double *x) {\n#pragma omp simd\n"
        "  for (int i = 0; i < n; i++) x[i] = x[i] * 2.0;\n}\n",
    )
    options = PassOptions(refill_min_ratio=0)
    shown = io.StringIO()
    assert analyze_variant(plain, "refill", options, ("inline",), shown) is None
    assert shown.getvalue() == ""  # no pass of its pipeline ran
    looping = lower_one(tmp_path, REFILL_LOOP)
    assert analyze_variant(looping, "refill", options, ("inline",), shown) is not None
    assert "(lane refill) after inline" in shown.getvalue()


def test_every_option_a_pass_reads_is_declared() -> None:
    """The driver shares a pipeline's result between targets whose values
    of the options it reads (Pass.options) are alike."""
    fields = {f.name for f in dataclasses.fields(PassOptions)}
    for info in pkgutil.iter_modules(s2s.transform.__path__):
        module = importlib.import_module(f"s2s.transform.{info.name}")
        p = getattr(module, "PASS", None)
        if isinstance(p, Pass):
            source = Path(module.__file__ or "").read_text()
            read = set(re.findall(r"options\.(\w+)", source)) & fields
            assert read <= set(p.options), (p.name, read - set(p.options))
    refill = VARIANTS["refill"][1]
    assert options_read(refill, PassOptions(tail_stores=True)) == options_read(
        refill, PassOptions(tail_stores=False)
    )
    assert options_read(refill, PassOptions(refill_gather_weight=1)) != options_read(
        refill, PassOptions()
    )


def test_print_after_shows_the_variants(tmp_path: Path) -> None:
    source = """
double f(int n, const double *x, const double *lim) {
  double s = 0.0;
  #pragma omp simd reduction(+:s)
  for (int i = 0; i < n; i++) {
    double v = x[i];
    while (v > lim[i])
      v = v * 0.5;
    s += v;
  }
  return s;
}
"""
    r = s2svec(
        tmp_path,
        "--target",
        "avx512",
        "--refill-ratio",
        "0",
        "--print-after",
        "masked-tail",
        "--print-after",
        "refill",
        "--print-after",
        "cleanup",
        source=source,
    )
    assert r.returncode == 0, r.stderr
    heads = [line for line in r.stdout.splitlines() if line.startswith("; IR of")]
    assert any(h.endswith("(masked tail) after masked-tail") for h in heads), heads
    assert any(h.endswith("(lane refill) after refill") for h in heads), heads
    assert any(h.endswith("(lane refill) after cleanup") for h in heads), heads
    assert any(h.endswith(" after cleanup") and "(" not in h for h in heads), heads
