"""Loop-invariant code motion: computations that do not change in a loop move before it.

    pre: br H                         pre: %o = cast %i to i64     (hoisted)
    H:   %o = cast %i to i64              br H
         ...                   ==>    H:   ...
    X:   %o.lcssa = phi [%o, E]       X:   (uses of %o.lcssa use %o)

An instruction moves to the loop's preheader when all its operands are
defined outside the loop and it may run where the loop would not have run
it (safety.py: no memory, calls or traps).  A load moves too when the loop
reads its address on every first trip (analysis.first_trip: a per-lane
stack search reads the query's coordinates on its first pop) and nothing
in the loop may write there: no impure call, and stores only into stack
objects of the function while the load's address is based on an argument
or on another stack object.  The loop would have read the address anyway,
so the load cannot trap where the source did not; with no store on the way
it reads the same value.  A lane refill schedule then loads the values
when a lane takes a new iteration, not on every step (s2s/pipeline.py runs
licm before refill).  Loops are handled innermost
first and each loop until nothing more moves, so a chain of invariant
computations leaves the loop nest as far as it can.  Exit phis that then
carry a value defined outside the loop are replaced by that value.

This keeps invariant work out of every iteration, and it matters for the
divergent loop transform: a value computed in a divergent loop and used
after it must be tracked per lane on every iteration (a live-out), while a
value defined before the loop needs no tracking at all.

Requires canonical loops (preheaders); keeps them canonical.  The CFG does
not change.
"""

from __future__ import annotations

from ..analysis.cfg import Loop, cfg_of
from ..analysis.first_trip import first_trip_blocks
from ..ir.values import (
    Alloca,
    Argument,
    Block,
    Function,
    Instruction,
    Load,
    Store,
    Value,
    address_base,
)
from .passes import Pass, PassState, did_any
from .safety import can_speculate


def hoist_invariants(fn: Function) -> int:
    """Move loop-invariant instructions to preheaders; returns how many moved."""
    g = cfg_of(fn)
    moved = 0
    for lp in sorted(g.loops.loops, key=lambda lp: -lp.depth):
        (pre,) = [p for p in g.preds[lp.header] if p not in lp]
        moved += _hoist(lp, pre)
        _forward_exit_phis(lp)
    return moved


def _hoist(lp: Loop[Block], pre: Block) -> int:
    moved, changed = 0, True
    loads = _InvariantLoads(lp, pre)
    while changed:
        changed = False
        for block in lp.blocks:
            for inst in list(block.instructions):
                if not all(_outside(op, lp) for op in inst.operands):
                    continue
                if can_speculate(inst) or loads.may_hoist(inst):
                    block.instructions.remove(inst)
                    pre.insert(len(pre.instructions) - 1, inst)
                    moved += 1
                    changed = True
    return moved


class _InvariantLoads:
    """Which loads of an invariant address may move before the loop (module doc)."""

    def __init__(self, lp: Loop[Block], pre: Block) -> None:
        self.lp, self.pre = lp, pre
        self._first_trip: list[Block] | None = None
        self.stored: list[Value] | None = []
        """What the loop's stores are based on; None: it may write anywhere."""
        for inst in (i for b in lp.blocks for i in b.instructions):
            if isinstance(inst, Store) and inst.mask is None:
                self.stored.append(address_base(inst.operands[1]))
            elif inst.has_side_effects:
                self.stored = None
                break

    def may_hoist(self, inst: Instruction) -> bool:
        if not isinstance(inst, Load) or inst.mask is not None or self.stored is None:
            return False
        base = address_base(inst.operands[0])
        if not all(_disjoint(base, stored) for stored in self.stored):
            return False
        if self._first_trip is None:
            self._first_trip = first_trip_blocks(self.lp, self.pre)
        return inst.parent in self._first_trip


def _disjoint(a: Value, b: Value) -> bool:
    """Whether addresses based on ``a`` and ``b`` never meet: two stack
    objects, or a stack object and an argument (made before it)."""
    if a is b:
        return False
    kinds = {type(a), type(b)}
    return Alloca in kinds and kinds <= {Alloca, Argument}


def _outside(value: object, lp: Loop[Block]) -> bool:
    return not isinstance(value, Instruction) or value.block not in lp


def _forward_exit_phis(lp: Loop[Block]) -> None:
    for exit_block in lp.exits:
        for phi in exit_block.phis:
            values = {id(v): v for v in phi.operands}
            if len(values) == 1:
                (value,) = values.values()
                if _outside(value, lp):
                    phi.replace_all_uses_with(value)
                    phi.erase()


def _run(state: PassState) -> int:
    return hoist_invariants(state.fn)


PASS = Pass("licm", _run, changed=did_any)
