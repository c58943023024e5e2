"""Generic control-flow graph analyses on plain successor maps.

``Graph(succs, entry)`` works on any hashable nodes (IR blocks, strings in
tests).  Every answer is computed lazily and cached:

  * ``rpo``                  reverse post-order of the nodes reachable from entry
  * ``idom`` / ``dominates`` dominator tree (Cooper, Harvey, Kennedy)
  * ``ipdom`` / ``post_dominates``  post-dominator tree; all nodes without
                             successors (and, for endless cycles, one node of
                             each cycle) get an edge to a virtual exit ``EXIT``
  * ``dominance_frontier`` / ``iterated_frontier``
  * ``control_dependents(b)`` blocks control dependent on b's terminator
                             (Ferrante et al.; seed 001 Section 2.3)
  * ``loops``                the natural loop forest (``LoopForest``)
  * ``is_reducible``         every retreating DFS edge goes to a dominator
  * ``block_index``          the compact block index of seed 001 Section 2.5
  * ``rewired_order``        a topological order of the head-rewired DAG of
                             seed 003 Definition 4.14 (used by divergence)

``cfg_of(fn)`` adapts an IR function (nodes are its blocks).

Example (tests build graphs like this from adjacency dicts)::

    entry -> a -> b -> a          Graph({"entry": ["a"], "a": ["b", "x"],
                  a -> x                 "b": ["a"], "x": []}, "entry")
    loops: header a, latch b, blocks {a, b}, exiting {a}, exits {x}
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final, Generic, TypeVar

from ..ir.values import Block, Function

N = TypeVar("N", bound=Hashable)


class VirtualExit(enum.Enum):
    """The single sink added for post-dominance (its one member is ``EXIT``)."""

    EXIT = "EXIT"

    def __repr__(self) -> str:
        return "EXIT"


EXIT: Final = VirtualExit.EXIT
"""The virtual exit node of post-dominator trees."""


@dataclass(eq=False)
class Loop(Generic[N]):
    """A natural loop (seed 001 Figure 2.2): identity-compared."""

    header: N
    latches: list[N] = field(default_factory=list[N])
    """Sources of the back edges to ``header``, in graph order."""
    blocks: list[N] = field(default_factory=list[N])
    """All nodes of the loop (header first, then in rpo), inner loops included."""
    block_set: set[N] = field(default_factory=set[N], repr=False)
    exiting: list[N] = field(default_factory=list[N])
    """Nodes in the loop with a successor outside it."""
    exits: list[N] = field(default_factory=list[N])
    """Nodes outside the loop with a predecessor inside it."""
    parent: Loop[N] | None = field(default=None, repr=False)
    children: list[Loop[N]] = field(default_factory=list["Loop[N]"], repr=False)
    depth: int = 1
    """1 for outermost loops."""

    def __contains__(self, node: object) -> bool:
        return node in self.block_set

    @property
    def latch(self) -> N | None:
        """The unique latch, or None when there are several."""
        return self.latches[0] if len(self.latches) == 1 else None

    def ancestors(self) -> list[Loop[N]]:
        """This loop and its parents, innermost first."""
        out: list[Loop[N]] = []
        loop: Loop[N] | None = self
        while loop is not None:
            out.append(loop)
            loop = loop.parent
        return out


@dataclass
class LoopForest(Generic[N]):
    """All natural loops of a graph."""

    loops: list[Loop[N]]
    """Every loop, parents before children."""
    innermost: dict[N, Loop[N]]
    """The innermost loop of each node that is in a loop."""

    @property
    def top_level(self) -> list[Loop[N]]:
        return [lp for lp in self.loops if lp.parent is None]

    def loop_of(self, node: N) -> Loop[N] | None:
        """Innermost loop holding ``node`` (None outside loops)."""
        return self.innermost.get(node)

    def loop_with_header(self, node: N) -> Loop[N] | None:
        lp = self.innermost.get(node)
        return lp if lp is not None and lp.header == node else None

    def depth(self, node: N) -> int:
        lp = self.innermost.get(node)
        return lp.depth if lp is not None else 0


class Graph(Generic[N]):
    """A directed graph with an entry node, given as successor lists."""

    def __init__(self, succs: Mapping[N, Sequence[N]], entry: N) -> None:
        self.entry: N = entry
        self.succs: dict[N, list[N]] = {}
        for n, ss in succs.items():
            self.succs[n] = _unique(ss)
            for s in ss:
                self.succs.setdefault(s, [])
        self.succs.setdefault(entry, [])
        self.nodes: list[N] = list(self.succs)
        """All nodes, in the order given."""

    # -- orders ----------------------------------------------------------------------------
    @cached_property
    def preds(self) -> dict[N, list[N]]:
        """Predecessors of every node (only edges from reachable nodes)."""
        out: dict[N, list[N]] = {n: [] for n in self.nodes}
        for n in self.rpo:
            for s in self.succs[n]:
                out[s].append(n)
        return out

    @cached_property
    def _dfs(self) -> tuple[list[N], set[tuple[N, N]]]:
        """Post-order of an iterative DFS from entry, and its retreating edges."""
        post: list[N] = []
        on_stack: set[N] = set()
        seen: set[N] = {self.entry}
        retreating: set[tuple[N, N]] = set()
        stack: list[tuple[N, int]] = [(self.entry, 0)]
        on_stack.add(self.entry)
        while stack:
            n, i = stack[-1]
            ss = self.succs[n]
            if i < len(ss):
                stack[-1] = (n, i + 1)
                s = ss[i]
                if s in on_stack:
                    retreating.add((n, s))
                elif s not in seen:
                    seen.add(s)
                    on_stack.add(s)
                    stack.append((s, 0))
            else:
                stack.pop()
                on_stack.discard(n)
                post.append(n)
        return post, retreating

    @cached_property
    def rpo(self) -> list[N]:
        """Reverse post-order of the nodes reachable from entry."""
        return list(reversed(self._dfs[0]))

    @cached_property
    def rpo_number(self) -> dict[N, int]:
        return {n: i for i, n in enumerate(self.rpo)}

    def reachable(self, node: N) -> bool:
        return node in self.rpo_number

    # -- dominance ---------------------------------------------------------------------------
    @cached_property
    def idom(self) -> dict[N, N | None]:
        """Immediate dominator of each reachable node (entry -> None)."""
        return _idoms(self.rpo, self.preds, self.entry)

    @cached_property
    def dom_children(self) -> dict[N, list[N]]:
        return _children(self.idom)

    @cached_property
    def _dom_intervals(self) -> dict[N, tuple[int, int]]:
        return _tree_intervals(self.entry, self.dom_children)

    def dominates(self, a: N, b: N) -> bool:
        """a dominates b (reflexive); False when either is unreachable."""
        iv = self._dom_intervals
        if a not in iv or b not in iv:
            return False
        return iv[a][0] <= iv[b][0] and iv[b][1] <= iv[a][1]

    def dominators(self, n: N) -> list[N]:
        """All dominators of n, n first, entry last."""
        out: list[N] = []
        cur: N | None = n
        while cur is not None:
            out.append(cur)
            cur = self.idom[cur]
        return out

    @cached_property
    def dominance_frontier(self) -> dict[N, set[N]]:
        """DF(n): nodes where n's dominance ends (Cooper et al.)."""
        df: dict[N, set[N]] = {n: set() for n in self.rpo}
        for n in self.rpo:
            ps = self.preds[n]
            if len(ps) < 2:
                continue
            for p in ps:
                runner: N | None = p
                while runner is not None and runner != self.idom[n]:
                    df[runner].add(n)
                    runner = self.idom[runner]
        return df

    def iterated_frontier(self, nodes: Iterable[N]) -> set[N]:
        """DF+ of a node set (where SSA would put phis for defs in ``nodes``)."""
        out: set[N] = set()
        work = [n for n in nodes if n in self.dominance_frontier]
        seen = set(work)
        while work:
            n = work.pop()
            for f in self.dominance_frontier[n]:
                if f not in out:
                    out.add(f)
                    if f not in seen:
                        seen.add(f)
                        work.append(f)
        return out

    # -- post-dominance ---------------------------------------------------------------------
    @cached_property
    def _exit_edges(self) -> list[N]:
        """Nodes given an edge to the virtual exit: sinks, then one node per
        endless cycle (the latest in rpo that cannot reach the exit yet)."""
        sinks = [n for n in self.rpo if not self.succs[n]]
        reaches = self._reverse_reach(sinks)
        for n in reversed(self.rpo):
            if n not in reaches:
                sinks.append(n)
                reaches |= self._reverse_reach([n])
        return sinks

    def _reverse_reach(self, starts: list[N]) -> set[N]:
        seen = set(starts)
        work = list(starts)
        while work:
            n = work.pop()
            for p in self.preds[n]:
                if p not in seen:
                    seen.add(p)
                    work.append(p)
        return seen

    @cached_property
    def _reverse(
        self,
    ) -> tuple[list[N | VirtualExit], dict[N | VirtualExit, list[N | VirtualExit]]]:
        """rpo of the reverse graph from EXIT and reverse-graph predecessors."""
        rsuccs: dict[N | VirtualExit, list[N | VirtualExit]] = {EXIT: list(self._exit_edges)}
        for n in self.rpo:
            rsuccs.setdefault(n, [])
            for s in self.succs[n]:
                rsuccs.setdefault(s, []).append(n)
        rev = Graph(rsuccs, EXIT)
        rpreds: dict[N | VirtualExit, list[N | VirtualExit]] = {n: [] for n in rev.rpo}
        for n in self.rpo:
            rpreds[n] = list(self.succs[n])
        for n in self._exit_edges:
            rpreds[n].append(EXIT)
        return rev.rpo, rpreds

    @cached_property
    def ipdom(self) -> dict[N | VirtualExit, N | VirtualExit | None]:
        """Immediate post-dominator of each reachable node (EXIT -> None)."""
        rpo, rpreds = self._reverse
        return _idoms(rpo, rpreds, EXIT)

    @cached_property
    def _pdom_intervals(self) -> dict[N | VirtualExit, tuple[int, int]]:
        return _tree_intervals(EXIT, _children(self.ipdom))

    def post_dominates(self, a: N | VirtualExit, b: N | VirtualExit) -> bool:
        """a post-dominates b (reflexive)."""
        iv = self._pdom_intervals
        if a not in iv or b not in iv:
            return False
        return iv[a][0] <= iv[b][0] and iv[b][1] <= iv[a][1]

    @cached_property
    def _control_dependents(self) -> dict[N, list[N]]:
        out: dict[N, list[N]] = {n: [] for n in self.rpo}
        for a in self.rpo:
            if len(self.succs[a]) < 2:
                continue
            stop = self.ipdom[a]
            deps: list[N] = []
            for b in self.succs[a]:
                runner: N | VirtualExit | None = b
                while runner is not None and runner != stop and runner is not EXIT:
                    if runner not in deps:
                        deps.append(runner)
                    runner = self.ipdom[runner]
            out[a] = deps
        return out

    def control_dependents(self, n: N) -> list[N]:
        """Nodes control dependent on an edge out of n (cdep_on of Section 2.3)."""
        return self._control_dependents.get(n, [])

    # -- loops --------------------------------------------------------------------------------
    @cached_property
    def back_edges(self) -> list[tuple[N, N]]:
        """Edges x -> h where h dominates x."""
        return [(x, h) for x in self.rpo for h in self.succs[x] if self.dominates(h, x)]

    @cached_property
    def is_reducible(self) -> bool:
        """Every retreating edge of a DFS is a back edge (target dominates source)."""
        return all(self.dominates(h, x) for x, h in self._dfs[1])

    @cached_property
    def irreducible_edges(self) -> list[tuple[N, N]]:
        """Retreating edges whose target does not dominate their source."""
        return [(x, h) for x, h in self._dfs[1] if not self.dominates(h, x)]

    @cached_property
    def loops(self) -> LoopForest[N]:
        """The natural loop forest (loops with one header are merged)."""
        return _loop_forest(self)

    # -- block orders -------------------------------------------------------------------------
    @cached_property
    def block_index(self) -> dict[N, int]:
        """Compact block index (seed 001 Section 2.5): a topological order
        ignoring back edges in which every loop is a contiguous interval with
        the header first (and a unique latch last).  Dominator subtrees are
        contiguous where the loops allow it (not always possible)."""
        order: list[N] = []
        self._order_level(None, order)
        return {n: i for i, n in enumerate(order)}

    @cached_property
    def block_order(self) -> list[N]:
        """Nodes sorted by ``block_index``."""
        return sorted(self.block_index, key=self.block_index.__getitem__)

    def _order_level(self, loop: Loop[N] | None, order: list[N]) -> None:
        """Topologically order one loop level, child loops contracted to their header."""
        forest = self.loops
        members = loop.blocks if loop is not None else self.rpo
        start = loop.header if loop is not None else self.entry
        depth = loop.depth if loop is not None else 0

        def rep(n: N) -> N | None:
            """The representative of n at this level (its child loop's header)."""
            lp = forest.innermost.get(n)
            if lp is None or lp.depth <= depth:
                return n if (loop is None or n in loop) else None
            while lp.depth > depth + 1:
                parent = lp.parent
                assert parent is not None  # a loop deeper than 1 has one
                lp = parent
            return lp.header if lp.parent is loop else None

        level_succs: dict[N, list[N]] = {}
        for n in members:
            r = rep(n)
            if r is None:
                continue
            level_succs.setdefault(r, [])
            for s in self.succs[n]:
                rs = rep(s)
                if rs is None or rs in (r, start):
                    continue  # leaves this level, stays in a child loop, or a back edge
                if rs not in level_succs[r]:
                    level_succs[r].append(rs)
        for r in _toposort(level_succs, start):
            child = forest.loop_with_header(r)
            if child is not None and child.depth == depth + 1:
                self._order_level(child, order)
            else:
                order.append(r)

    @cached_property
    def rewired_order(self) -> list[N]:
        """Topological order of the head-rewired DAG G* (seed 003 Def. 4.14):
        the block order with each header moved behind the last block of its
        loop (inner headers before outer ones)."""
        index = self.block_index
        key: dict[N, tuple[int, int, int]] = {n: (i, 0, 0) for n, i in index.items()}
        for lp in self.loops.loops:
            end = max(index[b] for b in lp.blocks)
            key[lp.header] = (end, 1, -lp.depth)
        return sorted(index, key=key.__getitem__)

    def rewired_succs(self, n: N) -> list[N]:
        """Successors in G*: a header's edges go to the exits of its loop."""
        lp = self.loops.loop_with_header(n)
        if lp is not None:
            return lp.exits
        return self.succs[n]


# ---------------------------------------------------------------------------
# helpers


def _unique(xs: Iterable[N]) -> list[N]:
    out: list[N] = []
    seen: set[N] = set()
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


K = TypeVar("K", bound=Hashable)


def _idoms(rpo: Sequence[K], preds: Mapping[K, Iterable[K]], entry: K) -> dict[K, K | None]:
    """Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm"."""
    number = {n: i for i, n in enumerate(rpo)}
    idom: dict[K, K] = {entry: entry}
    changed = True
    while changed:
        changed = False
        for n in rpo:
            if n == entry:
                continue
            new: K | None = None
            for p in preds[n]:
                if p not in idom:
                    continue
                new = p if new is None else _intersect(p, new, idom, number)
            if new is not None and idom.get(n) != new:
                idom[n] = new
                changed = True
    out: dict[K, K | None] = {**idom}
    out[entry] = None
    return out


def _intersect(a: K, b: K, idom: Mapping[K, K], number: Mapping[K, int]) -> K:
    while a != b:
        while number[a] > number[b]:
            a = idom[a]
        while number[b] > number[a]:
            b = idom[b]
    return a


def _children(idom: Mapping[K, K | None]) -> dict[K, list[K]]:
    out: dict[K, list[K]] = {n: [] for n in idom}
    for n, d in idom.items():
        if d is not None:
            out[d].append(n)
    return out


def _tree_intervals(root: K, children: Mapping[K, list[K]]) -> dict[K, tuple[int, int]]:
    """Pre/post numbers of a tree walk: a is an ancestor of b iff b's interval nests in a's."""
    out: dict[K, tuple[int, int]] = {}
    counter = 0
    stack: list[tuple[K, int]] = [(root, 0)]
    enter: dict[K, int] = {root: 0}
    while stack:
        n, i = stack[-1]
        kids = children.get(n, [])
        if i < len(kids):
            stack[-1] = (n, i + 1)
            counter += 1
            enter[kids[i]] = counter
            stack.append((kids[i], 0))
        else:
            stack.pop()
            counter += 1
            out[n] = (enter[n], counter)
    return out


def _toposort(succs: Mapping[N, Sequence[N]], start: N) -> list[N]:
    """Reverse post-order of a DAG from ``start`` (nodes not reached are appended).

    Successors are visited last-first, so that in the result the first
    successor of a branch (the "then" side) comes before the later ones, as
    in the source layout."""
    post: list[N] = []
    seen: set[N] = set()
    for root in [start] + [n for n in succs if n != start]:
        if root in seen:
            continue
        seen.add(root)
        stack: list[tuple[N, int]] = [(root, 0)]
        while stack:
            n, i = stack[-1]
            ss = succs.get(n, [])
            if i < len(ss):
                stack[-1] = (n, i + 1)
                nxt = ss[len(ss) - 1 - i]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, 0))
            else:
                stack.pop()
                post.append(n)
    return list(reversed(post))


def _loop_forest(g: Graph[N]) -> LoopForest[N]:
    """Natural loops of the back edges, nested by inclusion."""
    latches: dict[N, list[N]] = {}
    for x, h in g.back_edges:
        latches.setdefault(h, []).append(x)
    loops: list[Loop[N]] = []
    for h in g.rpo:
        if h not in latches:
            continue
        body: set[N] = {h}
        work = [x for x in latches[h] if x != h]
        body.update(work)
        while work:
            n = work.pop()
            for p in g.preds[n]:
                if p not in body:
                    body.add(p)
                    work.append(p)
        number = g.rpo_number
        blocks = sorted(body, key=number.__getitem__)
        loops.append(Loop(header=h, latches=list(latches[h]), blocks=blocks, block_set=body))
    # Nesting: the parent of a loop is the smallest other loop containing its header.
    loops.sort(key=lambda lp: -len(lp.blocks))
    innermost: dict[N, Loop[N]] = {}
    for lp in loops:  # larger loops first, so inner loops overwrite
        for n in lp.blocks:
            outer = innermost.get(n)
            if n == lp.header and outer is not None and lp.parent is None:
                lp.parent = outer
            innermost[n] = lp
    ordered: list[Loop[N]] = []
    for lp in loops:
        if lp.parent is not None:
            lp.parent.children.append(lp)
    for lp in loops:
        if lp.parent is None:
            _collect_preorder(lp, 1, ordered)
    for lp in ordered:
        exits: list[N] = []
        exiting: list[N] = []
        for n in lp.blocks:
            for s in g.succs[n]:
                if s not in lp.block_set:
                    if n not in exiting:
                        exiting.append(n)
                    if s not in exits:
                        exits.append(s)
        lp.exits, lp.exiting = exits, exiting
    return LoopForest(loops=ordered, innermost=innermost)


def _collect_preorder(lp: Loop[N], depth: int, out: list[Loop[N]]) -> None:
    lp.depth = depth
    out.append(lp)
    for child in lp.children:
        _collect_preorder(child, depth + 1, out)


# ---------------------------------------------------------------------------
# IR adapter


def cfg_of(fn: Function) -> Graph[Block]:
    """The CFG of an IR function: nodes are its blocks, entry its first block."""
    return Graph({b: b.successors for b in fn.blocks}, fn.entry)
