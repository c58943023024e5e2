"""The masked last iteration: a loop region's body guarded by ``lane < rem``.

A vector loop runs ``trip / W`` full iterations; the ``trip % W`` left over
ran as the original scalar body.  On a target with cheap masks (AVX-512)
they run instead as one more vector iteration in which only the first
``rem`` lanes are active, so that a short loop is not mostly scalar.  This
pass builds that iteration's region from a copy of the loop's lowered
region (before the pipeline): two new parameters, ``%s2s.lane`` (the lane
number, strided by 1 from 0) and ``%s2s.rem`` (uniform: the iterations
left), and a new entry block

    tail.entry:                              (new)
        %active = cmp lt %s2s.lane, %s2s.rem
        condbr %active, <old entry>, tail.exit
    ...                                      (the body, unchanged)
    <old return block>:
        br tail.exit                         (was: ret %v1, ...)
    tail.exit:                               (new)
        %r1 = phi [%v1, <old return block>], [<skip value>, tail.entry]
        ret %r1, ...

The branch is divergent, so linearization puts the body under the mask of
the active lanes: its loads, stores and calls are masked, and every value
it returns is a select between the body's value and the skip value.  The
skip value of a reduction is its accumulator parameter (an inactive lane
keeps its partial result); a ``lastprivate`` result gets an assignment flag
that is false on the skip edge (the last active lane gives the value).

Declines (returns None) for a region with more than one return block,
with a result it cannot say the skip value of, or (unless the target's
``masked_tail_stores``, PassOptions.tail_stores) with a store to memory
other than its own stack objects: a masked store followed by loads of the
same data (the next call of a loop that updates ``y[i]``) stalls store
forwarding, which costs more than the scalar remainder saves (measured:
0.017 s -> 0.022-0.027 s on 5..31 elements, while a dot product went
0.055 s -> 0.042 s).  Stores to an alloca (a local array, a clause variable
whose address is taken) do not count: its copies live in the vector
iteration, and sroa usually makes them registers.  Changes the CFG: run before
the pipeline, like the region it copies.
"""

from __future__ import annotations

from dataclasses import replace

from ..ir.builder import IRBuilder
from ..ir.region import ArgBinding, Region, ResultBinding
from ..ir.types import I1, I32
from ..ir.values import (
    Alloca,
    Block,
    Cast,
    Constant,
    FieldAddr,
    Gep,
    Instruction,
    Ret,
    Store,
    Undef,
    Value,
)
from .passes import Declined, Pass, PassState

LANE = "s2s.lane"
REM = "s2s.rem"


def guard_tail(region: Region, stores: bool = False) -> Region | None:
    """Turn ``region`` (a freshly lowered copy, changed in place) into its
    masked last iteration; None when it cannot be (the caller then keeps the
    scalar remainder).  ``stores``: also when it stores to memory."""
    fn = region.fn
    rets = [b for b in fn.blocks if isinstance(b.terminator, Ret)]
    if len(rets) != 1 or (not stores and any(_stores_to_memory(i) for i in fn.instructions())):
        return None
    ret_block = rets[0]
    ret = ret_block.terminator
    assert ret is not None
    values = list(ret.operands)
    plan = _skip_plan(region, values)
    if plan is None:
        return None
    results, skips = plan
    values += [Constant(I1, 1)] * (len(skips) - len(values))  # new assignment flags
    lane, rem = fn.add_arg(I32, LANE), fn.add_arg(I32, REM)
    old_entry = fn.entry
    entry = Block("tail.entry")
    fn.add_block(entry)
    fn.blocks.insert(0, fn.blocks.pop())  # the new block is the entry
    exit_block = fn.add_block(Block("tail.exit"))
    b = IRBuilder().at_end(entry)
    b.condbr(b.cmp("lt", lane, rem, "active"), old_entry, exit_block)
    ret.erase()
    IRBuilder().at_end(ret_block).br(exit_block)
    b = IRBuilder().at_end(exit_block)
    merged: list[Value] = []
    for value, skip in zip(values, skips):
        phi = b.phi(value.type)
        phi.add_incoming(value, ret_block)
        phi.add_incoming(skip, entry)
        merged.append(phi)
    b.ret(merged)
    fn.ret_types = [v.type for v in merged]
    region.args = [
        *region.args,
        ArgBinding(lane, "lane", "s2s_lane", "int"),
        ArgBinding(rem, "rem", "s2s_rem", "int"),
    ]
    region.results = results
    return region


def _stores_to_memory(inst: Instruction) -> bool:
    """Whether ``inst`` stores to memory the loop's caller may read next: a
    store whose address is not one of the region's own stack objects (an
    alloca, through casts and geps), which live in the vector iteration
    only (a clause variable whose address is taken, a local array)."""
    if not isinstance(inst, Store):
        return False
    ptr = inst.operands[1]
    while isinstance(ptr, (Cast, Gep, FieldAddr)):
        ptr = ptr.operands[0]
    return not isinstance(ptr, Alloca)


def _skip_plan(
    region: Region, values: list[Value]
) -> tuple[list[ResultBinding], list[Value]] | None:
    """The tail region's result bindings and, per ``ret`` position, what an
    inactive lane returns: a reduction its accumulator parameter, an
    assignment flag false, a ``lastprivate`` value anything (its flag says
    it was not assigned).  A ``lastprivate`` assigned on every path gets a
    flag (a new ``ret`` position).  None for a position of another kind."""
    skips: list[Value | None] = [None] * len(values)
    results: list[ResultBinding] = []
    for rb in region.results:
        if rb.role == "reduction" and rb.arg is not None:
            skips[rb.index] = rb.arg
        elif rb.role == "lastprivate":
            skips[rb.index] = Undef(values[rb.index].type)
            if rb.assigned_index is None:
                skips.append(Constant(I1, 0))
                rb = replace(rb, assigned_index=len(skips) - 1)
            else:
                skips[rb.assigned_index] = Constant(I1, 0)
        else:
            return None
        results.append(rb)
    chosen = [s for s in skips if s is not None]
    if len(chosen) != len(skips):
        return None
    return results, chosen


def _run(state: PassState) -> Region:
    assert state.region is not None
    if guard_tail(state.region, state.options.tail_stores) is None:
        raise Declined("the loop has no masked last iteration")
    return state.region


PASS = Pass("masked-tail", _run, options=("tail_stores",), changes_region=True)
