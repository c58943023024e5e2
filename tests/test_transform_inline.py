"""The inline pass preserves what each lane computes, checked by the IR interpreter.

A random callee (tests/transform_gen.py: nested branches, loops with
per-lane trip counts, break/continue, switch, a local array, loads and
stores) returns the sum of its variables; a region calls it twice, once
under a divergent condition and once with its uniform and varying
arguments swapped.  Run lane by lane with the calls interpreted as calls
(the callee's IR run for that lane), the region must give the results and
memory it gives after the inline pass, and after the whole pipeline to
linearization run in predicated lock step.  The textual cases are in
tests/ir/transform/inline_call_graph.ir; the last test checks that the
comparison notices a wrong inlining.
"""

from __future__ import annotations

import random

import pytest
from transform_gen import OUT, TABLE, arg_shapes, build_region

from s2s.ir.builder import IRBuilder
from s2s.ir.interpreter import Memory, run_lanes, run_predicated, run_scalar
from s2s.ir.region import CalleeBody
from s2s.ir.types import I32, ptr
from s2s.ir.values import Block, Constant, Function, Ret
from s2s.pipeline import PIPELINE, PassState, run_passes
from s2s.transform.inline import inline_calls


def callee_of(seed: int) -> Function:
    """A random region turned into a function of one result (x + y + z)."""
    fn = build_region(seed, max_depth=2, max_stmts=3)
    fn.name = "callee"
    for block in fn.blocks:
        ret = block.terminator
        if isinstance(ret, Ret):
            values = list(ret.operands)
            block.instructions.remove(ret)
            ret.drop_operands()
            b = IRBuilder(block)
            b.ret([b.add(b.add(values[0], values[1]), values[2])])
    fn.ret_types = [I32]
    return fn


def caller() -> Function:
    """r(lane, id, u, a, out) = (lane < u ? callee(lane, ...) : 0) + callee(u, ..., lane)."""
    fn = Function("caller", ret_types=[I32])
    lane, lane_id, u, a, out = (
        fn.add_arg(t, n)
        for t, n in ((I32, "lane"), (I32, "id"), (I32, "u"), (ptr(I32), "a"), (ptr(I32), "out"))
    )
    entry, then, join = (fn.add_block(Block(n)) for n in ("entry", "then", "join"))
    b = IRBuilder(entry)
    b.condbr(b.cmp("lt", lane, u), then, join)
    b = IRBuilder(then)
    first = b.call("callee", [lane, lane_id, u, a, out], I32)
    b.br(join)
    b = IRBuilder(join)
    phi = b.phi(I32, "first")
    phi.add_incoming(first, then)
    phi.add_incoming(Constant(I32, 0), entry)
    second = b.call("callee", [u, lane_id, lane, a, out], I32)
    b.ret([b.add(phi, second)])
    return fn


def run(fn: Function, callee: Function, lanes: list[int], u: int, predicated: bool):
    mem = Memory()
    a = mem.alloc_array(I32, [(k * 7) % 11 - 3 for k in range(TABLE)])
    out = mem.alloc_array(I32, [0] * OUT)

    def call(*args: object) -> object:
        return run_scalar(callee, list(args), mem)[0]

    args = [[v, k, u, a, out] for k, v in enumerate(lanes)]
    result = (run_predicated if predicated else run_lanes)(fn, args, mem, {"callee": call})
    return result, mem.read_array(out, I32, OUT)


def pipeline(fn: Function, callee: Function, until: str) -> Function:
    passes = []
    for p in PIPELINE:
        passes.append(p)
        if p.name == until:
            break
    state = PassState(fn, arg_shapes(fn), callees={"callee": CalleeBody("callee", callee, 5)})
    run_passes(state, tuple(passes))
    return fn


@pytest.mark.parametrize("seed", range(60))
def test_inlined_regions_compute_what_each_lane_computes(seed: int) -> None:
    r = random.Random(seed)
    lanes, u = [r.randint(-4, 9) for _ in range(r.choice([2, 4, 8]))], r.randint(-2, 6)
    callee = callee_of(seed)
    expected = run(caller(), callee, lanes, u, predicated=False)
    inlined = pipeline(caller(), callee, "inline")
    assert not any(i.opcode == "call" for i in inlined.instructions())
    assert run(inlined, callee, lanes, u, predicated=False) == expected
    linearized = pipeline(caller(), callee, "linearize")
    assert run(linearized, callee, lanes, u, predicated=True) == expected


def test_the_comparison_notices_a_wrong_inlining() -> None:
    """Swap two arguments of the cloned body: some seed must disagree."""
    import s2s.transform.inline as inline

    original = inline._inline_one

    def swapped(fn, call, body):
        call.set_operand(0, call.operands[2]) if len(call.operands) > 2 else None
        return original(fn, call, body)

    differ = 0
    for seed in range(20):
        callee = callee_of(seed)
        lanes, u = [0, 3, 5, 8], 2
        expected = run(caller(), callee, lanes, u, predicated=False)
        fn = caller()
        inline._inline_one = swapped
        try:
            inline_calls(fn, {"callee": CalleeBody("callee", callee, 5)})
        finally:
            inline._inline_one = original
        differ += run(fn, callee, lanes, u, predicated=False) != expected
    assert differ > 0
