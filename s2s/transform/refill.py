"""Lane refill: each lane runs its own sequence of iterations, so a lane whose
divergent loop ends early starts its next iteration instead of idling.

A loop region computes one iteration, and the vector loop runs W consecutive
iterations per trip; a divergent loop inside runs until the slowest lane of
the vector is done (kdtree: 59% of the lanes busy on average).  OpenMP lets
the iterations of a ``simd`` loop without ``safelen`` run together in any
grouping (gcc and clang take its safe length to be unbounded), so lane ``l``
may take iterations l, l + W, l + 2W, ... in turn.  This pass builds that
schedule from a copy of the region (after dce and canonicalize) around
the heaviest divergent loop L of its top level (``Pre; L; Post``; Pre and
Post may hold loops of their own): the loop "iterations of
this lane" around L and L itself become ONE loop, each trip of which runs a
trip of L for the lanes inside it, and Post, the step to the lane's next
iteration and that iteration's Pre for the lanes whose L ended:

    refill.entry:  allocas of the old entry (one set per lane, reused) and
                   what the old entry computes from them and the parameters
                   %stride = cast(%s2s.width * step)    br refill.head
    refill.head:   %fresh = phi [1, refill.entry], [0, L's latch], [1, refill.next]
                   %t     = phi [%s2s.lane, ...],  [%t, ...],       [%t.next, ...]
                   %iv    = phi [<iv param>, ...], [%iv, ...],      [%iv.next, ...]
                   condbr %fresh, refill.start, <L's header>
    refill.start:  condbr %t < %s2s.count, <old entry>, refill.exit
    (where a start weighs more than a trip, refill.head sends fresh lanes to
    refill.gate, which starts them once a quarter of the vector is ready or
    no lane is left in the loop, else back round through refill.wait)
    <old entry: Pre ... L ... Post>   L's latch branches to refill.head,
                                      the old ``ret`` to refill.next
    refill.next:   %t.next = %t + %s2s.width; %iv.next = %iv + %stride
                   br refill.head
    refill.exit:   ret

What L carries from one trip to the next, and what Pre computes for L and
Post, now reaches its uses across refill.head: SSA is rebuilt for those
values (phis at refill.head hold them while the lane is inside L).  Each lane
still runs its iterations in order, one after the other: the interpreter
checks the region lane by lane against the original.

Three new parameters: ``%s2s.lane`` (strided by 1 from 0), ``%s2s.count``
(uniform: the iterations of this run, at most 2^30) and ``%s2s.width``
(uniform: W).  The code generator runs the region once per 2^30 iterations:
no remainder loop.

Two clean-ups keep lanes at different iterations cheap: values of the
iteration computed in Pre without memory (``&x[i]``) are computed again
where L or Post use them (``_rematerialize``), and loads in L whose address
depends only on the iteration are made once per iteration and lane
(``_cache_iteration_loads``), instead of a gather in every trip.

A reduction's accumulator is carried around the new loop: each lane sums
the iterations it runs, and the lanes are combined after the loop as
before (the order of a reduction is free).

Declines (returns None) for a region with ``lastprivate`` results (their
values depend on which lane ran the last iteration),
``linear`` parameters, a run-time loop step, a ``safelen`` clause (it bounds
which iterations may run together), the outer loops of a collapsed nest, or
whose top level has no divergent loop with one latch; and where the cost
model (``_pays``) finds that a trip of that loop weighs too little against
what starting an iteration costs.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.cfg import Loop, cfg_of
from ..analysis.divergence import DivergenceInfo
from ..ir.builder import IRBuilder, copy_with_operands
from ..ir.region import ArgBinding, Region
from ..ir.ssa import SSABuilder
from ..ir.types import I1, I32, IntType
from ..ir.values import (
    ANY,
    POPCOUNT,
    Alloca,
    Argument,
    BinOp,
    Block,
    Cast,
    Cmp,
    Constant,
    FieldAddr,
    Function,
    Gep,
    Instruction,
    Load,
    Phi,
    Ret,
    Select,
    Store,
    Terminator,
    Undef,
    UnOp,
    Value,
    address_base,
)
from .cost import instruction_weight
from .passes import REFILL_MIN_RATIO, Declined, Pass, PassState
from .ssa_repair import DominanceRepair

LANE, COUNT, WIDTH = "s2s.lane", "s2s.count", "s2s.width"


def refill_lanes(
    region: Region, div: DivergenceInfo, gather_weight: int = 8, min_ratio: float = REFILL_MIN_RATIO
) -> Region | None:
    """Give ``region`` (a canonical copy, changed in place) the refill
    schedule; None when it cannot have it or it does not pay (``region`` is
    then unchanged).  ``div``: the divergence of the plain region;
    ``gather_weight``: what an access of the divergent loop that is
    contiguous there costs as a gather (the target's
    ``refill_gather_weight``); ``min_ratio``: how many times what refill
    adds a trip of the loop must weigh (``--refill-ratio``; 0: refill
    wherever the schedule can be built)."""
    loop = _refill_loop(region, div, gather_weight, min_ratio)
    if loop is None:
        return None
    fn = region.fn
    iv = next(b.arg for b in region.args if b.role == "iv")
    step = next(b.step for b in region.args if b.role == "iv")
    assert isinstance(step, int)  # a run-time step gets no refill (refill_problem)
    lane, count, width = fn.add_arg(I32, LANE), fn.add_arg(I32, COUNT), fn.add_arg(I32, WIDTH)
    old_entry, header, latch = fn.entry, loop.header, loop.latch
    assert latch is not None  # _refill_loop takes loops with one latch
    ret_block = next(b for b in fn.blocks if isinstance(b.terminator, Ret))
    deferred = _defers_starts(fn, loop, div)
    entry, head, start, step_block, exit_block = _new_blocks(fn)

    b = IRBuilder().at_end(head)
    fresh, t, iv_now = b.phi(I1, "fresh"), b.phi(I32, "t"), b.phi(iv.type, "iv")
    iv.replace_all_uses_with(iv_now)
    # a reduction's accumulator: each lane sums its own iterations
    sums: dict[int, tuple[Argument, Phi]] = {}
    for rb in region.results:
        assert rb.arg is not None  # _refill_loop takes reductions only
        sums[rb.index] = (rb.arg, b.phi(rb.arg.type, rb.arg.name))
    for arg, acc in sums.values():
        arg.replace_all_uses_with(acc)
    b = IRBuilder().at_end(entry)
    _hoist_invariants(old_entry, b)
    stride = b.cast(b.mul(width, Constant(I32, step), "stride"), iv.type, "stride")
    enough = b.binop("shr", width, Constant(I32, START_SHIFT), "enough") if deferred else None
    b.br(head)
    b = IRBuilder().at_end(head)
    wait = None
    if enough is None:
        b.condbr(fresh, start, header)
    else:
        wait = _gate(fn, b, fresh, enough, start, header)
    b = IRBuilder().at_end(start)
    b.condbr(b.cmp("lt", t, count, "more"), old_entry, exit_block)

    latch.replace_successor(header, head)
    for phi in header.phis:
        phi.incoming_blocks[phi.incoming_blocks.index(latch)] = head
    ret = ret_block.terminator
    assert isinstance(ret, Ret)
    results = list(ret.operands)
    ret.erase()
    IRBuilder().at_end(ret_block).br(step_block)
    b = IRBuilder().at_end(step_block)
    t_next, iv_next = b.add(t, width, "t.next"), b.add(iv_now, stride, "iv.next")
    b.br(head)
    IRBuilder().at_end(exit_block).ret([sums[k][1] for k in range(len(results))])

    one, zero = Constant(I1, 1), Constant(I1, 0)
    _incoming(fresh, [(one, entry), (zero, latch), (one, step_block)])
    _incoming(t, [(lane, entry), (t, latch), (t_next, step_block)])
    _incoming(iv_now, [(iv, entry), (iv_now, latch), (iv_next, step_block)])
    for k, (arg, acc) in sums.items():
        _incoming(acc, [(arg, entry), (acc, latch), (results[k], step_block)])
    if wait is not None:  # a waiting lane comes back as it was
        for phi in head.phis:
            phi.add_incoming(one if phi is fresh else phi, wait)
    _rematerialize(fn, _IterationInvariant(iv_now))
    DominanceRepair(fn, undef_at_loop_headers=False).repair_all()
    _cache_iteration_loads(fn, loop, entry, step_block, iv_now)
    start.rarely_entered = True  # a lane starts an iteration once in many trips
    for block in loop.exits:
        block.rarely_entered = True
    _mark_staying_arms(loop)
    region.args = [
        *region.args,
        ArgBinding(lane, "lane", "s2s_lane", "int"),
        ArgBinding(count, "count", "s2s_count", "int"),
        ArgBinding(width, "width", "s2s_width", "int"),
    ]
    return region


def _mark_staying_arms(loop: Loop[Block]) -> None:
    """Lanes refill: all of them leave the loop in the same trip only at the
    end of the region, so the arm of an exiting branch that stays in the
    loop has a lane on nearly every trip."""
    inside = set(loop.blocks)
    for block in loop.blocks:
        succs = block.terminator.successors if block.terminator is not None else []
        if any(s not in inside for s in succs):
            for s in succs:
                if s in inside:
                    s.usually_entered = True


START_SHIFT = 2
"""Deferred starts: lanes whose iteration ended wait until a quarter of the
vector's lanes (``%s2s.width >> START_SHIFT``) are ready."""


def _defers_starts(fn: Function, loop: Loop[Block], div: DivergenceInfo) -> bool:
    """Whether lanes whose iteration ended wait for others before they
    start their next ones: when a start (Pre and Post, run for the whole
    vector however few lanes need it) weighs more than a trip of the loop.
    xsproxy's Pre is a 20-trip loop of 64-bit multiplies: its lanes ended
    about 1.5 at a time, and waiting for a quarter of them made the starts
    3x rarer for 10% more trips; in the k-d tree search (a start: a few
    stores) waiting cost 10-15%."""
    inside, edge = _weight(loop, div), _edge_weight(fn, loop, div)
    return edge > inside


def _gate(
    fn: Function, b: IRBuilder, fresh: Value, enough: Value, start: Block, header: Block
) -> Block:
    """End refill.head (``b``) with the deferred start: the lanes whose
    iteration ended (``fresh``) go on to ``start`` when at least ``enough``
    of them are ready or no lane is left in the loop to wait on (a uniform
    test in refill.gate), else to refill.wait, back to refill.head; the
    others go on in the loop (``header``).  Returns refill.wait."""
    ready = b.call(POPCOUNT, [fresh], I32, name="ready")
    busy = b.call(ANY, [b.unop("not", fresh, "in.loop")], I1, name="busy")
    many = b.cmp("ge", ready, enough, "many")
    go = b.binop("or", many, b.unop("not", busy, "idle"), "go")
    head = b.block
    assert head is not None
    gate, wait = Block("refill.gate"), Block("refill.wait")
    for block, after in ((gate, head), (wait, fn.blocks[-1])):
        block.function = fn
        fn.blocks.insert(fn.blocks.index(after) + 1, block)
    b.condbr(fresh, gate, header)
    IRBuilder().at_end(gate).condbr(go, start, wait)
    IRBuilder().at_end(wait).br(head)
    return wait


def _new_blocks(fn: Function) -> list[Block]:
    """refill.entry, .head, .start (placed first: the new entry first),
    .next and .exit (placed last)."""
    blocks = [Block(f"refill.{name}") for name in ("entry", "head", "start", "next", "exit")]
    for block in blocks:
        fn.add_block(block)
    fn.blocks[:0] = [fn.blocks.pop(-3) for _ in range(3)][::-1]
    return blocks


def _hoist_invariants(old_entry: Block, b: IRBuilder) -> None:
    """Move the allocas of the old entry, and what it computes from them and
    the parameters alone without a possible trap (array decay, field
    addresses, ...), to the new entry: computed once per lane, they are not
    carried around the new loop."""
    moved: set[Value] = set()
    for inst in list(old_entry.instructions):
        if isinstance(inst, Alloca) or (
            _computes_safely(inst)
            and all(not isinstance(op, Instruction) or op in moved for op in inst.operands)
        ):
            old_entry.instructions.remove(inst)
            b.insert(inst)
            moved.add(inst)


_PURE = (Cast, Gep, FieldAddr, BinOp, UnOp, Cmp, Select)


def _computes_safely(inst: Instruction) -> bool:
    """No memory, no effect, no trap: may run anywhere its operands are."""
    return isinstance(inst, _PURE) and getattr(inst, "op", "") not in ("div", "rem")


def _cache_iteration_loads(
    fn: Function, loop: Loop[Block], entry: Block, step_block: Block, iv: Value
) -> None:
    """A load in the divergent loop whose address depends only on the
    iteration (``qx[q]`` in a tree search over queries ``q``) is contiguous
    in the plain loop and a gather once lanes are at different iterations;
    in a loop that writes no memory but its own locals it reads the same
    value in every trip of an iteration.  It is kept per lane with a flag:

        B:      condbr %ok, B.cont, B.fill      (%ok, %cached: phis, reset by
        B.fill: %x = load %p; br B.cont          refill.next for the next
        B.cont: %v = phi [%cached, B], [%x, B.fill]    iteration)

    so the lane loads where it loaded before, the first time only, and the
    fill (rarely entered) is skipped while no lane needs it."""
    blocks = list(loop.blocks)
    if any(_may_write(inst) for b in blocks for inst in b.instructions):
        return
    invariant = _IterationInvariant(iv)
    loads = [
        inst
        for b in blocks
        for inst in b.instructions
        if isinstance(inst, Load) and invariant(inst.operands[0])
    ]
    splits = [_split_at_load(fn, load) for load in loads]
    if not splits:
        return
    ssa = SSABuilder.for_function(fn)
    for k, (load, _, cont, phi) in enumerate(splits):
        for var, ty, reset in (
            (("ok", k), I1, Constant(I1, 0)),
            (("value", k), load.type, Undef(load.type)),
        ):
            ssa.declare(var, ty, "")
            ssa.write(var, entry, reset)
            ssa.write(var, step_block, reset)
        ssa.write(("ok", k), cont, Constant(I1, 1))
        ssa.write(("value", k), cont, phi)
    for k, (_, block, _, phi) in enumerate(splits):
        term = block.terminator
        assert term is not None
        term.set_operand(0, ssa.read(("ok", k), block))
        phi.set_operand(0, ssa.read(("value", k), block))


def _rematerialize(fn: Function, invariant: _IterationInvariant) -> None:
    """A pure value of the iteration computed before the loop (``&x[i]``)
    is computed again where a use no longer follows its definition, instead
    of being carried around the new loop in a phi (where a pointer would
    become a vector of addresses and a load from it a gather)."""
    changed = True
    while changed:
        changed = False
        g = cfg_of(fn)
        for inst in [i for i in fn.instructions() if _computes_safely(i) and invariant(i)]:
            for user in list(inst.users):
                for k, op in enumerate(user.operands):
                    at = user.incoming_blocks[k] if isinstance(user, Phi) else user.parent
                    if op is not inst or at is inst.block or g.dominates(inst.parent, at):
                        continue
                    b = (
                        IRBuilder().at_end(at)
                        if isinstance(user, Phi)
                        else IRBuilder().before(user)
                    )
                    user.set_operand(k, b.insert(copy_with_operands(inst, inst.operands)))
                    changed = True


def _split_at_load(fn: Function, load: Load) -> tuple[Load, Block, Block, Phi]:
    """Move ``load`` to a new block B.fill entered when the lane has not
    loaded yet, the rest of its block to B.cont (operands of the branch and
    the phi are placeholders, set once SSA knows the flag and the value)."""
    block = load.parent
    at = block.instructions.index(load)
    fill, cont = Block(f"{block.name}.fill"), Block(f"{block.name}.cont")
    fn.blocks[fn.blocks.index(block) + 1 : fn.blocks.index(block) + 1] = [fill, cont]
    fill.function = cont.function = fn
    rest = block.instructions[at + 1 :]
    del block.instructions[at:]
    term = rest[-1]
    assert isinstance(term, Terminator)
    for succ in term.successors:
        for p in succ.phis:
            p.incoming_blocks = [cont if b is block else b for b in p.incoming_blocks]
    phi = Phi(load.type, load.name)
    load.replace_all_uses_with(phi)
    for inst, where in [(load, fill), (phi, cont), *((i, cont) for i in rest)]:
        inst.block = where
        where.instructions.append(inst)
    IRBuilder().at_end(fill).br(cont)
    IRBuilder().at_end(block).condbr(Constant(I1, 0), cont, fill)
    phi.add_incoming(Undef(load.type), block)
    phi.add_incoming(load, fill)
    fill.rarely_entered = True
    return load, block, cont, phi


def _may_write(inst: Instruction) -> bool:
    """May ``inst`` write memory other than the region's own locals?"""
    if isinstance(inst, Store):
        return not isinstance(address_base(inst.operands[1]), Alloca)
    return inst.has_side_effects


class _IterationInvariant:
    """Is a value the same in every trip of one iteration of a lane: built
    from constants, parameters and the iteration's loop variable ``iv`` by
    operations without memory or traps?"""

    def __init__(self, iv: Value) -> None:
        self.iv = iv
        self.known: dict[Value, bool] = {}

    def __call__(self, v: Value) -> bool:
        if not isinstance(v, Instruction) or v is self.iv:
            return True
        if v not in self.known:
            self.known[v] = False  # a cycle through phis is not invariant
            self.known[v] = _computes_safely(v) and all(self(op) for op in v.operands)
        return self.known[v]


def _incoming(phi: Phi, pairs: Sequence[tuple[Value, Block]]) -> None:
    for value, block in pairs:
        phi.add_incoming(value, block)


def _refill_loop(
    region: Region, div: DivergenceInfo, gather_weight: int, min_ratio: float
) -> Loop[Block] | None:
    """The one divergent top-level loop the schedule is built around, or None
    when the region cannot take the schedule."""
    clauses = region.clauses
    if (
        region.kind != "loop"
        or region.outer_loops
        or (clauses is not None and clauses.safelen is not None)
        or region.scans  # a scan's running total needs the iterations in order
        or any(rb.role != "reduction" or rb.arg is None for rb in region.results)
        or sorted(rb.index for rb in region.results) != list(range(len(region.fn.ret_types)))
    ):
        return None
    roles = [b.role for b in region.args]
    if roles.count("iv") != 1 or any(r not in ("iv", "uniform", "reduction") for r in roles):
        return None
    if any(b.role == "iv" and not isinstance(b.step, int) for b in region.args):
        return None  # a run-time step: lanes' iterations are not iv + lane
    iv = next(b.arg for b in region.args if b.role == "iv")
    rets = [b for b in region.fn.blocks if isinstance(b.terminator, Ret)]
    divergent = [lp for lp in div.loops.top_level if div.loop_is_divergent(lp.header)]
    if not isinstance(iv.type, IntType) or len(rets) != 1 or not divergent:
        return None
    # the heaviest divergent loop; other loops run with Pre or Post
    loop = max(divergent, key=lambda lp: _weight(lp, div))
    if (
        loop.latch is None
        or loop.header is region.fn.entry
        or not div.loop_is_divergent(loop.header)
        or not _pays(region.fn, loop, div, gather_weight, min_ratio)
    ):
        return None
    return loop


def _weight(loop: Loop[Block], div: DivergenceInfo) -> int:
    """A trip of ``loop``, its nested loops counted NESTED_TRIPS times each."""
    forest = div.loops
    return sum(
        instruction_weight(inst) * NESTED_TRIPS ** (forest.depth(b) - loop.depth)
        for b in loop.blocks
        for inst in b.instructions
    )


NESTED_TRIPS = 8
"""Trips assumed per entry of a loop nested in the refilled one."""
EDGE_ACCESS = 8
"""Weight of a load or store before or after the loop: its address depends on
the iteration, which differs between lanes now (a gather or scatter)."""
EDGE_FIXED = 8
"""What starting an iteration costs besides (its counters, tests, blends)."""
TRIP_FIXED = 16
"""What refill adds to every trip: the test for lanes whose iteration ended,
the blend of the new iterations' values into the loop's."""
TRIPS_PER_START = 4
"""Trips of the loop per run of Pre and Post: they run when some lane's
iteration ends (in a loop of T trips per iteration, W lanes start about W/T
new ones per trip; xsproxy's nuclide loop, 17 trips for 8 lanes: Pre and
Post ran in about two trips of five)."""
DEFERRED_STARTS = 2
"""Times rarer starts are when lanes wait for a quarter of the vector
(``_defers_starts``; xsproxy on AVX2: 3x rarer, for 10% more trips)."""


def _pays(
    fn: Function, loop: Loop[Block], div: DivergenceInfo, gather_weight: int, min_ratio: float
) -> bool:
    """Whether a trip of ``loop`` outweighs ``min_ratio`` times what refill
    adds to a trip: the test of ended lanes, a share of the lanes' Pre and
    Post (now gathers, scatters and blends that run whenever some lane
    starts an iteration) and the accesses of the loop that were contiguous
    and become gathers (not the loads that ``_cache_iteration_loads`` makes
    once per iteration).  Else refill costs more than the idle lanes it puts
    to work (measured, bench/RESULTS.md: escape-time loops of a few flops
    per trip ran at 0.3-0.6x their speed with it; the lookup loop of
    xsproxy, a binary search per trip, at 1.9x)."""
    inside, edge = _weight(loop, div), _edge_weight(fn, loop, div)
    cached = not any(_may_write(inst) for b in loop.blocks for inst in b.instructions)
    new_gathers = sum(
        1
        for b in loop.blocks
        for inst in b.instructions
        if isinstance(inst, (Load, Store))
        and not (isinstance(inst, Load) and cached)
        and div.shape_of(inst.operands[-1]).is_strided
    )
    trips_per_start = TRIPS_PER_START * (DEFERRED_STARTS if edge > inside else 1)
    added = TRIP_FIXED + edge / trips_per_start + gather_weight * new_gathers
    return inside >= min_ratio * added


def _edge_weight(fn: Function, loop: Loop[Block], div: DivergenceInfo) -> int:
    """What a start costs: Pre and Post, their own loops counted
    NESTED_TRIPS times per trip."""
    forest = div.loops
    return EDGE_FIXED + sum(
        (EDGE_ACCESS if isinstance(inst, (Load, Store)) else instruction_weight(inst))
        * NESTED_TRIPS ** forest.depth(b)
        for b in fn.blocks
        if b not in loop
        for inst in b.instructions
    )


def _run(state: PassState) -> Region:
    assert state.region is not None
    options = state.options
    if (
        refill_lanes(
            state.region,
            state.get(DivergenceInfo),
            options.refill_gather_weight,
            options.refill_min_ratio,
        )
        is None
    ):
        raise Declined("the loop has no lane refill schedule that pays")
    return state.region


def _no_loop(region: Region) -> bool:
    """The region as lowered has no loop and calls nothing to inline (of
    the passes before this one only inlining adds loops): no divergent
    loop to refill."""
    return not region.callees and not cfg_of(region.fn).loops.loops


PASS = Pass(
    "refill",
    _run,
    requires=(DivergenceInfo,),
    options=("refill_gather_weight", "refill_min_ratio"),
    changes_region=True,
    declines=_no_loop,
)
