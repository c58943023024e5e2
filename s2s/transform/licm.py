"""Loop-invariant code motion: computations that do not change in a loop move before it.

    pre: br H                         pre: %o = cast %i to i64     (hoisted)
    H:   %o = cast %i to i64              br H
         ...                   ==>    H:   ...
    X:   %o.lcssa = phi [%o, E]       X:   (uses of %o.lcssa use %o)

An instruction moves to the loop's preheader when all its operands are
defined outside the loop and it may run where the loop would not have run
it (safety.py: no memory, calls or traps).  Loops are handled innermost
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
from ..ir.values import Block, Function, Instruction
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
    while changed:
        changed = False
        for block in lp.blocks:
            for inst in list(block.instructions):
                if can_speculate(inst) and all(_outside(op, lp) for op in inst.operands):
                    block.instructions.remove(inst)
                    pre.insert(len(pre.instructions) - 1, inst)
                    moved += 1
                    changed = True
    return moved


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
