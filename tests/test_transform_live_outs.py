"""Live-outs of divergent loops kept in their header phis
(s2s.transform.divergent_loops, "Frozen header phis"), checked by the IR
interpreter.

Every case of tests/ir/transform/divergent_loop_live_out_frozen.ir and
divergent_loop_live_out_kept.ir runs once per lane as written
(``run_lanes``), after the divergent loop transform (per lane again) and
after linearization (``run_predicated``, lock step) on random inputs; the
results must be equal and defined.  A frozen phi that forgets its exit value
(undef where a lane is not live) must make the check fail.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from s2s.analysis.shapes import VectorShape
from s2s.ir.interpreter import Memory, Scalar, run_lanes, run_predicated
from s2s.ir.parser import parse_function
from s2s.ir.types import I32, PtrType
from s2s.ir.values import Function, Phi, Undef
from s2s.pipeline import PIPELINE, PassState, run_passes
from s2s.transform import divergent_loops

IR = Path(__file__).parent / "ir" / "transform"
FILES = ["divergent_loop_live_out_frozen.ir", "divergent_loop_live_out_kept.ir"]
TABLE = [10 * k + 3 for k in range(64)]


def cases() -> list[tuple[str, int, str]]:
    found = []
    for name in FILES:
        for k, text in enumerate((IR / name).read_text().split("; -----")):
            found.append((name, k + 1, text))
    return found


def shapes(fn: Function, text: str) -> dict:
    given = {}
    for line in text.splitlines():
        if line.startswith("; ARG:"):
            arg, shape = line[len("; ARG:") :].split()
            given[arg.lstrip("%")] = VectorShape.parse(shape)
    return {a: given.get(a.name, VectorShape.uniform()) for a in fn.args}


def lane_args(fn: Function, text: str, table: int, seed: int) -> list[list[object]]:
    r = random.Random(seed)
    given = shapes(fn, text)
    width = r.choice([2, 4, 8])
    args: list[list[object]] = [[] for _ in range(width)]
    for a in fn.args:
        shape, base = given[a], r.randint(0, 20)
        for lane, values in enumerate(args):
            if isinstance(a.type, PtrType):
                values.append(table)
            elif shape.is_varying:
                values.append(r.randint(0, 300))
            else:
                values.append(base + lane * (shape.stride or 0))
    return args


def transformed(text: str, until: str) -> Function:
    fn = parse_function(text)
    passes = []
    for p in PIPELINE:
        passes.append(p)
        if p.name == until:
            break
    run_passes(PassState(fn, shapes(fn, text)), tuple(passes))
    return fn


def results(fn: Function, text: str, seed: int, predicated: bool) -> list[list[Scalar]]:
    mem = Memory()
    table = mem.alloc_array(I32, TABLE)
    args = lane_args(parse_function(text), text, table, seed)
    return (run_predicated if predicated else run_lanes)(fn, args, mem)


def check(text: str, seed: int) -> None:
    expected = results(parse_function(text), text, seed, predicated=False)
    alone = transformed(text, "loop-closed-ssa")
    assert results(alone, text, seed, predicated=False) == expected
    linear = transformed(text, "linearize")
    assert results(linear, text, seed, predicated=True) == expected


@pytest.mark.parametrize(("name", "case", "text"), cases(), ids=lambda v: str(v)[:40])
def test_live_outs_are_what_each_lane_computed(name: str, case: int, text: str) -> None:
    for seed in range(12):
        check(text, seed)


def test_a_phi_that_forgets_its_exit_value_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lanes that are not live get undef in a frozen phi: their exit value
    is lost, and the check must see it."""
    finish = divergent_loops._LoopRebuild._finish_trackers

    def forgetful(self: divergent_loops._LoopRebuild, *args: Any) -> None:
        finish(self, *args)
        for carried in {c for c, _ in self.frozen}:
            assert isinstance(carried, Phi)
            carried.remove_incoming(self.guard)
            carried.add_incoming(Undef(carried.type), self.guard)

    monkeypatch.setattr(divergent_loops._LoopRebuild, "_finish_trackers", forgetful)
    failures = 0
    for _, _, text in cases():
        try:
            for seed in range(12):
                check(text, seed)
        except AssertionError:
            failures += 1
    assert failures >= 4
