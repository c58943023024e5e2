"""Semantic preservation of the control-flow transforms, checked by the IR interpreter.

Random structured regions (tests/transform_gen.py: nested if/else, switch,
loops with varying and uniform trip counts, break/continue, guarded
divisions, masked loads and stores) run once per lane as written
(``run_lanes``) and, after the pipeline (canonicalize, divergent loops,
linearize), in lock step with predicated semantics (``run_predicated``).
Results and memory must be equal; a trap, an inactive lane touching memory
or a divergent branch left over fails the test.  The transform is also
checked alone: after the divergent loop transform, per-lane runs must still
agree.  The last test breaks a rule on purpose and checks that this
property notices.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from transform_gen import OUT, TABLE, arg_shapes, build_region

from s2s.ir.interpreter import InterpreterError, Memory, run_lanes, run_predicated
from s2s.ir.types import I32
from s2s.pipeline import PIPELINE, PassState, run_passes
from s2s.transform.all_true import AllTruePath
from s2s.transform.passes import PassOptions


def run(fn, lanes: list[int], u: int, predicated: bool):
    mem = Memory()
    a = mem.alloc_array(I32, [(k * 7) % 11 - 3 for k in range(TABLE)])
    out = mem.alloc_array(I32, [0] * OUT)
    args = [[v, k, u, a, out] for k, v in enumerate(lanes)]
    result = (run_predicated if predicated else run_lanes)(fn, args, mem)
    return result, mem.read_array(out, I32, OUT)


def transformed(seed: int, until: str = "linearize", boscc: int = 16, **kw: int):
    fn = build_region(seed, **kw)
    passes = []
    for p in PIPELINE:
        passes.append(p)
        if p.name == until:
            break
    run_passes(
        PassState(fn, arg_shapes(fn), options=PassOptions(boscc_threshold=boscc)), tuple(passes)
    )
    return fn


def inputs(seed: int) -> tuple[list[int], int]:
    r = random.Random(seed)
    width = r.choice([2, 4, 8])
    return [r.randint(-4, 9) for _ in range(width)], r.randint(-2, 6)


def check(seed: int, boscc: int = 16, **kw: int) -> None:
    lanes, u = inputs(seed)
    expected = run(build_region(seed, **kw), lanes, u, predicated=False)
    after_loops = transformed(seed, "loop-closed-ssa", boscc, **kw)
    assert run(after_loops, lanes, u, predicated=False) == expected
    assert run(transformed(seed, "linearize", boscc, **kw), lanes, u, predicated=True) == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_linearized_regions_compute_what_each_lane_computes(seed: int) -> None:
    check(seed)


@pytest.mark.parametrize("seed", range(40))
def test_deep_regions(seed: int) -> None:
    check(seed, max_depth=4, max_stmts=5)


@pytest.mark.parametrize("seed", range(60))
def test_boscc_gadgets_everywhere(seed: int) -> None:
    """Threshold 1: every divergent arm that may get a gadget gets one."""
    check(seed, boscc=1)


def test_the_generator_makes_divergent_loops_and_branches() -> None:
    from s2s.analysis.divergence import compute_divergence

    loops = branches = 0
    for seed in range(30):
        fn = build_region(seed)
        div = compute_divergence(fn, arg_shapes(fn))
        loops += len(div.divergent_loops)
        branches += len(div.divergent_branches)
    assert loops >= 15 and branches >= 60


def test_the_property_catches_a_missing_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without masks on the divisions and memory of partly active blocks,
    some lane divides by zero or touches memory it must not."""
    import s2s.transform.predicates as predicates

    monkeypatch.setattr(predicates, "needs_mask", lambda inst: False)
    failures = 0
    for seed in range(40):
        try:
            check(seed)
        except (AssertionError, InterpreterError):
            failures += 1
    assert failures >= 5


def test_the_property_catches_phis_left_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """Phis of blocks whose predecessors changed must become selects."""
    import s2s.transform.predicates as predicates

    monkeypatch.setattr(predicates._Predicates, "_phis_to_selects", lambda self, b: None)
    failures = 0
    for seed in range(40):
        try:
            check(seed)
        except Exception:
            failures += 1
    assert failures >= 5


def _all_true_paths(seed: int) -> int:
    fn = build_region(seed)
    state = PassState(fn, arg_shapes(fn))
    run_passes(state, tuple(p for p in PIPELINE if p.name in ("dce", "canonicalize", "all-true")))
    return len(state.results_of("all-true", AllTruePath))


def test_all_true_paths_are_made_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Arms with a contiguous store get all-true paths in these regions (the
    tests above run them); a path taken when *some* lane takes the arm
    (``any`` for ``all``) is caught."""
    seeds = [s for s in range(80) if _all_true_paths(s)]
    assert len(seeds) >= 10
    import s2s.transform.all_true as all_true
    from s2s.ir.values import ANY

    monkeypatch.setattr(all_true, "ALL", ANY)
    failures = 0
    for seed in seeds:
        try:
            check(seed)
        except (AssertionError, InterpreterError):
            failures += 1
    assert failures >= 3
