"""Merge arms: what the arms of a divergent cascade compute alike on
different inputs is computed once, where they join, on selected inputs.

Partial linearization runs every arm that some lane takes; a cascade whose
arms each evaluate the same formula on their own operands (the shell
integral with its ``log`` in four arms of a generalized-Born cascade) then
evaluates it up to four times per vector.  This pass turns the phi of the
arms' results into the formula of phis of their operands (the phi-of-ops
fold of LLVM's InstCombine, generalized to a nest of phis and to some of
its arms; not in the seeds: issue 8 asks for calls shared between arms that
cannot both run)::

    T:  %l1 = call @log(%x)            T:  br J
        %s1 = add %acc, %l1            U:  br J
        br J                   ==>     J:  %h = phi [%x, T], [%y, U]
    U:  %l2 = call @log(%y)                %l = call @log(%h)
        %s2 = add %acc, %l2                %s = add %acc, %l
        br J
    J:  %s = phi [%s1, T], [%s2, U]

The arms' expression trees are anti-unified: where all arms apply one
operation, it is kept and their operands are compared one level down;
where they differ, a phi of the differing values (a hole) takes their
place.  An arm whose tree lacks an ``add``, ``sub`` or ``mul`` the others
have takes part with that operation's identity (``x = x + -0.0`` exactly,
also for ``x = -0.0``; ``x - 0.0``, ``x * 1.0``; 0 and 1 for integers).
A phi whose incoming values are phis of the blocks before it (the nested
joins of an else-if cascade) counts as one nest with all their values.

Arms whose trees do not fit (another formula, or nothing: ``if (far)
continue``) stay as they are.  The merged formula then runs in a new block
entered under a flag that says a merged arm was taken::

    J:       %h = phi ..., %f = phi [i1 1, T], [i1 0, O], ...
             condbr %f, J.merged, J.rest
    J.merged: (the formula on %h)  br J.rest
    J.rest:  %s = phi [<formula>, J.merged], [<old nest>, J]

so it runs exactly when one of its arms would have, on that arm's
operands; linearization and BOSCC treat it like any divergent arm.  The
values of arms that do not take part in a hole, and of merged arms in the
old nest, are never used: 1.0 for floats (in vector code the formula also
runs on those lanes, and 0/0 or log(0) there would send vector math down
its slow path), 0 for integers.

Cost model: an operation kept once instead of n times gains its weight
(cost.py) n - 1 times; a hole with d distinct values costs d - 1 selects,
the flag two.  The arms that take part are chosen greedily (start with all
whose value is an instruction, drop the one whose removal gains most,
while that helps); a nest is merged when the gain reaches ``MIN_GAIN``.

Only instructions without memory effects merge: arithmetic, compares,
casts, selects and calls of pure functions; an arm's instruction leaves
the arm when nothing else uses it (an instruction used elsewhere, or
hoisted out of the loop, may still be matched: the formula computes it
again).  Runs before ``hoist``, while each arm holds its own copy of what
the arms share.  Only nests at joins of divergent branches merge (a
uniform branch runs one arm anyway), with at most ``MAX_ARMS`` arms.
Requires the divergence analysis; changes the CFG (a split join): every
analysis is invalid afterwards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TypeGuard

from ..analysis.cfg import Graph, LoopForest, cfg_of
from ..analysis.divergence import DivergenceInfo
from ..ir.builder import IRBuilder, copy_with_operands
from ..ir.types import I1, FloatType, IntType, PtrType, Type
from ..ir.value_numbering import operand_key, operation_key
from ..ir.values import (
    BinOp,
    Block,
    Br,
    Call,
    Cast,
    Cmp,
    CondBr,
    Constant,
    Function,
    Instruction,
    Phi,
    Select,
    UnOp,
    Value,
)
from .cost import instruction_weight
from .passes import Pass, PassState, did_any

MIN_GAIN = 16
"""A nest merges when it saves this much weight (one math call)."""

MAX_DEPTH = 16
"""Deeper expression trees are compared down to here only."""

MAX_ARMS = 12
"""Nests with more arms are left alone (choosing among them costs cubic time)."""

MAX_STEPS = 20000
"""Comparisons one nest may make (the arms' trees can be long sums)."""

FLAG_COST = 2
"""The flag's phis and the select after the merged block."""


@dataclass
class _Leaf:
    """An incoming value of a nest: ``phi.operands[index]``."""

    phi: Phi
    index: int
    path: tuple[Phi, ...]
    """The nest's phis from its root down to ``phi``."""

    @property
    def value(self) -> Value:
        return self.phi.operands[self.index]


@dataclass
class _Nest:
    root: Phi
    phis: list[Phi]
    """The root, then the phis nested in it (each used only by its parent)."""
    leaves: list[_Leaf]


@dataclass
class _Hole:
    values: tuple[Value, ...]
    """One per merged arm."""
    gain: int
    """Minus the selects it costs: one per distinct value after the first."""


@dataclass
class _Node:
    template: Instruction
    members: tuple[Instruction | None, ...]
    """Each arm's instruction the node removes (None: the arm keeps its
    own, or takes part with the identity)."""
    children: list[_Shape]
    gain: int


_Shape = _Hole | _Node


def _in_loop_of(loops: LoopForest[Block], join: Block) -> Callable[[Block], bool]:
    """Whether a block's innermost loop is the join's."""

    def same_loop(b: Block) -> bool:
        return loops.innermost.get(b) is loops.innermost.get(join)

    return same_loop


def merge_arms(fn: Function, div: DivergenceInfo) -> bool:
    """Merge the best nest of ``fn`` (module doc); True when one merged.
    The pipeline repeats it with a fresh analysis until nothing merges."""
    g = cfg_of(fn)
    loops = g.loops
    for join in g.block_order:
        if not div.is_join_point(join) or loops.loop_with_header(join) is not None:
            continue
        for phi in join.phis:
            if div.is_uniform(phi) or _is_nested(phi):
                continue
            nest = _nest(phi)
            choice = _choose(nest, _Matcher(_in_loop_of(loops, join)))
            if choice is not None:
                chosen, shape = choice
                _apply(fn, g, _smallest_nest(chosen), chosen, shape)
                return True
    return False


def _is_nested(phi: Phi) -> bool:
    """Is ``phi`` part of the nest of a phi after it (only used there)?"""
    block = phi.block
    assert block is not None
    return (
        len(phi.users) == 1
        and isinstance(phi.users[0], Phi)
        and block.successors == [phi.users[0].block]
    )


def _nest(root: Phi) -> _Nest:
    nest = _Nest(root, [], [])

    work: list[tuple[Phi, tuple[Phi, ...]]] = [(root, (root,))]
    while work:  # not recursive: an else-if cascade may be thousands deep
        phi, path = work.pop()
        nest.phis.append(phi)
        for index, (value, pred) in enumerate(phi.incoming()):
            if (
                isinstance(value, Phi)
                and value.block is pred
                and value.users == [phi]
                and pred.successors == [phi.block]
            ):
                work.append((value, path + (value,)))
            else:
                nest.leaves.append(_Leaf(phi, index, path))
    return nest


def _smallest_nest(chosen: list[_Leaf]) -> _Nest:
    """The nest of the last phi on the way to every chosen leaf: the merged
    formula goes where the chosen arms have all joined (more of their
    values are available there, and fewer other arms pass)."""
    depth = 0
    while all(
        len(leaf.path) > depth + 1 and leaf.path[depth + 1] is chosen[0].path[depth + 1]
        for leaf in chosen
    ):
        depth += 1
    return _nest(chosen[0].path[depth])


def _choose(nest: _Nest, match: _Matcher) -> tuple[list[_Leaf], _Shape] | None:
    """The arms to merge and their shape, or None when no choice gains enough."""
    members = [leaf for leaf in nest.leaves if match.computable(leaf.value)]
    if not 2 <= len(members) <= MAX_ARMS:
        return None

    def score(chosen: list[_Leaf]) -> tuple[int, _Shape]:
        shape = match.unify(tuple(leaf.value for leaf in chosen), (True,) * len(chosen), 0)
        flag = FLAG_COST if len(chosen) < len(nest.leaves) else 0
        return (shape.gain - flag if isinstance(shape, _Node) else 0), shape

    best, shape = score(members)
    while len(members) > 2:
        trials = [(score(members[:k] + members[k + 1 :]), k) for k in range(len(members))]
        (gain, new_shape), k = max(trials, key=lambda t: t[0][0])
        if gain <= best:
            break
        best, shape, members = gain, new_shape, members[:k] + members[k + 1 :]
    return (members, shape) if best >= MIN_GAIN else None


# Identities: operation -> {position of the arm's own value: the other operand}.
_IDENTITIES: dict[str, dict[str, dict[int, int | float]]] = {
    "float": {"add": {0: -0.0, 1: -0.0}, "sub": {0: 0.0}, "mul": {0: 1.0, 1: 1.0}},
    "int": {"add": {0: 0, 1: 0}, "sub": {0: 0}, "mul": {0: 1, 1: 1}},
}


def _identity(inst: Instruction) -> dict[int, int | float] | None:
    if not isinstance(inst, BinOp) or inst.type == I1:
        return None
    kind = "float" if isinstance(inst.type, FloatType) else "int"
    if not isinstance(inst.type, (FloatType, IntType)):
        return None
    return _IDENTITIES[kind].get(inst.op)


def _vkey(v: Value) -> Hashable:
    """Equal for one value, or for constants of one type and bits."""
    return operand_key(v)


@dataclass
class _Matcher:
    """Anti-unification of expression trees (module doc), memoized.

    An arm's instruction takes part in a node when the formula may compute
    it again from its operands (``computable``); it is removed from the arm
    only when nothing else uses it (``removable``: used once, by a removed
    parent or the nest, in the join's loop).  A value loop-invariant code
    motion hoisted (``1.0 / %ri`` before the loop) still matches the arms
    that compute the same operation in place."""

    in_join_loop: Callable[[Block], bool]
    memo: dict[Hashable, _Shape] = field(default_factory=dict[Hashable, _Shape])
    structures: dict[int, Hashable] = field(default_factory=dict[int, Hashable])
    budget: int = MAX_STEPS
    """Comparisons left: past them every column is a hole."""

    @staticmethod
    def computable(v: Value) -> TypeGuard[Instruction]:
        if not isinstance(v, (BinOp, UnOp, Cmp, Cast, Select, Call)):
            return False
        if (isinstance(v, Call) and not v.pure) or v.mask is not None or v.block is None:
            return False
        return not any(isinstance(t, PtrType) for t in [v.type, *(o.type for o in v.operands)])

    def removable(self, v: Instruction, parent_removed: bool) -> bool:
        assert v.block is not None
        return parent_removed and len(v.users) == 1 and self.in_join_loop(v.block)

    def structure(self, v: Value, depth: int = 0) -> Hashable:
        """Equal for values computed alike from equal operands (the arms
        compute ``r + sj`` each for themselves), down to ``MAX_DEPTH``."""
        if not self.computable(v) or depth >= MAX_DEPTH:
            return _vkey(v)
        key = self.structures.get(id(v))
        if key is None:
            assert isinstance(v, Instruction)
            key = (_key(v), tuple(self.structure(o, depth + 1) for o in v.operands))
            self.structures[id(v)] = key
        return key

    def unify(self, values: tuple[Value, ...], removed: tuple[bool, ...], depth: int) -> _Shape:
        """The best shape of ``values`` (one per arm); ``removed[k]``: arm
        k's user of its value goes away."""
        key = (tuple(_vkey(v) for v in values), removed)
        if key not in self.memo:
            self.memo[key] = self._unify(values, removed, depth)
        return self.memo[key]

    def _unify(self, values: tuple[Value, ...], removed: tuple[bool, ...], depth: int) -> _Shape:
        distinct = len({self.structure(v) for v in values})
        best: _Shape = _Hole(values, 1 - distinct)
        if depth >= MAX_DEPTH or len({_vkey(v) for v in values}) == 1:
            return best
        insts = [v if self.computable(v) else None for v in values]
        counts = Counter(_key(i) for i in insts if i is not None)
        self.budget -= 1
        for op_key, count in counts.items():
            example = next(i for i in insts if i is not None and _key(i) == op_key)
            if self.budget <= 0 or (count < 2 and _identity(example) is None):
                continue
            node = self._node(values, removed, insts, op_key, depth)
            if node is not None and node.gain > best.gain:
                best = node
        return best

    def _node(
        self,
        values: tuple[Value, ...],
        removed: tuple[bool, ...],
        insts: list[Instruction | None],
        op_key: Hashable,
        depth: int,
    ) -> _Node | None:
        real = [i for i in insts if i is not None and _key(i) == op_key]
        template = real[0]
        ident = _identity(template)
        members: list[Instruction | None] = []
        rows: list[list[tuple[Value, bool]]] = []  # each operand, and whether its user goes
        for v, inst, parent_removed in zip(values, insts, removed):
            if inst is not None and _key(inst) == op_key:
                goes = self.removable(inst, parent_removed)
                members.append(inst if goes else None)
                rows.append([(o, goes) for o in inst.operands])
                continue
            if ident is None:
                return None
            members.append(None)  # v stays the arm's value: as ``v op identity``
            rows.append(
                [
                    (o, o is v and parent_removed)
                    for o in self._identity_row(v, template, ident, real)
                ]
            )
        children: list[_Shape] = []
        for j in range(len(template.operands)):
            column = [row[j] for row in rows]
            children.append(
                self.unify(
                    tuple(o for o, _ in column), tuple(goes for _, goes in column), depth + 1
                )
            )
        saved = instruction_weight(template) * (sum(m is not None for m in members) - 1)
        return _Node(template, tuple(members), children, saved + sum(c.gain for c in children))

    @staticmethod
    def _identity_row(
        v: Value,
        template: Instruction,
        ident: dict[int, int | float],
        real: list[Instruction],
    ) -> list[Value]:
        """``v`` as ``template``'s operation on ``v`` and the identity, with
        ``v`` where the arms' own operands look most like it."""

        def likeness(pos: int) -> int:
            return sum(
                _vkey(o) == _vkey(v)
                or (
                    isinstance(o, Instruction) and isinstance(v, Instruction) and _key(o) == _key(v)
                )
                for o in (i.operands[pos] for i in real)
            )

        pos = max(sorted(ident), key=likeness)
        row: list[Value] = [Constant(template.type, ident[pos])] * 2
        row[pos] = v
        return row


def _key(inst: Instruction) -> Hashable:
    """Equal for instructions of one operation on operands of the same types."""
    return operation_key(inst) + (tuple(str(o.type) for o in inst.operands),)


# ---------------------------------------------------------------------------
# Rewriting


def _apply(fn: Function, g: Graph[Block], nest: _Nest, chosen: list[_Leaf], shape: _Shape) -> None:
    join = nest.root.block
    assert join is not None and isinstance(shape, _Node)
    member_of = {(id(leaf.phi), leaf.index): k for k, leaf in enumerate(chosen)}
    everyone = len(chosen) == len(nest.leaves)
    split = None if everyone else _split(fn, join)
    body = join if split is None else split[0]

    holes: dict[Hashable, Value] = {}  # one nest for the holes of equal values

    def hole(h: _Hole) -> Value:
        first = h.values[0]
        if all(_vkey(v) == _vkey(first) for v in h.values) and _available(g, first, join):
            return first
        key = tuple(_vkey(v) for v in h.values)
        if key not in holes:
            holes[key] = _build_nest(
                nest, member_of, lambda k: h.values[k], first.type, lambda: _unused(first.type)
            )
        return holes[key]

    values = {id(h): hole(h) for h in _holes(shape)}  # their phis first, then the formula
    result = _emit(shape, values, IRBuilder().at_start(body))
    old = _instructions(shape)
    if everyone:
        nest.root.replace_all_uses_with(result)
        for phi in nest.phis:
            phi.drop_operands()
            assert phi.block is not None
            phi.block.instructions.remove(phi)
            phi.block = None
    else:
        assert split is not None
        merged, rest = split
        flag = _build_nest(nest, member_of, lambda k: Constant(I1, 1), I1, lambda: Constant(I1, 0))
        join.append(CondBr(flag, merged, rest))
        merged.append(Br(rest))
        joined = Phi(nest.root.type, nest.root.name)
        nest.root.replace_all_uses_with(joined)
        joined.add_incoming(result, merged)
        joined.add_incoming(nest.root, join)
        rest.insert(0, joined)
        for leaf in chosen:
            leaf.phi.set_operand(leaf.index, _unused(nest.root.type))
    for inst in old:
        inst.erase()


def _split(fn: Function, join: Block) -> tuple[Block, Block]:
    """Move everything of ``join`` after its phis into a new block
    ``join.rest``; returns ``(join.merged, join.rest)`` (empty, unlinked)."""
    merged, rest = Block(f"{join.name}.merged"), Block(f"{join.name}.rest")
    index = fn.blocks.index(join)
    for k, block in enumerate((merged, rest), 1):
        block.function = fn
        fn.blocks.insert(index + k, block)
    body = join.instructions[len(join.phis) :]
    join.instructions = join.instructions[: len(join.phis)]
    for inst in body:
        inst.block = None
        rest.append(inst)
    for succ in rest.successors:
        for phi in succ.phis:
            phi.incoming_blocks = [rest if b is join else b for b in phi.incoming_blocks]
    return merged, rest


def _build_nest(
    nest: _Nest,
    member_of: dict[tuple[int, int], int],
    pick: Callable[[int], Value],
    type_: Type,
    other: Callable[[], Value],
) -> Value:
    """A nest of new phis shaped like ``nest``: merged arm k gives
    ``pick(k)``, the other arms ``other()``."""
    built: dict[int, Value] = {}
    nested = {id(p) for p in nest.phis[1:]}
    for phi in reversed(nest.phis):  # preorder reversed: nested phis first
        incoming: list[tuple[Value, Block]] = []
        for index, (value, pred) in enumerate(phi.incoming()):
            k = member_of.get((id(phi), index))
            v = pick(k) if k is not None else built[id(value)] if id(value) in nested else other()
            incoming.append((v, pred))
        first = incoming[0][0]
        if isinstance(first, Constant) and all(_vkey(v) == _vkey(first) for v, _ in incoming):
            built[id(phi)] = first
            continue
        new = Phi(type_)
        for v, pred in incoming:
            new.add_incoming(v, pred)
        assert phi.block is not None
        phi.block.insert(0, new)
        built[id(phi)] = new
    return built[id(nest.root)]


def _holes(shape: _Shape) -> list[_Hole]:
    if isinstance(shape, _Hole):
        return [shape]
    return [h for child in shape.children for h in _holes(child)]


def _emit(shape: _Shape, holes: dict[int, Value], at: IRBuilder) -> Value:
    if isinstance(shape, _Hole):
        return holes[id(shape)]
    ops = [_emit(c, holes, at) for c in shape.children]
    return at.insert(copy_with_operands(shape.template, ops))


def _instructions(shape: _Shape) -> list[Instruction]:
    """The arms' instructions the shape replaces, users before operands."""
    if isinstance(shape, _Hole):
        return []
    out = [m for m in shape.members if m is not None]
    for child in shape.children:
        out.extend(_instructions(child))
    return out


def _available(g: Graph[Block], v: Value, join: Block) -> bool:
    if not isinstance(v, Instruction):
        return True
    return v.block is not None and v.block is not join and g.dominates(v.block, join)


def _unused(type_: Type) -> Constant:
    """The value of an arm whose value is never used (module doc)."""
    return Constant(type_, 1.0 if isinstance(type_, FloatType) else 0)


def _run(state: PassState) -> int:
    """Merge until nothing merges (each round on the divergence of the last)."""
    merged = 0
    while merge_arms(state.fn, state.get(DivergenceInfo)):
        state.analyses.keep(())
        merged += 1
    return merged


PASS = Pass("merge-arms", _run, requires=(DivergenceInfo,), changed=did_any)
