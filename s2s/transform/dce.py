"""Dead code elimination: delete the instructions no result depends on.

An instruction is *live* when it has an effect of its own (a terminator, a
store, a call that is not pure) or when a live instruction uses it as an
operand or as its lane mask; everything else is deleted, phis included.  A
local whose value is never read (``int v = b[i] && b[i + 1];``) leaves a
phi at the join of its ``&&`` and the compares and loads feeding it; cycles
of phis that only feed each other (a variable updated in an inner loop but
never read) go too, because liveness starts from effects, not from uses.

Mark and sweep over the whole function, linear in its size::

    entry: %a = load %p          entry: condbr %c, rhs, end
           condbr %c, rhs, end    rhs:   br end
    rhs:   %b = cmp ne %a, 0  ==> end:   store %x, %q
           br end                        ...
    end:   %v = phi [0, entry], [%b, rhs]        (%v unused: %v, %b, %a go)
           store %x, %q

Then a conditional branch both of whose ways lead, through empty blocks
(no phi, only a ``br``), to one block without phis decides nothing: it
becomes a ``br`` there, which may leave its condition dead in turn (in the
example, ``condbr %c`` and whatever computed ``%c``); the two steps repeat
until nothing changes.  Blocks that lose their last predecessor are left
for canonicalization to delete (its guarantee 1).

Guarantees: every remaining value is used by a live instruction or is live
itself, so later stages (widening) can assume that every phi they see is
needed; no branch left chooses between two empty paths to one join.  Loops
stay loops (an empty ``while (c) {}`` keeps its branch: it goes back to its
condition).  Loads are removed when unused: a load has no effect the C
program could observe (reading an invalid address is undefined behaviour).

It changes the CFG, so every analysis of ``fn`` computed before is invalid.
Runs in the pipeline right after lowering, before canonicalization
(s2s/pipeline.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.values import Block, Br, CondBr, Function, Instruction, Value
from .passes import Pass, PassState


@dataclass
class DceResult:
    """What ``eliminate_dead_code`` did."""

    removed: int = 0
    """Instructions deleted (phis included)."""
    branches_folded: int = 0
    """Conditional branches that became ``br``."""

    def changed(self) -> bool:
        return bool(self.removed or self.branches_folded)


def live_instructions(fn: Function) -> set[Instruction]:
    """Instructions with an effect, and everything they use (operands and
    masks)."""
    live: set[Instruction] = set()
    work = [i for i in fn.instructions() if i.is_terminator or i.has_side_effects]
    while work:
        inst = work.pop()
        if inst in live:
            continue
        live.add(inst)
        work.extend(
            d for d in operands_and_mask(inst) if isinstance(d, Instruction) and d not in live
        )
    return live


def operands_and_mask(inst: Instruction) -> list[Value]:
    """What an instruction uses: its operands, and its mask too (a branch's
    as well: the predicated semantics read it, and a uniform branch with no
    active lane need not have a defined condition)."""
    return list(inst.operands) + ([inst.mask] if inst.mask is not None else [])


def eliminate_dead_code(fn: Function) -> DceResult:
    """Delete every instruction of ``fn`` that is not live and fold branches
    that decide nothing, until neither changes anything (module docstring)."""
    result = DceResult()
    while True:
        result.removed += _sweep(fn)
        folded = _fold_empty_branches(fn)
        if not folded:
            return result
        result.branches_folded += folded


def _sweep(fn: Function) -> int:
    live = live_instructions(fn)
    dead = [i for i in fn.instructions() if i not in live]
    # Dead instructions may use each other (phi cycles): cut every use first,
    # then no erase meets a remaining user.
    for inst in dead:
        inst.drop_operands()
    for inst in dead:
        assert not inst.users, "a dead instruction is used by a live one"
        inst.erase()
    return len(dead)


def _fold_empty_branches(fn: Function) -> int:
    folded = 0
    for block in fn.blocks:
        term = block.terminator
        if not isinstance(term, CondBr):
            continue
        joins = {_through_empty(s, block) for s in term.successors}
        if len(joins) != 1:
            continue
        join = joins.pop()
        if join.phis or join is block:
            continue
        term.erase()
        block.append(Br(join))
        folded += 1
    return folded


def _through_empty(block: Block, origin: Block) -> Block:
    """Where control goes from ``block`` when it holds nothing but a ``br``."""
    seen = {origin}
    while block not in seen and len(block.instructions) == 1 and isinstance(block.terminator, Br):
        seen.add(block)
        block = block.terminator.target
    return block


def _run(state: PassState) -> DceResult:
    return eliminate_dead_code(state.fn)


PASS = Pass("dce", _run, changed=DceResult.changed)
