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
where the copy goes; a chain (``s * s`` then ``(s * s) / r``) moves link by
link, repeating until nothing moves.  The cost: a moved value is computed
also for vectors whose lanes take none of the arms.

Changes no control flow; runs before BOSCC and linearization (s2s/pipeline.py).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Hashable

from ..ir.values import Block, Function, Instruction, Phi
from ..ir.verifier import compute_idoms
from .cse import numbered, value_key
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
    for block in fn.blocks:
        if not doms.reachable(block):
            continue
        for inst in block.instructions:
            if not isinstance(inst, Phi) and numbered(inst) and can_speculate(inst):
                groups[value_key(inst)].append(inst)
    moved = 0
    for insts in groups.values():
        if len(insts) >= 2 and _hoist_group(insts, doms):
            moved += 1
    return moved


def _hoist_group(insts: list[Instruction], doms: "_Dominators") -> bool:
    blocks = [i.block for i in insts]
    if len(set(blocks)) < len(blocks):
        return False  # two in one block: the first dominates, CSE merges them
    at = doms.common(blocks)  # type: ignore[arg-type]
    if at in blocks or any(not doms.available(op, at) for op in insts[0].operands):
        return False
    keep, rest = insts[0], insts[1:]
    assert keep.block is not None and at.terminator is not None
    keep.block.instructions.remove(keep)
    at.insert(at.instructions.index(at.terminator), keep)
    for other in rest:
        other.replace_all_uses_with(keep)
        other.erase()
    return True


class _Dominators:
    def __init__(self, fn: Function) -> None:
        self.idom = compute_idoms(fn)
        self.depth: dict[Block, int] = {}
        for b in self.idom:
            self._depth(b)

    def _depth(self, b: Block) -> int:
        chain = []
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
