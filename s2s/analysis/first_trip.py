"""The blocks of a loop that run on its first trip whenever the loop is entered.

A loop that starts from known values takes a fixed path on its first trip,
up to the first branch those values do not decide.  A per-lane stack with
its root pushed is the case in point (the k-d tree search)::

    stack[0] = 0; bound[0] = 0.0f; sp = 1; best = 3e38f;
    while (sp > 0) {                    first trip: 1 > 0
        sp--;                           sp = 0
        if (bound[sp] >= best) continue;    0.0 >= 3e38: false
        dx = qx[q] - px[stack[sp]] ...      runs on the first trip
        ...

The walk starts at the header with the header phis' values from the
preheader, folds integer operations and comparisons of constants, reads
loads from the constant-index stores made since the function's straight-line
start (and on the walk itself), and follows a branch only when its
condition folds; it stops at the back edge, at a loop exit, at a branch it
cannot decide and at an impure call (which may not return).  What the
blocks it returns hold runs on every first trip of the loop, so a load
there reads its address whenever the preheader runs (transform.licm may
then load an invariant address before the loop).
"""

from __future__ import annotations

from ..analysis.cfg import Loop
from ..ir.fold import COMPARISONS, fold_with
from ..ir.types import I1, FloatType
from ..ir.values import (
    Block,
    Br,
    Call,
    Cmp,
    CondBr,
    Constant,
    Gep,
    Instruction,
    Load,
    Phi,
    Select,
    Store,
    Value,
)


def first_trip_blocks(lp: Loop[Block], preheader: Block) -> list[Block]:
    """The blocks of ``lp`` that run, in order, on every first trip of the
    loop entered from ``preheader`` (module doc); at least the header."""
    walk = _Walk(_straight_line_stores(preheader))
    blocks: list[Block] = []
    block: Block | None = lp.header
    came_from = preheader
    while block is not None and block in lp and block not in blocks:
        if not walk.run(block, came_from):
            break
        blocks.append(block)
        came_from, block = block, walk.successor(block)
    return blocks or [lp.header]


class _Walk:
    """The known values and memory of one path (constants only)."""

    def __init__(self, memory: dict[tuple[int, int], Constant]) -> None:
        self.memory = memory
        self.values: dict[Value, Constant] = {}

    def known(self, v: Value) -> Constant | None:
        return v if isinstance(v, Constant) else self.values.get(v)

    def run(self, block: Block, came_from: Block) -> bool:
        """Evaluate the block's instructions; False at an impure call."""
        incoming = {phi: self.known(phi.value_from(came_from)) for phi in block.phis}
        for phi, value in incoming.items():
            self._set(phi, value)
        for inst in block.instructions:
            if isinstance(inst, Phi) or inst.is_terminator:
                continue
            if isinstance(inst, Call) and inst.has_side_effects:
                return False
            self.evaluate(inst)
        return True

    def successor(self, block: Block) -> Block | None:
        """The block the path goes to next, or None when no value decides it."""
        term = block.terminator
        if isinstance(term, Br):
            return term.target
        if isinstance(term, CondBr):
            cond = self.known(term.operands[0])
            if cond is None:
                return None
            return term.if_true if cond.value else term.if_false
        return None

    def _set(self, inst: Value, value: Constant | None) -> None:
        if value is None:
            self.values.pop(inst, None)
        else:
            self.values[inst] = value

    def evaluate(self, inst: Instruction) -> None:
        if inst.mask is not None:
            return self._forget_stores(inst)
        if isinstance(inst, Store):
            key = _address(inst.operands[1], self)
            if key is None:
                self.memory.clear()  # a store somewhere: nothing known of memory
                return
            # another base pointer may point into the same object
            self.memory = {k: v for k, v in self.memory.items() if k[0] == key[0]}
            value = self.known(inst.operands[0])
            if value is None:
                self.memory.pop(key, None)
            else:
                self.memory[key] = value
        elif isinstance(inst, Load):
            key = _address(inst.operands[0], self)
            self._set(inst, None if key is None else self.memory.get(key))
        elif isinstance(inst, Select):
            cond = self.known(inst.operands[0])
            chosen = None if cond is None else inst.operands[1 if cond.value else 2]
            self._set(inst, None if chosen is None else self.known(chosen))
        elif isinstance(inst, Cmp):
            self._set(inst, self._compare(inst))
        else:
            known = [self.known(o) for o in inst.operands]
            operands = [o for o in known if o is not None]
            folded = fold_with(inst, operands) if len(operands) == len(known) else None
            self._set(inst, folded)

    def _forget_stores(self, inst: Instruction) -> None:
        if isinstance(inst, Store):
            self.memory.clear()
        self._set(inst, None)

    def _compare(self, inst: Cmp) -> Constant | None:
        a, b = (self.known(o) for o in inst.operands)
        if a is None or b is None:
            return None
        if isinstance(a.type, FloatType) and isinstance(b.type, FloatType):
            return Constant(I1, int(COMPARISONS[inst.pred](float(a.value), float(b.value))))
        return fold_with(inst, [a, b])


def _address(ptr: Value, walk: _Walk) -> tuple[int, int] | None:
    """``(id of the base pointer, element)`` for ``gep base, i`` with i
    known (``gep %stack.1, 0`` and ``gep %stack.1, %sp`` with %sp known to
    be 0 are one element), else None."""
    if not isinstance(ptr, Gep) or isinstance(ptr.operands[0], Gep):
        return None
    index = walk.known(ptr.operands[1])
    return None if index is None else (id(ptr.operands[0]), int(index.value))


def _straight_line_stores(block: Block) -> dict[tuple[int, int], Constant]:
    """The constant-index stores of constants made on the way to ``block``
    along the chain of blocks with one predecessor each (every one runs
    before it): what the first trip may read back."""
    chain = [block]
    preds = _predecessors(block)
    while len(preds.get(chain[-1], [])) == 1:
        (pred,) = preds[chain[-1]]
        if pred in chain:
            break
        chain.append(pred)
    walk = _Walk({})
    for b in reversed(chain):
        for inst in b.instructions:
            if isinstance(inst, Call) and inst.has_side_effects:
                walk.memory.clear()
            elif not inst.is_terminator and not isinstance(inst, Phi):
                walk.evaluate(inst)
    return walk.memory


def _predecessors(block: Block) -> dict[Block, list[Block]]:
    preds: dict[Block, list[Block]] = {}
    assert block.function is not None
    for b in block.function.blocks:
        for s in b.successors:
            preds.setdefault(s, []).append(b)
    return preds
