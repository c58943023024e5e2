"""All-true paths: run a divergent arm unmasked when every lane takes it.

Partial linearization runs an arm of a divergent branch under its mask:
its contiguous loads and stores become masked vector accesses (on AVX2
``vmaskmov``, microcoded on AMD cores) and the values it computes are
blended with the other arm's where the arms join.  When every lane active
in the branching block takes the arm, none of that is needed.  This pass
(the all-true versioning of Sun et al. 2019, the counterpart of the BOSCC
gadget in seed 001 Section 9.2) gives such an arm a copy reached by a
uniform test:

    a:  ...                                a:  ...
        condbr %c, T, F        ==>             %t = call s2s.all(%c)     (uniform)
                                               condbr %t, T', a.mixed
                                           a.mixed:
                                               condbr %c, T, F          (divergent)

``T'`` is a copy of ``T`` and every block ``T`` dominates, with their
edges out of that region; reached through a uniform branch from a block
whose lanes are all active, it is not predicated at all.  Partial
linearization keeps the uniform branch (Theorem 5 of Chapter 8) and turns
``a.mixed`` into ``T`` then ``F`` as before.

Cost model: an arm gets a path when its region makes a contiguous load or
store (the masked accesses the path saves), weighs at least the
threshold or holds a store (what the test and the copy cost), and is
copied at most ``MAX_COPY`` weight; only in blocks whose lanes are all
active (else the copy is masked by the block's predicate anyway) and for
arms BOSCC could skip (one predecessor, no loop inside, no exit).  Runs
before BOSCC, which then sees the divergent branch in ``a.mixed``.

Requires canonical loops and the divergence analysis; leaves the loops
canonical.  Changes the CFG: every analysis is invalid afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.cfg import Graph
from ..analysis.divergence import DivergenceInfo
from ..analysis.memory import access_of
from ..diagnostics import Location
from ..ir.builder import copy_instruction
from ..ir.values import ALL, Alloca, Block, CondBr, Function, Load, Ret, Store, Value
from .branch_test import test_arm
from .cost import instruction_weight
from .passes import Pass, PassState, did_any

MAX_COPY = 400
"""The heaviest arm region copied (a bound on code growth)."""


@dataclass(frozen=True)
class AllTruePath:
    """One arm given an unmasked copy (for the report)."""

    branch: Block
    """The block whose divergent branch got the test."""
    arm: Block
    copy: Block
    where: Location | None = None
    """The branch's condition in the source (None: a branch a transform made)."""
    true_arm: bool = True
    """Whether the copied arm is the one the condition being true enters."""


def insert_all_true_paths(fn: Function, div: DivergenceInfo, threshold: int) -> list[AllTruePath]:
    g = div.cfg
    paths: list[AllTruePath] = []
    for a in [b for b in g.block_order if div.is_divergent_branch(b)]:
        term = a.terminator
        if (
            not isinstance(term, CondBr)
            or term.if_true is term.if_false
            or div.has_varying_activation(a)
        ):
            continue
        for arm in (term.if_true, term.if_false):
            region = _region(g, a, arm)
            if region and _pays(region, div, threshold):
                paths.append(_add_path(fn, a, arm, region))
                break  # one path per branch: the test of a second costs as much again
    return paths


def _region(g: Graph[Block], a: Block, arm: Block) -> list[Block]:
    """The blocks ``arm`` dominates, in rpo, when a copy of them can be made
    (else empty): ``arm`` entered from ``a`` alone, no loop header, no
    latch, no return, no alloca and no edge leaving ``a``'s innermost loop."""
    loop = g.loops.innermost.get(a)
    if g.preds[arm] != [a]:
        return []
    region = [b for b in g.rpo if g.dominates(arm, b)]
    for b in region:
        if (
            g.loops.loop_with_header(b) is not None
            or isinstance(b.terminator, Ret)
            or any(isinstance(i, Alloca) for i in b.instructions)
        ):
            return []
        if any(
            g.loops.innermost.get(s) is not loop or (loop is not None and s is loop.header)
            for s in g.succs[b]
            if s not in region
        ):
            return []  # an exit, or the latch (one per loop)
    return region


def _pays(region: list[Block], div: DivergenceInfo, threshold: int) -> bool:
    insts = [i for b in region for i in b.instructions]
    weight = sum(instruction_weight(i) for i in insts)
    contiguous = any(
        isinstance(i, (Load, Store)) and access_of(i, div).kind == "contiguous" for i in insts
    )
    stores = any(isinstance(i, Store) for i in insts)
    return contiguous and (weight >= threshold or stores) and weight <= MAX_COPY


def _add_path(fn: Function, a: Block, arm: Block, region: list[Block]) -> AllTruePath:
    copies = {b: Block(f"{b.name}.all") for b in region}
    values: dict[Value, Value] = {}
    at = fn.blocks.index(region[-1]) + 1
    for b in region:
        copies[b].function = fn
        copies[b].rarely_entered, copies[b].usually_entered = b.rarely_entered, b.usually_entered
    fn.blocks[at:at] = [copies[b] for b in region]
    for b in region:
        for inst in b.instructions:
            clone = copy_instruction(
                inst, lambda v: values.get(v, v), lambda blk: copies.get(blk, blk)
            )
            values[inst] = clone
            copies[b].append(clone)
    for b in region:  # operands defined later in rpo (phis of the region)
        for clone in copies[b].instructions:
            for k, op in enumerate(clone.operands):
                if op in values:
                    clone.set_operand(k, values[op])
    for b in region:  # edges out of the region: the joins get the copy's values
        for s in b.successors:
            if s not in copies:
                for phi in s.phis:
                    v = phi.value_from(b)
                    phi.add_incoming(values.get(v, v), copies[b])
    term = a.terminator
    assert isinstance(term, CondBr)  # a divergent branch
    every, mixed = test_arm(fn, a, arm, ALL, "mixed")
    a.append(CondBr(every, copies[arm], mixed))
    return AllTruePath(a, arm, copies[arm], term.loc, arm is term.if_true)


def _run(state: PassState) -> list[AllTruePath]:
    threshold = state.options.boscc_threshold
    if threshold is None or not state.options.all_true:
        return []
    return insert_all_true_paths(state.fn, state.get(DivergenceInfo), threshold)


PASS = Pass(
    "all-true",
    _run,
    requires=(DivergenceInfo,),
    changed=did_any,
    options=("boscc_threshold", "all_true"),
)
