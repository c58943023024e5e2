"""Hoist what several arms compute alike to where the arms part.

The arms of a divergent cascade often repeat work on the same operands
(``s * s / r`` and ``0.5 / r`` in every arm of a generalized-Born cascade).
Once linearized, every arm runs for every vector that has a lane in it, so
the repetition costs real time; BOSCC gadgets keep the arms apart, so
common-subexpression elimination (which needs one copy to dominate the
other) cannot merge them.  This pass moves one copy to the end of the
arms' nearest common dominator and lets the others use it::

    entry: condbr %c, a, b           entry: %q = fdiv f64 0.5, %r
    a:     %q1 = fdiv 0.5, %r   ==>         condbr %c, a, b
           ...uses %q1               a:     ...uses %q
    b:     %q2 = fdiv 0.5, %r        b:     ...uses %q

Only instructions that may run anywhere (``safety.can_speculate``: no
memory, no call, no trap) and that appear in two or more blocks none of
which dominates another are moved, and only when every operand is defined
where the copy goes, and never into a loop that some copy is not in (the
copy would run on every trip, and a value defined in a loop and used after
it breaks the loop-closed form canonicalize built; fuzz seed 20606955:
``(i-1)*3`` in a ``break`` arm and after the loop went to the loop's
header); a chain (``s * s`` then ``(s * s) / r``) moves link by
link, repeating until nothing moves.  The cost: a moved value is computed
also for vectors whose lanes take none of the arms.

Loads of one address move too when every path from where the arms part
reaches one of them, with no store or impure call on the way (the load is
anticipated there): every lane that would run the hoisted load reads that
address anyway, so it cannot trap where the original did not.  A k-d tree
step ``near = d < 0 ? left[n] : right[n]; far = d < 0 ? right[n] : left[n]``
then loads each child once, not twice under complementary masks.

Changes no control flow; runs before BOSCC and linearization (s2s/pipeline.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable

from ..analysis.cfg import cfg_of
from ..ir.value_numbering import load_key, numbered, value_key
from ..ir.values import Block, CondBr, Function, Instruction, Load, Phi, Value
from ..ir.verifier import compute_idoms
from .passes import Pass, PassState, did_any
from .safety import can_speculate


def hoist_common_computations(fn: Function) -> int:
    """Move repeated computations of sibling blocks up (module doc); returns
    how many groups were merged."""
    merged = 0
    while True:
        moved = _hoist_once(fn)
        if not moved:
            return merged
        merged += moved


def _hoist_once(fn: Function) -> int:
    doms = _Dominators(fn)
    groups: dict[Hashable, list[Instruction]] = defaultdict(list)
    loads: dict[Hashable, list[Instruction]] = defaultdict(list)
    for block in fn.blocks:
        if not doms.reachable(block):
            continue
        for inst in block.instructions:
            if isinstance(inst, Load) and inst.mask is None:
                loads[load_key(inst)].append(inst)
            elif not isinstance(inst, Phi) and numbered(inst) and can_speculate(inst):
                groups[value_key(inst)].append(inst)
    moved = 0
    for insts in groups.values():
        if len(insts) >= 2 and _hoist_group(insts, doms):
            moved += 1
    for insts in loads.values():
        if len(insts) >= 2 and _hoist_group(insts, doms, _anticipated):
            moved += 1
    return moved


MayMove = Callable[[list[Instruction], Block, "_Dominators"], bool]
"""Whether instructions may move to the end of a block (``_anticipated``)."""


def _hoist_group(
    insts: list[Instruction], doms: _Dominators, may_move: MayMove | None = None
) -> bool:
    blocks = [i.parent for i in insts]
    if len(set(blocks)) < len(blocks):
        return False  # two in one block: the first dominates, CSE merges them
    at = doms.common(blocks)
    if at in blocks or any(not doms.available(op, at) for op in insts[0].operands):
        return False
    loop = doms.loops.loop_of(at)
    if loop is not None and any(b not in loop for b in blocks):
        return False  # into a loop: see the module doc
    if may_move is not None and not may_move(insts, at, doms):
        return False
    keep, rest = insts[0], insts[1:]
    assert keep.block is not None and at.terminator is not None
    keep.block.instructions.remove(keep)
    at.insert(at.instructions.index(at.terminator), keep)
    for other in rest:
        other.replace_all_uses_with(keep)
        other.erase()
    return True


def _anticipated(loads: list[Instruction], at: Block, doms: _Dominators) -> bool:
    """Does every path from the end of ``at`` run one of ``loads`` before
    any write to memory, without leaving the blocks ``at`` dominates or
    coming back to ``at``?  A path that branches twice on one condition
    takes the same side both times (``c ? left[n] : right[n]`` then
    ``c ? right[n] : left[n]``): only for conditions defined before the
    end of ``at``, which no such path computes again."""
    first = {}
    for load in loads:
        block = load.block
        assert block is not None
        before = block.instructions[: block.instructions.index(load)]
        if any(i.has_side_effects for i in before):
            return False
        first[block] = load
    seen: set[tuple[Block, Known]] = set()

    def fixed(cond: Value) -> bool:
        return doms.available(cond, at)

    work = _successors(at, frozenset(), fixed)
    while work:
        block, known = work.pop()
        if block in first or (block, known) in seen:
            continue
        seen.add((block, known))
        if block is at or not doms.dominates(at, block) or not block.successors:
            return False
        if any(i.has_side_effects for i in block.instructions):
            return False
        work.extend(_successors(block, known, fixed))
    return all(_store_free_from(at, load.parent) for load in loads)


def _store_free_from(at: Block, target: Block) -> bool:
    """No store or impure call on any path from the end of ``at`` to the
    start of ``target`` (walking back from ``target``; if a path runs
    through ``target`` itself, all of it counts)."""
    preds: dict[Block, list[Block]] = {}
    assert at.function is not None
    for b in at.function.blocks:
        for s in b.successors:
            preds.setdefault(s, []).append(b)
    seen: set[Block] = set()
    work = list(preds.get(target, []))
    while work:
        block = work.pop()
        if block is at or block in seen:
            continue
        seen.add(block)
        if any(i.has_side_effects for i in block.instructions):
            return False
        work.extend(preds.get(block, []))
    return True


Known = frozenset[tuple[Value, bool]]
"""Branch conditions a path has taken, with the side it took."""


def _successors(
    block: Block, known: Known, fixed: Callable[[Value], bool]
) -> list[tuple[Block, Known]]:
    """The successors a path can take, with what it then knows of the
    ``fixed`` branch conditions (pairs of condition and value)."""
    term = block.terminator
    if not isinstance(term, CondBr):
        return [(s, known) for s in block.successors]
    cond = term.operands[0]
    then, other = term.successors
    if (cond, True) in known:
        return [(then, known)]
    if (cond, False) in known:
        return [(other, known)]
    if not fixed(cond):
        return [(then, known), (other, known)]
    return [(then, known | {(cond, True)}), (other, known | {(cond, False)})]


class _Dominators:
    def __init__(self, fn: Function) -> None:
        self.idom = compute_idoms(fn)
        self.loops = cfg_of(fn).loops
        self.depth: dict[Block, int] = {}
        for b in self.idom:
            self._depth(b)

    def _depth(self, b: Block) -> int:
        chain: list[Block] = []
        while b not in self.depth and self.idom[b] is not b:
            chain.append(b)
            b = self.idom[b]
        base = self.depth.setdefault(b, 0)
        for n, c in enumerate(reversed(chain), 1):
            self.depth[c] = base + n
        return self.depth[chain[0]] if chain else base

    def reachable(self, b: Block) -> bool:
        return b in self.idom

    def common(self, blocks: list[Block]) -> Block:
        """The nearest block dominating all of ``blocks``."""
        at = blocks[0]
        for b in blocks[1:]:
            while at is not b:
                if self.depth[at] >= self.depth[b]:
                    at = self.idom[at]
                else:
                    b = self.idom[b]
        return at

    def dominates(self, a: Block, b: Block) -> bool:
        while self.depth[b] > self.depth[a]:
            b = self.idom[b]
        return a is b

    def available(self, v: object, at: Block) -> bool:
        """Is ``v`` defined before the end of ``at``?"""
        if not isinstance(v, Instruction):
            return True
        return v.block is not None and self.reachable(v.block) and self.dominates(v.block, at)


def _run(state: PassState) -> int:
    return hoist_common_computations(state.fn)


PASS = Pass("hoist", _run, changed=did_any)
