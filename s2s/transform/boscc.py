"""BOSCC gadgets: skip a divergent region at run time when no lane takes it.

Spec: seed 001 Section 9.2 (the BOSCC gadget), relying on Theorem 5 of
Chapter 8 (partial linearization keeps uniform branches, and the region a
kept branch skips is skipped with everything it dominates).  Partial
linearization runs both arms of a divergent branch, each under its mask; an
arm that no lane takes still costs its full time.  Before linearization,
a branch whose arm is expensive gets a uniform test in front of it:

    a:  ...                                a:  ...
        condbr %c, B, O        ==>             %t = call s2s.any(%c)     (uniform)
                                               condbr %t, a.boscc, O
                                           a.boscc:
                                               condbr %c, B, O          (divergent)

When no lane of ``a`` has ``%c`` set, control goes straight to ``O`` and
``B`` with its dominance region is skipped; otherwise linearization turns
``a.boscc`` into ``B`` then ``O`` as before.  The ``any`` is taken over the
lanes active in ``a`` (linearization masks horizontal operations with the
block predicate).  Both arms of one branch may get a gadget (the second
tests ``!%c`` in ``a.boscc``); gadgets nest along else-if cascades, so a
cascade stops as soon as no lane is left in it.

The cost model weighs the instructions of the arm's dominance region (calls
to math and other functions and divisions most, memory next) and inserts a
gadget when the weight reaches the threshold, or when the transform that
made the arm marked it ``rarely_entered`` (transform.refill: the start of a
lane's next iteration), but not on an arm marked ``usually_entered``
(transform.refill: the arm that stays in the refilled loop, which some lane
takes on nearly every trip: the seed's branch-probability proxy).  An arm qualifies when its
only predecessor is the branching block and it stays in the branching
block's loop (an exit or a loop header is left alone).

Requires canonical loops and the divergence analysis; leaves them canonical
(a skip edge may enter a loop exit: canonicalize runs again).  Changes the
CFG: every analysis is invalid afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.cfg import Graph
from ..analysis.divergence import DivergenceInfo
from ..diagnostics import Location
from ..ir.values import ANY, Block, CondBr, Function
from .branch_test import test_arm
from .canonicalize import canonicalize
from .cost import instruction_weight
from .passes import Pass, PassState, did_any


@dataclass(frozen=True)
class Gadget:
    """One inserted all-false skip (for the report)."""

    branch: Block
    """The block whose divergent branch got the test."""
    skipped: Block
    """The arm skipped when no lane takes it."""
    weight: int
    where: Location | None = None
    """The branch's condition in the source (None: a branch a transform made)."""
    true_arm: bool = True
    """Whether the skipped arm is the one the condition being true enters."""


def insert_gadgets(fn: Function, div: DivergenceInfo, threshold: int) -> list[Gadget]:
    g = div.cfg
    gadgets: list[Gadget] = []
    for a in [b for b in g.block_order if div.is_divergent_branch(b)]:
        term = a.terminator
        if not isinstance(term, CondBr) or term.if_true is term.if_false:
            continue
        weights = [(arm, _arm_weight(g, a, arm)) for arm in (term.if_true, term.if_false)]
        branch = a
        for arm, weight in weights:
            if (weight >= threshold and not arm.usually_entered) or (
                arm.rarely_entered and _may_skip(g, a, arm)
            ):
                gadgets.append(Gadget(a, arm, weight, term.loc, arm is term.if_true))
                branch = _gadget(fn, branch, arm)
    if gadgets:
        canonicalize(fn)  # a skip edge may enter a loop exit: dedicated exits again
    return gadgets


def _may_skip(g: Graph[Block], a: Block, arm: Block) -> bool:
    """Whether a gadget may skip ``arm`` of ``a``'s branch."""
    return (
        g.preds[arm] == [a]
        and g.loops.loop_with_header(arm) is None
        and g.loops.innermost.get(arm) is g.loops.innermost.get(a)
    )


def _arm_weight(g: Graph[Block], a: Block, arm: Block) -> int:
    """Weight of the blocks ``arm`` dominates; 0 where no gadget may go."""
    if not _may_skip(g, a, arm):
        return 0
    return sum(
        instruction_weight(inst) for b in g.rpo if g.dominates(arm, b) for inst in b.instructions
    )


def _gadget(fn: Function, a: Block, arm: Block) -> Block:
    """Put the test for ``arm`` in ``a``; returns the block holding the
    divergent branch now (for a second gadget on the other arm)."""
    term = a.terminator
    assert isinstance(term, CondBr)
    other = term.if_false if arm is term.if_true else term.if_true
    taken, inner = test_arm(fn, a, arm, ANY, "boscc")
    a.append(CondBr(taken, inner, other))
    for phi in other.phis:  # the skip edge: a keeps its place, inner comes last
        v = phi.value_from(inner)
        phi.incoming_blocks[phi.incoming_blocks.index(inner)] = a
        phi.add_incoming(v, inner)
    return inner


def _run(state: PassState) -> list[Gadget]:
    threshold = state.options.boscc_threshold
    return (
        [] if threshold is None else insert_gadgets(state.fn, state.get(DivergenceInfo), threshold)
    )


PASS = Pass(
    "boscc", _run, requires=(DivergenceInfo,), changed=did_any, options=("boscc_threshold",)
)
