"""Full unrolling: a small loop with a constant trip count becomes straight-line code.

``for (int c = 0; c < 5; c++) micro[c] = lo[c] + f * (hi[c] - lo[c]);`` --
the channels of an interpolation, the components of a vector -- runs the
same trips in every lane.  Kept a loop, its counter and exit test are
scalar code around every vector trip, and the arrays it indexes are per-lane
memory reached by a variable index.  Unrolled, ``c`` is a constant in each
copy, so the arrays have constant indices and sroa makes their elements
vector registers:

    pre:  br h                     pre:  br h.0
    h:    %c = phi [0, pre],       h.0:  br b.0          (%c is 0 here)
               [%c1, b]            b.0:  ... %c1.0 = add 0, 1; br h.1
          %t = cmp lt %c, 5        h.1:  br b.1          (%c is %c1.0)
          condbr %t, b, x          ...
    b:    ...                      h.5:  br x            (the test is false)
          %c1 = add %c, 1          x:    %v = phi [.., h.5]
          br h
    x:    %v = phi [.., h]

A loop qualifies when it is in canonical form (canonicalize: preheader,
one latch, dedicated exits, loop-closed SSA), its only exit is the test in
its header, that test compares a header phi with a constant, the phi
starts at a constant and steps by a constant in the latch, the trip count
(found by running the counter in its own type, wraps included) is at most
``MAX_TRIPS``, and trips times the loop's instructions are at most
``MAX_SIZE``.  Loops nested in it are copied with it; innermost loops are
unrolled first.  Other loops are left alone.

Afterwards the stack objects the copies index by constants become SSA
values (transform.sroa) and loop-closed form is restored (canonicalize):
the pass establishes what canonicalize guarantees.  Changes the CFG.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from ..analysis.cfg import Loop, cfg_of
from ..ir.builder import copy_instruction
from ..ir.fold import fold, wrap
from ..ir.types import IntType
from ..ir.values import BinOp, Block, Br, Cmp, CondBr, Constant, Function, Phi, Value
from .canonicalize import canonicalize
from .passes import Pass, PassState, did_any
from .sroa import replace_stack_objects

MAX_TRIPS = 16
"""Most trips a loop may have to be unrolled."""
MAX_SIZE = 400
"""Most instructions the unrolled copies may hold together."""


def unroll_loops(fn: Function) -> int:
    """Unroll every qualifying loop, innermost first; how many."""
    done = 0
    while True:
        loop = next((lp for lp in _innermost_first(fn) if _plan(lp) is not None), None)
        if loop is None:
            break
        plan = _plan(loop)
        assert plan is not None
        _unroll(fn, loop, *plan)
        done += 1
    if done:
        replace_stack_objects(fn)
        canonicalize(fn)
    return done


def _innermost_first(fn: Function) -> list[Loop[Block]]:
    forest = cfg_of(fn).loops
    return sorted(forest.loops, key=lambda lp: -lp.depth)


def _plan(loop: Loop[Block]) -> tuple[Phi, list[int]] | None:
    """The counter and its value in each trip, or None when ``loop`` does
    not qualify (module doc)."""
    header, latch = loop.header, loop.latch
    if latch is None or len(loop.exiting) != 1 or loop.exiting[0] is not header:
        return None
    term = header.terminator
    preds = [p for p in _predecessors(header) if p not in loop.block_set]
    if not isinstance(term, CondBr) or len(preds) != 1 or not isinstance(term.operands[0], Cmp):
        return None
    test = term.operands[0]
    counter, bound = test.operands
    if not (isinstance(counter, Phi) and counter.block is header and isinstance(bound, Constant)):
        return None
    t = counter.type
    start, step = _start_and_step(counter, preds[0], latch)
    if not isinstance(t, IntType) or start is None or step is None:
        return None
    stay_true = term.if_true in loop.block_set
    values = _trips(test.pred, start, step, int(bound.value), t, stay_true)
    size = sum(len(b.instructions) for b in loop.blocks)
    if values is None or (len(values) - 1) * size > MAX_SIZE:
        return None
    return counter, values


def _predecessors(block: Block) -> list[Block]:
    fn = block.function
    assert fn is not None
    return [b for b in fn.blocks if block in b.successors]


def _start_and_step(phi: Phi, pre: Block, latch: Block) -> tuple[int | None, int | None]:
    start, nxt = phi.value_from(pre), phi.value_from(latch)
    if (
        not isinstance(start, Constant)
        or not isinstance(nxt, BinOp)
        or nxt.op not in ("add", "sub")
        or nxt.operands[0] is not phi
        or not isinstance(nxt.operands[1], Constant)
    ):
        return None, None
    step = int(nxt.operands[1].value)
    return int(start.value), step if nxt.op == "add" else -step


def _trips(
    pred: str, start: int, step: int, bound: int, t: IntType, stay_true: bool
) -> list[int] | None:
    """The counter's value at each trip (the header's test is made before
    each), or None beyond MAX_TRIPS."""
    values: list[int] = []
    v = wrap(start, t)
    while _holds(pred, v, wrap(bound, t)) == stay_true:
        if len(values) == MAX_TRIPS:
            return None
        values.append(v)
        v = wrap(v + step, t)
    values.append(v)  # the value that fails the test
    return values


def _holds(pred: str, a: int, b: int) -> bool:
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[pred]


K = TypeVar("K")


def _lookup(table: Mapping[K, K]) -> Callable[[K], K]:
    """``x`` mapped by ``table``, itself when the table has no entry."""
    return lambda x: table.get(x, x)


def _unroll(fn: Function, loop: Loop[Block], counter: Phi, values: list[int]) -> None:
    """Replace ``loop`` by ``len(values)`` copies of its blocks and a last
    copy of its header that goes to the exit."""
    header, latch = loop.header, loop.latch
    assert latch is not None
    term = header.terminator
    assert isinstance(term, CondBr)
    inside = term.if_true if term.if_true in loop.block_set else term.if_false
    exit_block = term.if_false if inside is term.if_true else term.if_true
    pre = next(p for p in _predecessors(header) if p not in loop.block_set)
    phis = header.phis
    incoming: dict[Value, Value] = {p: p.value_from(pre) for p in phis}
    order = cfg_of(fn).rpo
    body = [b for b in order if b in loop.block_set and b is not header]
    at = fn.blocks.index(header)
    entry_of_copy: list[Block] = []
    trips = len(values) - 1
    for k in range(trips + 1):
        values_map: dict[Value, Value] = dict(incoming)
        values_map[counter] = Constant(counter.type, values[k])
        head = Block(f"{header.name}.{k}")
        entry_of_copy.append(head)
        if k == trips:  # the test fails: leave
            _copy_straight(header, head, values_map, phis)
            head.append(Br(exit_block))
            _retarget_exit_phis(exit_block, header, head, values_map)
            _insert(fn, at, [head])
            break
        blocks = {b: Block(f"{b.name}.{k}") for b in body}
        blocks[header] = head
        _copy_straight(header, head, values_map, phis)
        head.append(Br(blocks[inside]))
        nxt = Block("placeholder")
        for b in body:
            for inst in b.instructions:
                if isinstance(inst, Br) and inst.target is header:
                    blocks[b].append(Br(nxt))  # the latch: on to the next copy
                    continue
                copy = copy_instruction(inst, _lookup(values_map), _lookup(blocks))
                constant = fold(copy)
                if constant is not None:  # the counter is a constant in each copy
                    copy.drop_operands()
                    values_map[inst] = constant
                    continue
                values_map[inst] = copy
                blocks[b].append(copy)
        _fix_phi_operands(blocks, values_map)
        incoming = {p: values_map.get(p.value_from(latch), p.value_from(latch)) for p in phis}
        _insert(fn, at, [head] + [blocks[b] for b in body])
        at += 1 + len(body)
        entry_of_copy.append(nxt)  # resolved below
    _link_copies(fn, entry_of_copy)
    pre.replace_successor(header, entry_of_copy[0])
    for b in [header, *body]:
        for inst in list(b.instructions):
            inst.drop_operands()
        fn.remove_block(b)


def _copy_straight(
    header: Block, head: Block, values_map: dict[Value, Value], phis: list[Phi]
) -> None:
    """The header's instructions but its phis (mapped) and its test."""
    for inst in header.instructions:
        if isinstance(inst, Phi) or inst.is_terminator:
            continue
        copy = copy_instruction(inst, lambda v: values_map.get(v, v), lambda b: b)
        constant = fold(copy)
        if constant is not None:
            copy.drop_operands()
            values_map[inst] = constant
            continue
        values_map[inst] = copy
        head.append(copy)


def _fix_phi_operands(blocks: dict[Block, Block], values_map: dict[Value, Value]) -> None:
    """Phis copied before the values they name (a nested loop's back edge)."""
    for new in blocks.values():
        for phi in new.phis:
            for k, v in enumerate(phi.operands):
                if v in values_map and values_map[v] is not v:
                    phi.set_operand(k, values_map[v])


def _retarget_exit_phis(
    exit_block: Block, header: Block, head: Block, values_map: dict[Value, Value]
) -> None:
    for phi in exit_block.phis:
        value = phi.value_from(header)
        phi.replace_incoming_block(header, head)
        k = phi.incoming_blocks.index(head)
        phi.set_operand(k, values_map.get(value, value))


def _link_copies(fn: Function, sequence: list[Block]) -> None:
    """Each placeholder stands for the next copy's header."""
    heads = [b for b in sequence if b.name != "placeholder"]
    holders = [b for b in sequence if b.name == "placeholder"]
    for holder, nxt in zip(holders, heads[1:]):
        for b in fn.blocks:
            term = b.terminator
            if isinstance(term, Br) and term.target is holder:
                term.replace_successor(holder, nxt)


def _insert(fn: Function, at: int, blocks: list[Block]) -> None:
    for k, b in enumerate(blocks):
        b.function = fn
        fn.blocks.insert(at + k, b)


__all__ = ["unroll_loops"]


def _run(state: PassState) -> int:
    return unroll_loops(state.fn)


PASS = Pass("unroll", _run, changed=did_any)
