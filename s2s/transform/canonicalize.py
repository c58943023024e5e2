"""Loop canonicalization: preheaders, single latches, dedicated exits, LCSSA.

Seed 001 Section 2.4 asks for these loop shapes before divergence analysis,
the divergent loop transform and linearization.  After ``canonicalize(fn)``:

  1. every block is reachable from the entry (unreachable blocks are deleted);
  2. the entry block is not a loop header (a fresh entry is added if needed);
  3. every loop has a preheader: the header's only predecessor outside the
     loop, whose only successor is the header;
  4. every loop has exactly one latch (one back edge);
  5. every exit block of a loop has exactly one predecessor, which is in the
     loop, so exiting edges and exit blocks correspond one to one (dedicated
     exits, Section 2.4);
  6. loop-closed SSA: a value defined in a loop and used outside it is used
     only through single-entry phis in the loop's exit blocks; uses further
     away get the phis that SSA reconstruction needs (Braun et al.).

The transform declines irreducible control (multi-entry cycles, e.g. gotos
into a loop) with ``Unsupported``, an internal error since the front end
rejects ``goto``; nothing is changed in that case.  It
changes the CFG, so every analysis of ``fn`` computed before is invalid.

Example (guarantees 3-5)::

    entry -> h        h -> b, x        b -> h, x       (x: two preds, b also exits)
    =>  entry -> h.preheader -> h;  h -> b, h.exit;  b -> h, b.exit;
        h.exit -> x;  b.exit -> x
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..analysis.cfg import Graph, Loop, cfg_of
from ..diagnostics import internal_error
from ..ir.ssa import SSABuilder
from ..ir.values import Block, Br, Function, Instruction, Phi, Undef, Value
from .passes import Pass, PassState


@dataclass
class CanonicalizeResult:
    """What ``canonicalize`` did (for reports and tests)."""

    blocks_added: int = 0
    blocks_removed: int = 0
    lcssa_phis: int = 0

    def changed(self) -> bool:
        return bool(self.blocks_added or self.blocks_removed or self.lcssa_phis)


def canonicalize(fn: Function) -> CanonicalizeResult:
    """Bring every loop of ``fn`` into canonical form (see the module docstring)."""
    result = CanonicalizeResult()
    g = cfg_of(fn)
    if not g.is_reducible:
        # The front end rejects goto and labels, so C loops cannot produce
        # this; hand-written IR can (tests).
        raise internal_error(
            "irreducible control flow: a jump enters a loop without passing its header"
        )
    result.blocks_removed = _remove_unreachable(fn, g)
    while _fix_round(fn, cfg_of(fn), result):
        pass
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20 * len(fn.blocks) + 1000))  # merges recurse
    try:
        _build_lcssa(fn, cfg_of(fn), result)
    finally:
        sys.setrecursionlimit(limit)
    return result


# ---------------------------------------------------------------------------
# CFG shape


def _remove_unreachable(fn: Function, g: Graph[Block]) -> int:
    dead = [b for b in fn.blocks if not g.reachable(b)]
    if not dead:
        return 0
    dead_set = set(dead)
    for b in fn.blocks:
        if b in dead_set:
            continue
        for phi in b.phis:
            for p in list(phi.incoming_blocks):
                if p in dead_set:
                    phi.remove_incoming(p)
    for b in dead:
        for inst in b.instructions:
            inst.drop_operands()
    for b in dead:
        for inst in b.instructions:
            for user in list(inst.users):
                user.replace_operand(inst, _undef_like(inst))
        fn.remove_block(b)
    return len(dead)


def _undef_like(v: Value) -> Value:
    return Undef(v.type)


def _fix_round(fn: Function, g: Graph[Block], result: CanonicalizeResult) -> int:
    """Repair violated guarantees; returns how many were repaired.

    Several repairs share one CFG computation as long as they touch disjoint
    blocks (a repair only changes the terminators of the redirected
    predecessors and the phis of the target)."""
    touched: set[Block] = set()
    fixes = 0

    def free(blocks: list[Block]) -> bool:
        if any(b in touched for b in blocks):
            return False
        touched.update(blocks)
        return True

    for lp in g.loops.loops:
        preds = g.preds[lp.header]
        outside = [p for p in preds if p not in lp]
        if not outside or len(outside) > 1 or len(outside[0].successors) > 1:
            if free(preds + [lp.header]):
                _insert_preheader(fn, lp, outside, result)
                fixes += 1
            continue
        if len(lp.latches) > 1:
            if free(preds + [lp.header]):
                last = max(lp.latches, key=fn.blocks.index)
                _funnel(
                    fn,
                    lp.header,
                    lp.latches,
                    f"{lp.header.name}.latch",
                    result,
                    at=fn.blocks.index(last) + 1,
                )
                fixes += 1
            continue
        for e in lp.exits:
            if len(g.preds[e]) > 1:
                inside = [p for p in g.preds[e] if p in lp]
                if free(g.preds[e] + [e]):
                    _split_edge(fn, inside[0], e, f"{e.name}.exit", result)
                    fixes += 1
    return fixes


def _insert_preheader(
    fn: Function, lp: Loop[Block], outside: list[Block], result: CanonicalizeResult
) -> None:
    name = f"{lp.header.name}.preheader"
    if outside:
        _funnel(fn, lp.header, outside, name, result)
        return
    # The header is the entry: give the function a new entry block.
    pre = Block(name)
    pre.function = fn
    fn.blocks.insert(0, pre)
    pre.append(Br(lp.header))
    for phi in lp.header.phis:
        phi.add_incoming(Undef(phi.type), pre)  # nothing flows in on the first entry
    result.blocks_added += 1


def _funnel(
    fn: Function,
    target: Block,
    sources: list[Block],
    name: str,
    result: CanonicalizeResult,
    at: int | None = None,
) -> Block:
    """Route the edges sources -> target through one new block (placed at
    layout position ``at``, default just before ``target``)."""
    new = Block(name)
    fn.blocks.insert(fn.blocks.index(target) if at is None else at, new)
    new.function = fn
    for phi in target.phis:
        merged = _merge_incoming(phi, sources, new)
        for s in sources:
            if s in phi.incoming_blocks:
                phi.remove_incoming(s)
        phi.add_incoming(merged, new)
    for s in sources:
        term = s.terminator
        assert term is not None
        term.replace_successor(target, new)
    new.append(Br(target))
    result.blocks_added += 1
    return new


def _merge_incoming(phi: Phi, sources: list[Block], new: Block) -> Value:
    """The value ``phi`` receives from ``sources``, as seen at the end of ``new``."""
    values = [phi.value_from(s) for s in sources if s in phi.incoming_blocks]
    if all(v is values[0] for v in values):
        return values[0]
    merged = Phi(phi.type, phi.name)
    new.insert(len(new.phis), merged)
    for s in sources:
        if s in phi.incoming_blocks:
            merged.add_incoming(phi.value_from(s), s)
    return merged


def _split_edge(
    fn: Function, src: Block, dst: Block, name: str, result: CanonicalizeResult
) -> Block:
    """Put a new block on the edge src -> dst."""
    return _funnel(fn, dst, [src], name, result)


# ---------------------------------------------------------------------------
# LCSSA


def _build_lcssa(fn: Function, g: Graph[Block], result: CanonicalizeResult) -> None:
    for lp in sorted(g.loops.loops, key=lambda lp: -lp.depth):
        for b in list(lp.blocks):
            for inst in list(b.instructions):
                if _outside_uses(inst, lp):
                    _close(fn, inst, lp, g, result)


def _outside_uses(inst: Instruction, lp: Loop[Block]) -> list[tuple[Instruction, int, Block]]:
    """(user, operand index or -1 for the mask, block of the use) of every
    use of inst that leaves the loop (a phi uses its operand in the incoming
    block)."""
    uses: list[tuple[Instruction, int, Block]] = []
    for user in dict.fromkeys(inst.users):  # each user once, in a fixed order
        for k, op in enumerate(user.operands):
            if op is not inst:
                continue
            where = user.incoming_blocks[k] if isinstance(user, Phi) else user.block
            if where is not None and where not in lp:
                uses.append((user, k, where))
        if user.mask is inst and user.block is not None and user.block not in lp:
            uses.append((user, -1, user.block))
    return uses


def _close(
    fn: Function, inst: Instruction, lp: Loop[Block], g: Graph[Block], result: CanonicalizeResult
) -> None:
    """Route the outside uses of inst through phis in the exits it dominates."""
    ssa = SSABuilder.for_function(fn)
    name = f"{inst.name}.lcssa" if inst.name else ""
    ssa.declare(inst, inst.type, name)
    for e in lp.exits:
        if inst.block is not None and g.dominates(inst.block, e):
            (pred,) = g.preds[e]
            phi = Phi(inst.type, name)
            e.insert(0, phi)
            phi.add_incoming(inst, pred)
            ssa.write(inst, e, phi)
            result.lcssa_phis += 1
    # the exit phis sit at the start of their blocks: a use anywhere in a
    # block sees the block's definition
    for user, k, where in _outside_uses(inst, lp):
        if k == -1:
            user.set_mask(ssa.read(inst, where))
        else:
            user.set_operand(k, ssa.read(inst, where))


def first_exit_phi(block: Block) -> Phi | None:
    """The first phi of an exit block (helper for tests)."""
    phis = block.phis
    return phis[0] if phis else None


def _run(state: PassState) -> CanonicalizeResult:
    return canonicalize(state.fn)


PASS = Pass("canonicalize", _run, changed=CanonicalizeResult.changed)
