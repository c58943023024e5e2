"""Loop-closed SSA for the inner loops the lowering builds (seed 001 2.4).

Every loop the lowering emits has ONE exit block (``for.end``, ``while.end``,
``do.end``): the false edge of the condition and every ``break`` go there, and
nothing else leaves an inner loop (``continue`` targets the innermost loop,
``return``/``goto`` are Unsupported).  So the classic construction is simple:

    for each value v defined in loop L and used outside L (other than by a
    phi of L's exit block, which is already loop-closed):
        place ``v.lcssa = phi [v, p] for each predecessor p of exit`` in the
        exit block and make the outside uses use it.

v dominates every predecessor of the exit: an outside use that is not an
exit phi is dominated by the exit block, and v dominates that use.  Loops
are processed innermost first, so an inner loop's exit phis, which lie inside
the outer loop, are closed again for the outer loop.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir.values import Block, Function, Instruction, Phi


@dataclass
class LoopRecord:
    """The blocks of one lowered loop and its single exit block."""

    blocks: list[Block]
    exit: Block


def close_loops(fn: Function, loops: list[LoopRecord]) -> None:
    """Put ``fn`` in loop-closed SSA form; ``loops`` are innermost first."""
    live = set(fn.blocks)
    for loop in loops:
        if loop.exit not in live:
            continue
        body = {b for b in loop.blocks if b in live}
        preds = fn.predecessors()[loop.exit]
        if not preds or any(p not in body for p in preds):
            continue  # not the single-exit shape this pass relies on
        for block in [b for b in fn.blocks if b in body]:
            for inst in list(block.instructions):
                _close(inst, body, loop.exit, preds)


def _close(inst: Instruction, body: set[Block], exit: Block, preds: list[Block]) -> None:
    outside = [u for u in inst.users if not _inside_use(u, inst, body, exit)]
    if not outside:
        return
    phi = Phi(inst.type, inst.name)
    exit.insert(len(exit.phis), phi)
    for p in preds:
        phi.add_incoming(inst, p)
    for user in set(outside):
        user.replace_operand(inst, phi)


def _inside_use(user: Instruction, inst: Instruction, body: set[Block], exit: Block) -> bool:
    if user.block in body:
        return True
    if isinstance(user, Phi):
        # A phi use happens at the end of the incoming block.
        if user.block is exit:
            return True
        return all(b in body for v, b in user.incoming() if v is inst)
    return False
