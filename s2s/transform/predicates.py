"""Block and edge predicates as ``i1`` IR values, for the linearized CFG.

Spec: seed 001 Chapter 4 (P-LLVM: a block's predicate is the set of lanes
executing it) and Section 8.4 (phis become selects on edge predicates).

Predicates follow the CFG *before* linearization (``OriginalEdges``):

    e(a, b) = p(a) & (condition of the edge a -> b)
    p(b)    = OR of e(a, b) over b's original predecessors a (no back edges)
    p(h)    = e(preheader, h) for a loop header h (loops are uniform: the
              lanes that enter stay together until they all leave)
    p(b)    = true where b never runs with some lanes inactive (the
              divergence analysis' "varying activation" does not hold)

but their values must be read in the linearized CFG, where the source of an
original edge may not dominate its target any more (a kept uniform branch
can skip it).  Each edge predicate is therefore an SSA *variable* (one SSA
builder, s2s/ir/ssa.py): defined at the end of its source block, ``false``
at the region entry and at the header of every loop holding the source (an
iteration that did not pass the source did not take the edge).  Reads place
the phis the new CFG needs.  The incoming values of a phi that becomes a
select are variables the same way (``undef`` where the source did not run:
the select never picks them there).

Then every memory access, call (except pure math) and integer division of a
block that may run with inactive lanes gets the block predicate as its mask,
so inactive lanes never touch memory or trap.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from ..analysis.cfg import Graph
from ..analysis.divergence import DivergenceInfo
from ..analysis.transfer import same_value
from ..ir.ssa import SSABuilder
from ..ir.types import I1, FloatType, IntType
from ..ir.values import (
    HORIZONTAL,
    BinOp,
    Block,
    Call,
    Cmp,
    CondBr,
    Constant,
    Function,
    Instruction,
    Load,
    Phi,
    Select,
    Store,
    Switch,
    Undef,
    Value,
)

TRUE = Constant(I1, 1)
FALSE = Constant(I1, 0)


@dataclass
class _Branch:
    """The original terminator of a block, as far as predicates need it."""

    succs: list[Block]
    cond: Value | None = None
    if_true: Block | None = None
    cases: list[tuple[int, Block]] = field(default_factory=list[tuple[int, Block]])
    default: Block | None = None


@dataclass
class OriginalEdges:
    """The CFG before linearization and what predicates are computed from."""

    order: list[Block]
    """Blocks in block index order."""
    preds: dict[Block, list[Block]]
    """Original predecessors, back edges excluded."""
    branches: dict[Block, _Branch]
    loop_headers: dict[Block, Block]
    """Loop header -> its preheader."""
    enclosing_headers: dict[Block, list[Block]]
    """Block -> headers of the loops holding it."""
    all_active: set[Block]
    """Blocks that always run with every lane of the region active."""
    phis: dict[Block, list[Phi]]
    """The original phis of every block."""
    back_preds: dict[Block, set[Block]]
    """Loop header -> its latches."""

    @staticmethod
    def of(fn: Function, g: Graph[Block], div: DivergenceInfo) -> OriginalEdges:
        back = set(g.back_edges)
        preds = {b: [p for p in g.preds[b] if (p, b) not in back] for b in g.block_order}
        headers: dict[Block, Block] = {}
        enclosing: dict[Block, list[Block]] = {b: [] for b in g.block_order}
        for lp in g.loops.loops:
            (pre,) = [p for p in g.preds[lp.header] if p not in lp]
            headers[lp.header] = pre
            for b in lp.blocks:
                enclosing[b].append(lp.header)
        return OriginalEdges(
            order=list(g.block_order),
            preds=preds,
            branches={b: _branch_of(b, g) for b in g.block_order},
            loop_headers=headers,
            enclosing_headers=enclosing,
            all_active={b for b in g.block_order if not div.has_varying_activation(b)},
            phis={b: list(b.phis) for b in g.block_order},
            back_preds={h: {x for x, y in back if y is h} for h in headers},
        )


def _branch_of(block: Block, g: Graph[Block]) -> _Branch:
    term = block.terminator
    if isinstance(term, CondBr) and term.if_true is not term.if_false:
        return _Branch(list(g.succs[block]), term.operands[0], term.if_true)
    if isinstance(term, Switch):
        return _Branch(
            list(g.succs[block]), term.operands[0], cases=list(term.cases), default=term.default
        )
    return _Branch(list(g.succs[block]))


AtEnd = Callable[[Value, Block], Value]
"""The value available at the end of a block (ssa_repair.DominanceRepair.at_end)."""


Dominates = Callable[[Block, Block], bool]
"""Dominance in the linearized CFG."""


def apply_predicates(
    fn: Function, edges: OriginalEdges, at_end: AtEnd, dominates: Dominates
) -> None:
    """Materialize predicates, turn the phis of blocks whose predecessors
    changed into selects, and mask what must not run on inactive lanes."""
    _Predicates(fn, edges, at_end, dominates).run()


class _Predicates:
    def __init__(
        self, fn: Function, edges: OriginalEdges, at_end: AtEnd, dominates: Dominates
    ) -> None:
        self.fn, self.edges, self.at_end, self.dominates = fn, edges, at_end, dominates
        self.edge_values: dict[tuple[Block, Block], Value] = {}
        self.ssa = SSABuilder.for_function(fn)
        self.new_preds = fn.predecessors()
        self.block_pred: dict[Block, Value] = {}
        self.starts: dict[Block, _Inserter] = {}
        self.replaced: dict[Phi, Value] = {}
        """Phis turned into selects (a branch condition may be one)."""

    def at_start(self, b: Block) -> _Inserter:
        if b not in self.starts:
            self.starts[b] = _Inserter(b)
        return self.starts[b]

    def run(self) -> None:
        for b in self.edges.order:
            self.block_pred[b] = self._block_predicate(b)
            if self._preds_changed(b):
                self._phis_to_selects(b)
            self._edge_predicates(b)
        for b in self.edges.order:
            if b not in self.edges.all_active:
                _mask_block(b, self.block_pred[b])

    # -- predicates ----------------------------------------------------------------
    def _block_predicate(self, b: Block) -> Value:
        if b in self.edges.all_active:
            return TRUE
        pre = self.edges.loop_headers.get(b)
        sources = [pre] if pre is not None else self.edges.preds[b]
        result: Value | None = None
        at = self.at_start(b)
        for a in sources:
            e = self._edge_at(a, b)
            result = e if result is None else at.insert(BinOp("or", result, e, f"{b.name}.p"))
        return result if result is not None else TRUE

    def _edge_predicates(self, a: Block) -> None:
        branch = self.edges.branches[a]
        p = self.block_pred[a]
        at = _Inserter(a, at_end=True)
        if isinstance(branch.cond, Phi) and branch.cond in self.replaced:
            branch.cond = self.replaced[branch.cond]
        if branch.cond is not None:
            branch.cond = self.at_end(branch.cond, a)
        for s in branch.succs:
            if s not in self.edges.preds or a not in self.edges.preds[s]:
                continue  # a back edge
            cond = _edge_condition(branch, s, at)
            e = p if cond is None else _and(p, cond, at, f"{a.name}.{s.name}.e")
            key = ("edge", a, s)
            self.ssa.declare(key, I1, f"{a.name}.{s.name}.e")
            self._define(key, a, e, FALSE)
            self.edge_values[(a, s)] = e

    def _define(self, key: Hashable, source: Block, value: Value, reset: Value) -> None:
        """``value`` at the end of ``source``; ``reset`` at the region entry and
        at the header of each loop holding ``source``."""
        for header in [self.fn.entry, *self.edges.enclosing_headers[source]]:
            if header is not source:
                self.ssa.write(key, header, reset)
        self.ssa.write(key, source, value)

    # -- phis ------------------------------------------------------------------------
    def _preds_changed(self, b: Block) -> bool:
        now = set(self.new_preds.get(b, [])) - self.edges.back_preds.get(b, set())
        changed = now != set(self.edges.preds[b])
        assert not (changed and b in self.edges.loop_headers), (
            f"linearize changed the entry of loop '{b.name}'"
        )
        return changed

    def _phis_to_selects(self, b: Block) -> None:
        """Section 8.4: the value of the edge the lane came through."""
        at = self.at_start(b)
        for phi in self.edges.phis[b]:
            if phi.block is not b:
                continue
            incoming = _most_common_last(list(phi.incoming()))
            value = self._incoming_at(phi, incoming[-1], b)
            for v, p in reversed(incoming[:-1]):
                chosen = self._incoming_at(phi, (v, p), b)
                if same_value(chosen, value) or isinstance(chosen, Undef):
                    continue
                if isinstance(value, Undef):
                    value = chosen
                    continue
                cond = self._edge_at(p, b)
                value = _select(cond, chosen, value, at, phi.name)
            phi.replace_all_uses_with(value)
            self.replaced[phi] = value
            phi.erase()

    def _edge_at(self, a: Block, b: Block) -> Value:
        """The predicate of the original edge a -> b, read at b's start."""
        if self.dominates(a, b):
            return self.edge_values[(a, b)]  # computed at a's end, on every path to b
        return self.ssa.read_at_start(("edge", a, b), b)

    def _incoming_at(self, phi: Phi, inc: tuple[Value, Block], b: Block) -> Value:
        v, p = inc
        if not isinstance(v, Instruction) or (
            v.block is not b and v.block is not None and self.dominates(v.block, b)
        ):
            return v  # defined on every path to b: no SSA variable needed
        key = ("in", phi, p)
        self.ssa.declare(key, phi.type, phi.name)
        self._define(key, p, v, Undef(phi.type))
        return self.ssa.read_at_start(key, b)


def _most_common_last(incoming: list[tuple[Value, Block]]) -> list[tuple[Value, Block]]:
    """The incoming values reordered so that the most frequent one (not undef)
    comes last: it is the select chain's default and needs no select of its
    own (a live-out tracker keeps its value on all edges but one)."""

    def key(v: Value) -> object:
        return ("c", str(v.type), v.value) if isinstance(v, Constant) else id(v)

    counts: dict[object, int] = {}
    for v, _ in incoming:
        if not isinstance(v, Undef):
            counts[key(v)] = counts.get(key(v), 0) + 1
    if not counts:
        return incoming
    best = max(counts, key=counts.__getitem__)
    last = key(incoming[-1][0])
    if counts.get(last) == counts[best]:
        return incoming  # a tie: keep the order the phi has
    return [x for x in incoming if key(x[0]) != best] + [x for x in incoming if key(x[0]) == best]


class _Inserter:
    """Inserts in order after the phis (or before the terminator) of one
    block; SSA reads may add phis meanwhile, so it anchors on what it inserted."""

    def __init__(self, block: Block, at_end: bool = False) -> None:
        self.block, self.at_end = block, at_end
        self.last: Instruction | None = None

    def insert(self, inst: Instruction) -> Instruction:
        b = self.block
        if self.at_end:
            b.insert(len(b.instructions) - (1 if b.terminator is not None else 0), inst)
        elif self.last is not None:
            b.insert(b.instructions.index(self.last) + 1, inst)
        else:
            b.insert(len(b.phis), inst)
        self.last = inst
        return inst


def _edge_condition(branch: _Branch, s: Block, at: _Inserter) -> Value | None:
    """The lanes of a block that go to its successor ``s`` (None: all)."""
    if branch.cond is None:
        return None
    if branch.if_true is not None:
        if s is branch.if_true:
            return branch.cond
        return at.insert(BinOp("xor", branch.cond, TRUE, f"not.{branch.cond.name}"))
    x = branch.cond
    hits: list[Value] = [
        at.insert(Cmp("eq", x, Constant(x.type, k))) for k, t in branch.cases if t is s
    ]
    if s is branch.default:
        misses = [
            at.insert(Cmp("ne", x, Constant(x.type, k))) for k, t in branch.cases if t is not s
        ]
        default = _all_of(misses, at)
        hits.append(default if default is not None else TRUE)
    result = hits[0]
    for h in hits[1:]:
        result = at.insert(BinOp("or", result, h))
    return result


def _select(c: Value, a: Value, b: Value, at: _Inserter, name: str) -> Value:
    """``select c, a, b``, as mask logic where the arms are i1 constants;
    an undefined arm may be the other arm's value, so the other arm (the
    shape analysis ignores such arms: the select must not evaluate one in
    the code, where a strided value's lanes are made from lane 0's)."""
    if isinstance(b, Undef):
        return a
    if isinstance(a, Undef):
        return b
    if a.type == I1 and isinstance(a, Constant) and a.value:
        if isinstance(b, Constant):
            return c if not b.value else TRUE
        return at.insert(BinOp("or", c, b, name))
    if b.type == I1 and isinstance(b, Constant) and not b.value:
        return at.insert(BinOp("and", c, a, name))
    return at.insert(Select(c, a, b, name))


def _all_of(values: Sequence[Value], at: _Inserter) -> Value | None:
    if not values:
        return None
    result = values[0]
    for v in values[1:]:
        result = at.insert(BinOp("and", result, v))
    return result


def _and(a: Value, b: Value, at: _Inserter, name: str) -> Value:
    if a is TRUE:
        return b
    if b is TRUE:
        return a
    return at.insert(BinOp("and", a, b, name))


def needs_mask(inst: Instruction) -> bool:
    """Must not run on inactive lanes: memory, calls with effects (and the
    horizontal operations, which look at the active lanes), integer division.
    Also math calls: they may run on inactive lanes, but what those lanes
    hold (a negative logarithm, 0/0) sends a vector math library down its
    slow path for special inputs; with the mask, code generation gives them
    a harmless argument."""
    if isinstance(inst, (Load, Store)):
        return True
    if isinstance(inst, Call):
        return not inst.pure or inst.callee in HORIZONTAL or isinstance(inst.type, FloatType)
    if isinstance(inst, BinOp) and inst.op in ("div", "rem"):
        return isinstance(inst.type, IntType) and not _safe_divisor(inst.operands[1])
    return False


def _safe_divisor(d: Value) -> bool:
    """A constant divisor that cannot trap (not 0, and not -1: INT_MIN / -1)."""
    return isinstance(d, Constant) and int(d.value) not in (0, -1)


def _mask_block(b: Block, pred: Value) -> None:
    term = b.terminator
    if isinstance(term, (CondBr, Switch)) and pred is not TRUE:
        # a uniform branch where no lane may be active: its condition may be
        # undefined then, and either way is right (both reach the deferred blocks)
        term.set_mask(pred)
    for inst in list(b.instructions):
        if not needs_mask(inst) or pred is TRUE:
            continue
        if inst.mask is None:
            inst.set_mask(pred)
        else:
            both = BinOp("and", pred, inst.mask)
            b.insert(b.instructions.index(inst), both)
            inst.set_mask(both)
