"""Restore SSA dominance after the CFG changed under existing values.

Partial linearization keeps dominance in the plain case (seed 001 Chapter 8,
Theorem 4), but a block deferred past a kept uniform join is also reached on
the arm that did not define the values it uses:

    A: condbr %uni, B, C       (uniform, kept)
    B: %v = ...  ; B defers D  C: ...
    J: (join of B and C)  -> D (deferred, now after J)
    D: use %v                  %v does not dominate D any more

On the path through C no lane executes D (its predicate is false there), so
the value it reads does not matter: every such use reads ``%v`` through an
SSA variable (s2s/ir/ssa.py) defined where ``%v`` is and ``undef`` at the
region entry and at the header of each loop holding ``%v`` (a lane never
needs a value from an earlier iteration through such a path).

``DominanceRepair(fn)`` works on the current CFG; ``repair_all()`` rewrites
every use that is not dominated by its definition, and ``at_end(v, block)``
gives the value of ``v`` available at the end of ``block`` for uses that are
being created (edge predicates, selects).
"""

from __future__ import annotations

from ..analysis.cfg import Graph, cfg_of
from ..ir.ssa import SSABuilder
from ..ir.values import Block, Function, Instruction, Phi, Undef, Value


class DominanceRepair:
    def __init__(self, fn: Function, undef_at_loop_headers: bool = True) -> None:
        self.fn = fn
        self.undef_at_loop_headers = undef_at_loop_headers
        """False: a value may be read in a later trip of a loop that holds its
        definition (transform.refill), so only the entry reads undef."""
        self.g: Graph[Block] = cfg_of(fn)
        self.ssa = SSABuilder.for_function(fn)
        self.declared: set[Instruction] = set()

    def available_at_end(self, v: Value, block: Block) -> bool:
        return not isinstance(v, Instruction) or v.block is None or self.g.dominates(v.block, block)

    def at_end(self, v: Value, block: Block) -> Value:
        """``v`` as seen at the end of ``block`` (undef where it is not defined)."""
        if self.available_at_end(v, block):
            return v
        assert isinstance(v, Instruction)
        self._declare(v)
        return self.ssa.read(v, block)

    def _declare(self, v: Instruction) -> None:
        if v in self.declared:
            return
        self.declared.add(v)
        self.ssa.declare(v, v.type, v.name)
        assert v.block is not None
        undef = Undef(v.type)
        lp = self.g.loops.innermost.get(v.block) if self.undef_at_loop_headers else None
        for header in [self.fn.entry] + (
            [] if lp is None else [x.header for x in [lp, *lp.ancestors()]]
        ):
            if header is not v.block:
                self.ssa.write(v, header, undef)
        self.ssa.write(v, v.block, v)

    def repair_all(self) -> int:
        """Rewrite every use its definition does not dominate; returns how many."""
        fixed = 0
        for block in list(self.fn.blocks):
            for inst in list(block.instructions):
                for user, k, at in self._bad_uses(inst):
                    new = (
                        self.at_end(inst, at) if isinstance(user, Phi) else self._at_start(inst, at)
                    )
                    if k < 0:
                        user.set_mask(new)
                    else:
                        user.set_operand(k, new)
                    fixed += 1
        return fixed

    def _at_start(self, v: Instruction, block: Block) -> Value:
        self._declare(v)
        return self.ssa.read_at_start(v, block)

    def _bad_uses(self, inst: Instruction) -> list[tuple[Instruction, int, Block]]:
        """(user, operand index or -1 for the mask, where the use is)."""
        bad: list[tuple[Instruction, int, Block]] = []
        for user in dict.fromkeys(inst.users):  # each user once, in a fixed order
            if user.block is None:
                continue
            for k, op in enumerate(user.operands):
                if op is not inst:
                    continue
                at = user.incoming_blocks[k] if isinstance(user, Phi) else user.block
                if not self._dominated(inst, user, at):
                    bad.append((user, k, at))
            if user.mask is inst and not self._dominated(inst, user, user.block):
                bad.append((user, -1, user.block))
        return bad

    def _dominated(self, inst: Instruction, user: Instruction, at: Block) -> bool:
        assert inst.block is not None
        if at is inst.block and not isinstance(user, Phi):
            return True  # same block: SSA order within the block is unchanged
        return self.g.dominates(inst.block, at)
