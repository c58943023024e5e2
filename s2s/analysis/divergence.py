"""Divergence analysis: vector shapes of all values, divergent branches and loops.

Spec: seed 001 Chapter 6 (Listings 1-3: worklist to a fixed point over the
stride-alignment lattice of Chapter 10), Chapter 7 (sync and temporal
dependences), seed 003 Section 4.6 + Section 5 (join points as ends of
disjoint paths in the head-rewired DAG, Algorithm 1, linear time), Section
6.6 of seed 001 (uniform stack objects).

What is computed (a fixed point, all sets only grow):

  * ``shapes``: a VectorShape per argument and value-producing instruction,
    starting at bottom; instruction transformers are in ``transfer.py``.
  * divergent branches: ``condbr``/``switch`` with a non-uniform condition
    and at least two distinct successors.
  * for each divergent branch s, its join points: blocks where two node-
    disjoint paths from two successors of s meet in the head-rewired DAG G*
    (every loop header's edges replaced by edges to its loop's exits).  The
    labelling of Algorithm 1 (seed 003) gives every block reachable from
    succ(s) the earliest node common to all its paths; a block reached with
    two different labels is a join.  We walk G* in topological order with a
    heap and stop as soon as a single block is left on the frontier, so the
    cost is proportional to the divergent region, not to the function.
  * temporal divergence: an exit e of a loop L containing s is a divergent
    exit when e is a join of s and L's header is reached (some lanes stay in
    L while others leave through e, seed 003 Lemma 4.19).  Loops with a
    divergent exit are divergent; the other exits stay uniform, which is the
    precision of "partially divergent nodes" (seed 001 Section 7.3).
  * phis in join blocks become varying ([DA-PHI-D]) unless all incoming
    values are one value that is not defined inside a loop left divergently
    through that block (then every lane sees that same value); undef inputs
    are ignored (seed 004 "reaching undefs"), and values invariant in the
    loop they leave are not tainted by leaking iterations (seed 004).  Values
    used outside a divergent loop without an LCSSA phi are made varying
    (sound without LCSSA; run ``transform.canonicalize`` first for precision).
  * stack objects (Alloca SSA, Section 6.6): an alloca is varying when a
    store through it has a non-uniform value, address or mask ([DA-STORE-D]),
    when its address escapes (call, stored, compared, cast to int), when a
    join of its memory state (iterated dominance frontier of the stores and
    the alloca) is a join point of a divergent branch ([DA-JOIN-D]), or when
    it is written in a divergent loop and lives beyond it.

Worked example (the diamond of seed 001 Figure 7.1a plus a loop)::

      A: condbr %v, B, C          %v varying -> A divergent
      B: br D                     labels: B->B, C->C, D gets B and C -> join
      C: br D                     phi in D varying
      D: %x = phi [0, B], [1, C]

Irreducible control flow is rejected with ``Unsupported`` (the head-rewired
DAG only exists for reducible CFGs); as the front end rejects ``goto``, that
is an internal error.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..diagnostics import internal_error
from ..ir.values import (
    Alloca,
    Argument,
    BinOp,
    Block,
    Call,
    Cast,
    Cmp,
    CondBr,
    FieldAddr,
    Function,
    Gep,
    Instruction,
    Load,
    Phi,
    Select,
    Store,
    Switch,
    Terminator,
    Undef,
    UnOp,
    Value,
)
from .cfg import Graph, Loop, LoopForest, VirtualExit, cfg_of
from .shapes import VectorShape
from .transfer import BOT, UNI, constant_shape, fit, same_value, transfer

VAR = VectorShape.varying()


@dataclass(frozen=True)
class DivergenceInfo:
    """The result of ``compute_divergence``; it never changes the IR."""

    fn: Function
    cfg: Graph[Block]
    shapes: Mapping[Value, VectorShape]
    """Shape of every argument and value-producing instruction."""
    divergent_branches: frozenset[Block]
    """Blocks whose terminator is a divergent branch."""
    branch_joins: Mapping[Block, tuple[Block, ...]]
    """Join points of each divergent branch (block index order)."""
    sync_blocks: frozenset[Block]
    """All join points of all divergent branches (sdep* of Listing 1)."""
    loop_divergent_exits: Mapping[Block, tuple[Block, ...]]
    """Loop header -> its divergent (temporal) exits; only divergent loops."""
    varying_activation: frozenset[Block]
    """Blocks that may run with only some lanes active (cdep* / adep*)."""
    varying_allocas: frozenset[Alloca]
    """Stack objects that need one copy per lane."""
    width: int | None = None

    # -- values ------------------------------------------------------------------------
    def shape_of(self, value: Value) -> VectorShape:
        """The vector shape of any value (constants and undef are uniform)."""
        shape = self.shapes.get(value)
        if shape is not None:
            return shape
        if isinstance(value, (Instruction, Argument)):
            return BOT
        return fit(constant_shape(value), value.type)

    def is_uniform(self, value: Value) -> bool:
        return self.shape_of(value).is_uniform

    # -- control --------------------------------------------------------------------------
    def is_divergent_branch(self, block: Block) -> bool:
        """True when the terminator of ``block`` is a divergent branch."""
        return block in self.divergent_branches

    def join_points(self, block: Block | None = None) -> list[Block]:
        """Join points of the divergent branch ending ``block`` ([] if uniform);
        without argument: all join points of all divergent branches."""
        if block is None:
            index = self.cfg.block_index
            return sorted(self.sync_blocks, key=index.__getitem__)
        return list(self.branch_joins.get(block, ()))

    def is_join_point(self, block: Block) -> bool:
        return block in self.sync_blocks

    @property
    def loops(self) -> LoopForest[Block]:
        return self.cfg.loops

    @property
    def divergent_loops(self) -> list[Block]:
        """Headers of the loops that lanes may leave in different iterations."""
        return [lp.header for lp in self.loops.loops if lp.header in self.loop_divergent_exits]

    def loop_is_divergent(self, header: Block) -> bool:
        return header in self.loop_divergent_exits

    def divergent_exits(self, header: Block) -> list[Block]:
        """The exits of the loop headed by ``header`` that lanes reach in different iterations."""
        return list(self.loop_divergent_exits.get(header, ()))

    def loop_exit_is_divergent(self, header: Block, exit_block: Block) -> bool:
        return exit_block in self.loop_divergent_exits.get(header, ())

    def has_varying_activation(self, block: Block) -> bool:
        """Some lanes may be inactive in ``block`` (it depends on a divergent branch)."""
        return block in self.varying_activation

    # -- stack objects ---------------------------------------------------------------------
    def alloca_is_uniform(self, alloca: Alloca) -> bool:
        """One shared copy of the object serves all lanes (Section 6.6)."""
        return alloca not in self.varying_allocas


CallShape = Callable[[Call, list[VectorShape]], VectorShape | None]


def compute_divergence(
    fn: Function,
    arg_shapes: Mapping[Argument, VectorShape],
    *,
    width: int | None = None,
    call_shape: CallShape | None = None,
) -> DivergenceInfo:
    """Run the divergence analysis on ``fn``.

    ``arg_shapes`` gives the shape of each argument (loop regions: the
    induction variable strided(step), linear variables strided, live-ins
    uniform); arguments without a given shape are varying.  ``width`` (the
    vector width W), when known, lets compares of differently strided values
    be proven uniform (T6 in transfer.py).  ``call_shape(call, operand
    shapes)`` may supply the result shape of known calls (e.g. a declare simd
    function with a ``linear`` return); returning None falls back to T9."""
    g = cfg_of(fn)
    if not g.is_reducible:
        raise internal_error(
            "irreducible control flow reached the divergence analysis "
            "(a jump enters a loop without passing its header)"
        )
    solver = DivergenceSolver(fn, g, arg_shapes, width)
    solver.call_shape = call_shape
    solver.run()
    return solver.result()


# ---------------------------------------------------------------------------
# the fixed point


class DivergenceSolver:
    def __init__(
        self,
        fn: Function,
        g: Graph[Block],
        arg_shapes: Mapping[Argument, VectorShape],
        width: int | None,
    ) -> None:
        self.fn, self.cfg, self.width = fn, g, width
        self.shapes: dict[Value, VectorShape] = {}
        for a in fn.args:
            self.shapes[a] = fit(arg_shapes.get(a, VAR), a.type)
        self.queue: deque[Instruction] = deque()
        self.queued: set[Instruction] = set()
        self.divergent: set[Block] = set()
        self.branch_joins: dict[Block, list[Block]] = {}
        self.sync: set[Block] = set()
        self.div_exits: dict[Block, list[Block]] = {}
        self.forced: set[Instruction] = set()
        self.varying_allocas: set[Alloca] = set()
        self.position = {b: i for i, b in enumerate(g.rewired_order)}
        self.order = g.rewired_order
        self._rewired_ipdom: dict[int | VirtualExit, int | VirtualExit | None] | None = None
        self.rewired_succ_positions = [
            [self.position[q] for q in g.rewired_succs(b)] for b in self.order
        ]
        self._base_cache: dict[Value, frozenset[Alloca]] = {}
        self._invariant: dict[tuple[int, int], bool] = {}
        self.call_shape: CallShape | None = None
        self.allocas = _AllocaFacts.collect(fn, g)

    # -- Listing 1 --------------------------------------------------------------------------
    def run(self) -> None:
        for b in self.cfg.block_order:
            for inst in b.instructions:
                self.enqueue(inst)
        for a, facts in self.allocas.items():
            if facts.escapes:
                self.mark_alloca_varying(a)
        while True:
            self.drain()
            if not self.check_alloca_joins():
                break

    def drain(self) -> None:
        while self.queue:
            inst = self.queue.popleft()
            self.queued.discard(inst)
            self.visit(inst)

    def enqueue(self, inst: Instruction) -> None:
        if inst not in self.queued and inst.block is not None and self.cfg.reachable(inst.block):
            self.queued.add(inst)
            self.queue.append(inst)

    def shape(self, v: Value) -> VectorShape:
        s = self.shapes.get(v)
        if s is not None:
            return s
        if isinstance(v, (Instruction, Argument)):
            return BOT
        return fit(constant_shape(v), v.type)

    def update(self, inst: Instruction, new: VectorShape) -> None:
        """Listing 2: join into the current shape, enqueue users on change."""
        old = self.shapes.get(inst, BOT)
        joined = old.join(new)
        if joined == old and inst in self.shapes:
            return
        self.shapes[inst] = joined
        for user in inst.users:
            self.enqueue(user)

    def visit(self, inst: Instruction) -> None:
        if isinstance(inst, Store):
            self.visit_store(inst)
            return
        if isinstance(inst, Terminator):
            self.visit_terminator(inst)
            return
        if isinstance(inst, Phi):
            new = self.phi_shape(inst)
        else:
            new = transfer(inst, self.shape, self.width)
            if isinstance(inst, Call) and self.call_shape is not None and not new.is_bottom:
                known = self.call_shape(inst, [self.shape(o) for o in inst.operands])
                if known is not None:
                    new = known
        if isinstance(inst, Alloca) and inst in self.varying_allocas:
            new = VectorShape.varying(new.lane_alignment() or 1)
        if inst in self.forced and not new.is_bottom:
            new = VectorShape.varying(new.lane_alignment() or 1)
        self.update(inst, fit(new, inst.type))

    # -- phis (6.5.1) -------------------------------------------------------------------------
    def phi_shape(self, phi: Phi) -> VectorShape:
        incoming = [
            (v, b) for v, b in phi.incoming() if not isinstance(v, Undef) and self.cfg.reachable(b)
        ]
        if not incoming:
            return UNI
        shapes = [self.shape(v) for v, _ in incoming]
        block = phi.block
        assert block is not None
        if block not in self.sync:
            result = BOT
            for s in shapes:
                result = result.join(s)
            return result
        first = incoming[0][0]
        same = all(same_value(v, first) for v, _ in incoming)
        if same and not self.left_divergently(first, block):
            return shapes[0]
        known = [s for s in shapes if not s.is_bottom]
        if not known:
            return BOT
        align = 0
        for s in known:
            align = math.gcd(align, s.lane_alignment())
        return VectorShape.varying(align or 1)

    def left_divergently(self, v: Value, exit_block: Block) -> bool:
        """v is defined in a loop that lanes leave through ``exit_block`` in
        different iterations (and v changes between iterations)."""
        if not isinstance(v, Instruction) or v.block is None:
            return False
        lp = self.cfg.loops.loop_of(v.block)
        while lp is not None:
            if exit_block in self.div_exits.get(lp.header, ()) and not self.invariant(v, lp):
                return True
            lp = lp.parent
        return False

    def invariant(self, v: Value, lp: Loop[Block]) -> bool:
        """v computes the same value in every iteration of lp (seed 004: a
        loop-invariant def cannot taint a use through leaking iterations)."""
        key = (id(v), id(lp))
        known = self._invariant.get(key)
        if known is not None:
            return known
        stack = [v]
        while stack:
            x = stack[-1]
            kx = (id(x), id(lp))
            if kx in self._invariant:
                stack.pop()
                continue
            if not isinstance(x, Instruction) or x.block is None or x.block not in lp:
                self._invariant[kx] = True
                stack.pop()
                continue
            if not _pure_op(x):
                self._invariant[kx] = False
                stack.pop()
                continue
            todo = [o for o in x.operands if (id(o), id(lp)) not in self._invariant]
            if todo:
                stack.extend(todo)
                continue
            self._invariant[kx] = all(self._invariant[(id(o), id(lp))] for o in x.operands)
            stack.pop()
        return self._invariant[key]

    # -- memory (6.5.2, 6.6) -----------------------------------------------------------------
    def visit_store(self, store: Store) -> None:
        value, ptr = store.operands[0], store.operands[1]
        shapes = [self.shape(value), self.shape(ptr)]
        if store.mask is not None:
            shapes.append(self.shape(store.mask))
        if any(not s.is_bottom and not s.is_uniform for s in shapes):
            for a in self.base_allocas(ptr):
                self.mark_alloca_varying(a)

    def mark_alloca_varying(self, a: Alloca) -> None:
        if a in self.varying_allocas or a.interleaved:
            return  # an interleaved object is shared: each lane has its own elements
        self.varying_allocas.add(a)
        self.enqueue(a)

    def base_allocas(self, ptr: Value) -> frozenset[Alloca]:
        """aliased_allocas: the allocas ``ptr`` may point into."""
        cached = self._base_cache.get(ptr)
        if cached is not None:
            return cached
        found: set[Alloca] = set()
        seen: set[int] = set()
        work = [ptr]
        while work:
            v = work.pop()
            if id(v) in seen:
                continue
            seen.add(id(v))
            if isinstance(v, Alloca):
                found.add(v)
            elif isinstance(v, (Gep, FieldAddr)) or (
                isinstance(v, Cast) and v.operands[0].type.is_ptr()
            ):
                work.append(v.operands[0])
            elif isinstance(v, Phi):
                work.extend(v.operands)
            elif isinstance(v, Select):
                work.extend(v.operands[1:])
        result = frozenset(found)
        self._base_cache[ptr] = result
        return result

    def check_alloca_joins(self) -> bool:
        """[DA-JOIN-D] and divergent loops; True when an alloca became varying."""
        changed = False
        divergent_loops = [lp for lp in self.cfg.loops.loops if lp.header in self.div_exits]
        for a, facts in self.allocas.items():
            if a in self.varying_allocas:
                continue
            written_in_divergent_loop = any(facts.outlives_writes_in(lp) for lp in divergent_loops)
            if facts.joins & self.sync or written_in_divergent_loop:
                self.mark_alloca_varying(a)
                changed = True
        return changed

    # -- control divergence (Listing 3, Chapter 7) -------------------------------------------
    def visit_terminator(self, term: Terminator) -> None:
        if not isinstance(term, (CondBr, Switch)):
            return
        block = term.block
        assert block is not None
        cond = self.shape(term.operands[0])
        if cond.is_bottom or cond.is_uniform or block in self.divergent:
            return
        if len(set(map(id, term.successors))) < 2:
            return
        self.divergent.add(block)
        self.propagate_control_divergence(block)

    def propagate_control_divergence(self, s: Block) -> None:
        joins, reached = self.disjoint_path_joins(s)
        index = self.cfg.block_index
        self.branch_joins[s] = sorted(joins, key=index.__getitem__)
        self.sync |= joins
        lp = self.cfg.loops.loop_of(s)
        while lp is not None:
            if lp.header in reached:
                exits = [e for e in lp.exits if e in joins]
                if exits:
                    self.add_divergent_exits(lp, exits)
            lp = lp.parent
        for b in joins:
            for phi in b.phis:
                self.enqueue(phi)

    def add_divergent_exits(self, lp: Loop[Block], exits: list[Block]) -> None:
        known = self.div_exits.get(lp.header)
        newly_divergent = known is None
        known = known if known is not None else []
        for e in exits:
            if e not in known:
                known.append(e)
        self.div_exits[lp.header] = known
        if newly_divergent:
            self.force_live_outs(lp)

    def force_live_outs(self, lp: Loop[Block]) -> None:
        """Temporal divergence of values used outside ``lp`` without an LCSSA phi."""
        for b in lp.blocks:
            for inst in b.instructions:
                if _used_outside(inst, lp) and not self.invariant(inst, lp):
                    self.forced.add(inst)
                    self.enqueue(inst)

    def disjoint_path_joins(self, s: Block) -> tuple[set[Block], set[Block]]:
        """Algorithm 1 of seed 003 on the head-rewired DAG from succ(s).

        Returns the join blocks and the blocks labelled before the walk
        stopped.  Blocks are handled as their positions in the topological
        order of G* (plain ints, for speed).  The walk stops early when no
        new join can appear: (a) every block left on the frontier carries
        the same label, so only that label flows on; (b) for a branch outside
        all loops, the frontier is the branch's post-dominator X in G* plus
        blocks of one label L: every path from them meets in X, which is a
        join iff its label differs from L (this keeps else-if cascades from
        walking the whole cascade once per branch)."""
        label: dict[int, int] = {}
        pending: dict[int, int] = {}  # label -> number of frontier blocks carrying it
        joins: list[int] = []
        heap: list[int] = []
        succs = self.rewired_succ_positions
        sink = self.rewired_ipdom(s) if self.cfg.loops.loop_of(s) is None else None

        def relabel(q: int, new: int) -> None:
            old = label[q]
            pending[old] -= 1
            if not pending[old]:
                del pending[old]
            label[q] = new
            pending[new] = pending.get(new, 0) + 1

        for q in s.successors:
            pq = self.position[q]
            if pq not in label:
                label[pq] = pq
                pending[pq] = pending.get(pq, 0) + 1
                heapq.heappush(heap, pq)
        while heap:
            p = heapq.heappop(heap)
            d = label[p]
            pending[d] -= 1
            if not pending[d]:
                del pending[d]
            if not pending or (len(pending) == 1 and d in pending):
                break  # (a)
            if sink is not None and sink != p and sink in label and sink >= p:
                others = dict(pending)
                ls = label[sink]
                others[ls] -= 1
                if not others[ls]:
                    del others[ls]
                rest = set(others) | {d}
                if len(rest) == 1:  # (b)
                    if ls not in rest:
                        joins.append(sink)
                        label[sink] = sink
                    break
            for q in succs[p]:
                old = label.get(q)
                if old is None:
                    label[q] = d
                    pending[d] = pending.get(d, 0) + 1
                    heapq.heappush(heap, q)
                elif old != d:
                    joins.append(q)
                    relabel(q, q)
        order = self.order
        return {order[j] for j in joins}, {order[b] for b in label}

    def rewired_ipdom(self, s: Block) -> int | None:
        """Position of the immediate post-dominator of s in G* (None: the exit)."""
        if self._rewired_ipdom is None:
            n = len(self.order)
            root = -1
            graph = {root: list(range(n))}
            for k, ss in enumerate(self.rewired_succ_positions):
                graph[k] = ss
            self._rewired_ipdom = Graph(graph, root).ipdom
        d = self._rewired_ipdom.get(self.position[s])
        return d if isinstance(d, int) and d >= 0 else None

    # -- result ----------------------------------------------------------------------------------
    def varying_activation(self) -> set[Block]:
        out: set[Block] = set()
        work = list(self.divergent)
        done: set[Block] = set()
        while work:
            b = work.pop()
            if b in done:
                continue
            done.add(b)
            for dep in self.cfg.control_dependents(b):
                if dep not in out:
                    out.add(dep)
                    if len(dep.successors) > 1:
                        work.append(dep)
        return out

    def result(self) -> DivergenceInfo:
        return DivergenceInfo(
            fn=self.fn,
            cfg=self.cfg,
            shapes=dict(self.shapes),
            divergent_branches=frozenset(self.divergent),
            branch_joins={b: tuple(js) for b, js in self.branch_joins.items()},
            sync_blocks=frozenset(self.sync),
            loop_divergent_exits={h: tuple(es) for h, es in self.div_exits.items()},
            varying_activation=frozenset(self.varying_activation()),
            varying_allocas=frozenset(self.varying_allocas),
            width=self.width,
        )


def _pure_op(inst: Instruction) -> bool:
    """Operations whose result depends on their operands only."""
    if isinstance(inst, Call):
        return inst.pure
    return isinstance(inst, (BinOp, UnOp, Cmp, Cast, Select, Gep, FieldAddr))


def _used_outside(inst: Instruction, lp: Loop[Block]) -> bool:
    """A use of inst outside lp that is not an LCSSA phi operand coming from inside lp."""
    for user in inst.users:
        ub = user.block
        if ub is None or ub in lp:
            continue
        if isinstance(user, Phi):
            if any(v is inst and b not in lp for v, b in user.incoming()):
                return True
            continue
        return True
    return False


# ---------------------------------------------------------------------------
# static facts about stack objects (Alloca SSA, Section 6.6)


@dataclass
class _AllocaFacts:
    alloca: Alloca
    escapes: bool
    """The address leaves the load/store/address-arithmetic world."""
    store_blocks: set[Block]
    use_blocks: set[Block]
    """Blocks of every load, store and address computation of the object."""
    joins: set[Block]
    """Where memory states of the object join: DF+(stores + alloca)."""

    def outlives_writes_in(self, lp: Loop[Block]) -> bool:
        """Written inside lp and alive outside it."""
        if not any(b in lp for b in self.store_blocks):
            return False
        block = self.alloca.block
        return block not in lp or any(b not in lp for b in self.use_blocks)

    @staticmethod
    def collect(fn: Function, g: Graph[Block]) -> dict[Alloca, _AllocaFacts]:
        out: dict[Alloca, _AllocaFacts] = {}
        for inst in fn.instructions():
            if (
                isinstance(inst, Alloca)
                and inst.block is not None
                and g.reachable(inst.block)
                and not inst.interleaved
            ):  # shared by construction: nothing to find out
                out[inst] = _AllocaFacts._of(inst, g)
        return out

    @staticmethod
    def _of(a: Alloca, g: Graph[Block]) -> _AllocaFacts:
        escapes = False
        stores: set[Block] = set()
        uses: set[Block] = set()
        derived: set[Value] = {a}
        work: list[Value] = [a]
        while work:
            v = work.pop()
            for user in v.users:
                block = user.block
                if block is not None:
                    uses.add(block)
                if isinstance(user, Load) and user.operands[0] is v:
                    continue
                if isinstance(user, Cmp):
                    continue  # comparing addresses reads nothing
                if isinstance(user, Store) and user.operands[1] is v and user.operands[0] is not v:
                    if block is not None:
                        stores.add(block)
                    continue
                pointer_op = isinstance(user, (Gep, FieldAddr, Phi, Select)) or (
                    isinstance(user, Cast) and user.type.is_ptr()
                )
                if pointer_op and not (isinstance(user, (Gep, Select)) and _only_as_index(user, v)):
                    if user not in derived:
                        derived.add(user)
                        work.append(user)
                    continue
                escapes = True
        assert a.block is not None  # the alloca is one of the function's instructions
        joins = g.iterated_frontier(list(stores) + [a.block])
        return _AllocaFacts(a, escapes, stores, uses, joins)


def _only_as_index(user: Instruction, v: Value) -> bool:
    """v is used by a gep as the index or by a select as the condition only."""
    if isinstance(user, Gep):
        return user.operands[0] is not v
    return user.operands[1] is not v and user.operands[2] is not v


def uniform_count(info: DivergenceInfo, values: Iterable[Value] | None = None) -> int:
    """How many instructions (or of ``values``) the analysis proves uniform."""
    vals = (
        values
        if values is not None
        else [i for i in info.fn.instructions() if i.type.__class__.__name__ != "VoidType"]
    )
    return sum(1 for v in vals if info.shape_of(v).is_uniform)
