"""Partial control-flow linearization: remove every divergent branch, keep the uniform ones.

Spec: seed 001 Chapter 8 (Listing 8; loops 8.3; phi nodes 8.4).  The input
has only uniform loops (run transform.divergent_loops first).  Blocks are
visited in the compact block index (a topological order ignoring back edges
in which every loop is contiguous, its latch last).  Each block gets new
successors so that the original successors of a divergent branch all end up
post-dominating it, tracked by the *deferral relation* D (Listing 8):

    T = {t | (b, t) in D}
    uniform branch:   each successor s   -> next = min(T + {s}),  D += (next, rest)
    divergent branch: one successor      -> next = min(T + succ), D += (next, rest)

    A: condbr %div, B, C        A -> B        (D: B -> C)
    B: br J               ==>   B -> C        (min of {C} and {J}; D: C -> J)
    C: br J                     C -> J
    J: %x = phi [1, B], [2, C]  J: %x = select %e.B.J, 1, 2

No block is added and uniform branches stay (they may get new targets).
Where a block deferred past a kept uniform join no longer has its values'
definitions dominating it, those uses read them through SSA variables
(ssa_repair.py; the lanes coming the other way are inactive there).
Back edges are kept as they are: a uniform loop is left by all lanes at once,
so the deferrals of its latch point out of the loop and the exits carry them
on (Section 8.3).  The data flow then follows the new CFG (predicates.py):
block and edge predicates become ``i1`` IR values, phis of blocks whose
predecessors changed become selects on edge predicates (8.4), and memory
operations, calls and integer divisions of blocks that may run with some lanes
inactive carry their block's predicate as their mask.

Requires canonical, uniform loops and the divergence analysis of the input;
afterwards no conditional branch is divergent (checked by the verifier with
a fresh analysis).  Every analysis of the function is invalid afterwards.
"""

from __future__ import annotations

from ..analysis.cfg import Graph, cfg_of
from ..analysis.divergence import DivergenceInfo
from ..ir.values import Block, Br, CondBr, Function, Ret, Switch, Terminator
from .passes import Pass, PassState, did_any
from .predicates import OriginalEdges, apply_predicates
from .ssa_repair import DominanceRepair


def linearize(fn: Function, div: DivergenceInfo) -> int:
    """Partially linearize ``fn`` (see the module docstring); returns the
    number of divergent branches removed."""
    g = cfg_of(fn)
    divergent = [b for b in g.block_order if div.is_divergent_branch(b)]
    if not divergent:
        return 0
    _check_uniform_loops(g, div)
    edges = OriginalEdges.of(fn, g, div)
    targets = new_successors(g, set(divergent))
    for block, succs in targets.items():
        _retarget(block, succs)
    repair = DominanceRepair(fn)
    repair.repair_all()
    apply_predicates(fn, edges, repair.at_end, repair.g.dominates)
    # lay the blocks out in the new order: definitions before their uses,
    # and a straight chain where the branches were removed
    fn.blocks = list(cfg_of(fn).block_order)
    return len(divergent)


def _check_uniform_loops(g: Graph[Block], div: DivergenceInfo) -> None:
    for lp in g.loops.loops:
        if div.loop_is_divergent(lp.header):
            raise AssertionError(
                f"linearize: loop '{lp.header.name}' is divergent "
                "(run the divergent loop transform first)"
            )


def new_successors(g: Graph[Block], divergent: set[Block]) -> dict[Block, dict[Block, Block]]:
    """Listing 8: for every block, old successor -> new successor (a divergent
    branch maps all its successors to the one it keeps)."""
    index = g.block_index
    back = set(g.back_edges)
    deferred: dict[Block, set[Block]] = {}
    result: dict[Block, dict[Block, Block]] = {}
    for b in g.block_order:
        pending = deferred.pop(b, set())
        succs = g.succs[b]
        mapping: dict[Block, Block] = {}
        if b in divergent:
            chosen = min(pending | set(succs), key=index.__getitem__)
            _defer(deferred, chosen, (pending | set(succs)) - {chosen})
            mapping = {s: chosen for s in succs}
        else:
            for s in succs:
                if (b, s) in back:
                    mapping[s] = s  # back edges stay (Section 8.3)
                    continue
                chosen = min(pending | {s}, key=index.__getitem__)
                _defer(deferred, chosen, (pending | {s}) - {chosen})
                mapping[s] = chosen
            if not succs and pending:
                raise AssertionError(f"linearize: deferred blocks after the exit '{b.name}'")
        result[b] = mapping
    return result


def _defer(deferred: dict[Block, set[Block]], at: Block, targets: set[Block]) -> None:
    if targets:
        deferred.setdefault(at, set()).update(targets)


def _retarget(block: Block, mapping: dict[Block, Block]) -> None:
    """Rebuild the terminator of ``block`` with the new successors."""
    term = block.terminator
    assert term is not None
    new: Terminator | None = None
    targets = set(mapping.values())
    if isinstance(term, Ret) or all(mapping[s] is s for s in mapping):
        return
    if len(targets) == 1:
        new = Br(targets.pop())
    elif isinstance(term, CondBr):
        new = CondBr(term.operands[0], mapping[term.if_true], mapping[term.if_false])
    elif isinstance(term, Switch):
        new = Switch(
            term.operands[0], mapping[term.default], [(k, mapping[b]) for k, b in term.cases]
        )
    elif isinstance(term, Br):
        new = Br(mapping[term.target])
    assert new is not None, f"cannot retarget {term.opcode}"
    term.drop_operands()
    block.instructions[-1] = new
    new.block = block


def _run(state: PassState) -> int:
    return linearize(state.fn, state.get(DivergenceInfo))


PASS = Pass("linearize", _run, requires=(DivergenceInfo,), changed=did_any)
