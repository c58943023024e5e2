"""The divergent loop transform: make every divergent loop uniform.

Spec: seed 001 Section 9.1.  A loop is divergent when lanes that enter it
together may leave it in different iterations or through different exits.
Partial linearization (linearize.py) needs uniform loops, so each divergent
loop is rebuilt so that all lanes leave it together, once no lane is live:

    P: br H                            P: br H'
    H: %x = phi [a, P], [x', L]        H': %x = phi [a, P], [%x.c, L']        (header phis move)
       ...                                 %live = phi [true, P], [%live.n, L']
    E: condbr c, X, ...                    %t = phi [false, P], [%t.n, L']       (per exit)
    L: br H                                %y.out = phi [undef, P], [%y.n, L']   (per live-out)
    X: %y = phi [v, E]                     %stay = call s2s.any(%live)          (uniform)
                                           condbr %stay, G, D
                                       G:  condbr %live, H, L'                  (divergent guard)
                                       H:  ... (original body)
                                       E:  condbr c, S, ...                     (exit rebounded)
                                       S:  br L'
                                       L:  br L'
                                       L': %live.n = phi [true, L], [false, S], [false, G]
                                           %t.n = phi [%t, L], [true, S], [%t, G]
                                           %y.n = phi [%y.out, L], [v, S], [%y.out, G]
                                           %x.c = phi [x', L], [undef, S], [undef, G]
                                           br H'
                                       D:  br X  (several exits: condbr %t1, X1, D2 ...)
                                       X:  uses of %y use %y.out

``%live`` holds the lanes that still run the body; ``%t`` the lanes that left
through an exit; ``%y.out`` the value each lane carried out of the loop
(live-out tracking).  Lanes that are not live (they left, or never entered)
get ``undef`` as the next value of the header phis: they never read it
again, and the undef keeps a uniform counter uniform for the divergence
analysis.  With several exits the new exit block ``D`` dispatches each lane
to the exit it took (a divergent cascade that linearization handles).

Frozen header phis (seed 001 Section 9.1's live-out tracking made free):
when a live-out ``%y`` leaving through exit ``S`` is a header phi ``%x``
itself, or the value ``x'`` it carries to the next iteration, the lane's
``%x`` holds its exit value instead of a copy in ``%y.out``:

    L': %x.c = phi [x', L], [%x or x', S], [%x, G]    X: uses of %y use %x

so once a lane has left, its ``%x`` stops changing (after linearization
one select under the lane's live mask: a masked update), and ``%x`` after
the loop is the exit value; one vector per live-out instead of two.  This
is done for varying header phis (a lane's own value already) and for a
uniform one used by nothing but its own update and the live-outs (a trip
counter: it becomes a per-lane count, with nothing else made varying).  A
header phi holds one live-out per exit; a live-out that is neither ``%x``
nor ``x'`` (updated after the exit test in the same iteration), or a
second one of the same phi at one exit, keeps its tracker.

Requires canonical loops (transform.canonicalize: preheader, one latch,
dedicated exits, loop-closed SSA) and the divergence analysis of the
function; loops are transformed innermost first.  Changes the CFG: every
analysis is invalid afterwards; run canonicalize again for loop-closed SSA
of the new loops.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.cfg import Graph, Loop, cfg_of
from ..analysis.divergence import DivergenceInfo
from ..ir.types import I1, Type
from ..ir.values import (
    ANY,
    BinOp,
    Block,
    Br,
    Call,
    CondBr,
    Constant,
    Function,
    Instruction,
    Phi,
    Undef,
    Value,
)
from .passes import Pass, PassState, did_any


def make_loops_uniform(fn: Function, div: DivergenceInfo, shadows: bool = True) -> int:
    """Transform every divergent loop of ``fn`` (innermost first); returns how many.

    A uniform loop that may run with some lanes inactive (under a divergent
    branch) is transformed too: when no lane is active its exit condition may
    be computed from values no lane defined, and only ``any(live)`` is sure
    to let it end."""
    loops = sorted(div.loops.loops, key=lambda lp: -lp.depth)
    headers = [
        lp.header
        for lp in loops
        if div.loop_is_divergent(lp.header) or div.has_varying_activation(lp.header)
    ]
    for header in headers:
        g = cfg_of(fn)
        lp = g.loops.loop_with_header(header)
        assert lp is not None and lp.latch is not None, "loops must be canonical"
        _LoopRebuild(fn, g, lp).run(div, shadows)
    return len(headers)


class _LoopRebuild:
    """The rebuild of one loop (see the module docstring for the shape)."""

    def __init__(self, fn: Function, g: Graph[Block], lp: Loop[Block]) -> None:
        self.fn, self.lp = fn, lp
        self.header = lp.header
        latch = lp.latch
        assert latch is not None, "loops must be canonical"
        self.latch: Block = latch
        (self.pre,) = [p for p in g.preds[lp.header] if p not in lp]
        self.exits = [(g.preds[x][0], x) for x in lp.exits]
        """(exiting block, exit block) for every exiting edge."""
        name = lp.header.name or "loop"
        self.new_header = self._block(f"{name}.div", before=lp.header)
        self.guard = self._block(f"{name}.guard", before=lp.header)
        self.rebounds = [self._block(f"{x.name}.rebound", after=self.latch) for _, x in self.exits]
        self.new_latch = self._block(
            f"{name}.dlatch", after=self.rebounds[-1] if self.rebounds else self.latch
        )
        self.dispatch = self._block(f"{name}.dexit", after=self.new_latch)
        self.live_outs: list[_Tracker] = []
        self.freezable: dict[Value, Phi] = {}
        """Header phis (moved) and their latch values -> the phi's carried value
        in the new latch, for the phis that may hold a lane's exit value."""
        self.frozen: dict[tuple[Phi, Block], Value] = {}
        """(carried phi, rebound block) -> the exit value the phi keeps."""
        self.moved_of: dict[Phi, Phi] = {}
        """Carried value in the new latch -> its header phi in the new header."""

    def _block(self, name: str, before: Block | None = None, after: Block | None = None) -> Block:
        block = Block(name)
        block.function = self.fn
        if before is not None:
            at = self.fn.blocks.index(before)
        else:
            assert after is not None
            at = self.fn.blocks.index(after) + 1
        self.fn.blocks.insert(at, block)
        return block

    # -- the steps -------------------------------------------------------------------
    def run(self, div: DivergenceInfo, shadows: bool) -> None:
        freezable = [phi for phi in self.header.phis if self._may_freeze(phi, div)]
        if shadows:
            freezable += self._shadow_counters(freezable, div)
        self._move_header_phis(freezable)
        live = self._tracker(I1, Constant(I1, 1), "live")
        live.next.add_incoming(Constant(I1, 1), self.latch)
        # which exit a lane took matters only where there are several
        exit_masks = (
            [self._tracker(I1, Constant(I1, 0), f"{x.name}.taken") for _, x in self.exits]
            if len(self.exits) > 1
            else []
        )
        self._rebound_exits(live, exit_masks)
        self._finish_trackers(live, exit_masks)
        stay = Call(ANY, [live.value], I1, name="stay")
        self.new_header.append(stay)
        self.new_header.append(CondBr(stay, self.guard, self.dispatch))
        self.guard.append(CondBr(live.value, self.header, self.new_latch))
        self.new_latch.append(Br(self.new_header))
        self.pre.replace_successor(self.header, self.new_header)
        self.latch.replace_successor(self.header, self.new_latch)
        self._dispatch([x for _, x in self.exits], [m.value for m in exit_masks])

    def _may_freeze(self, phi: Phi, div: DivergenceInfo) -> bool:
        """May ``phi`` become (or stay) a per-lane value that keeps its exit
        value?  A varying phi may; a uniform or strided one only when nothing
        but its own update and the loop's live-outs read it and that update
        (a counter), so that making it varying changes nothing else."""
        if div.shape_of(phi).is_varying:
            return True
        update = phi.value_from(self.latch)
        return all(self._is_live_out_or(user, update) for user in phi.users) and all(
            self._is_live_out_or(user, phi) for user in update.users
        )

    def _shadow_counters(self, freezable: list[Phi], div: DivergenceInfo) -> list[Phi]:
        """A per-lane copy of each uniform counter that leaves the loop but is
        read by more than its update (``it < MAX`` of an escape-time loop):
        the copy takes the live-outs and is frozen, the counter stays
        uniform for the rest (module docstring)."""
        shadows: list[Phi] = []
        for phi in list(self.header.phis):
            update = phi.value_from(self.latch)
            step = _counter_step(phi, update, div)
            outs = self._live_out_uses(phi, update)
            if phi in freezable or step is None or not outs:
                continue
            assert isinstance(update, BinOp)
            shadow = Phi(phi.type, f"{phi.name or 'v'}.lane")
            shadow_update = BinOp(update.op, shadow, step, f"{update.name or 'v'}.lane")
            shadow.add_incoming(phi.value_from(self.pre), self.pre)
            shadow.add_incoming(shadow_update, self.latch)
            self.header.insert(len(self.header.phis), shadow)
            block = update.parent
            assert block is not None
            block.insert(block.instructions.index(update) + 1, shadow_update)
            for lcssa, exiting in outs:
                value = shadow if lcssa.value_from(exiting) is phi else shadow_update
                lcssa.set_operand(lcssa.incoming_blocks.index(exiting), value)
            shadows.append(shadow)
        return shadows

    def _live_out_uses(self, phi: Phi, update: Value) -> list[tuple[Phi, Block]]:
        """The exit phis that take ``phi`` or its update out of the loop."""
        return [
            (lcssa, exiting)
            for exiting, exit_block in self.exits
            for lcssa in exit_block.phis
            if lcssa.value_from(exiting) in (phi, update)
        ]

    def _is_live_out_or(self, user: Instruction, allowed: Value) -> bool:
        exit_blocks = {x for _, x in self.exits}
        return user is allowed or (isinstance(user, Phi) and user.parent in exit_blocks)

    def _move_header_phis(self, freezable: list[Phi]) -> None:
        """Header phis move to the new header; lanes that do not continue
        through the old latch carry undef (they never read it again)."""
        for phi in self.header.phis:
            moved = Phi(phi.type, phi.name)
            carried = Phi(phi.type, f"{phi.name}.c" if phi.name else "")
            moved.add_incoming(phi.value_from(self.pre), self.pre)
            moved.add_incoming(carried, self.new_latch)
            carried.add_incoming(phi.value_from(self.latch), self.latch)
            self.new_header.insert(len(self.new_header.phis), moved)
            self.new_latch.insert(len(self.new_latch.phis), carried)
            self.moved_of[carried] = moved
            if phi in freezable:
                self.freezable.setdefault(moved, carried)
                self.freezable.setdefault(phi.value_from(self.latch), carried)
            phi.replace_all_uses_with(moved)
            phi.erase()

    def _tracker(self, type_: Type, initial: Value, name: str) -> _Tracker:
        value = Phi(type_, name)
        nxt = Phi(type_, f"{name}.n")
        value.add_incoming(initial, self.pre)
        value.add_incoming(nxt, self.new_latch)
        self.new_header.insert(len(self.new_header.phis), value)
        self.new_latch.insert(len(self.new_latch.phis), nxt)
        return _Tracker(value, nxt)

    def _rebound_exits(self, live: _Tracker, exit_masks: list[_Tracker]) -> None:
        """Exiting edges go to the new latch through their own block, where
        the lane's exit mask is set and its live-out values recorded."""
        for k, ((exiting, exit_block), rebound) in enumerate(zip(self.exits, self.rebounds)):
            exiting.replace_successor(exit_block, rebound)
            rebound.append(Br(self.new_latch))
            live.next.add_incoming(Constant(I1, 0), rebound)
            for j, mask in enumerate(exit_masks):
                mask.next.add_incoming(Constant(I1, 1) if j == k else mask.value, rebound)
            for lcssa in exit_block.phis:
                if self._freeze(lcssa.value_from(exiting), rebound, lcssa):
                    continue
                out = self._tracker(lcssa.type, Undef(lcssa.type), f"{lcssa.name or 'v'}.out")
                out.leaving = (lcssa.value_from(exiting), rebound)
                self.live_outs.append(out)
                lcssa.replace_all_uses_with(out.value)
                lcssa.erase()

    def _freeze(self, value: Value, rebound: Block, lcssa: Phi) -> bool:
        """Let a header phi keep the live-out ``value`` of the lanes that
        leave through ``rebound``, if one may and holds no other there."""
        carried = self.freezable.get(value)
        if carried is None or self.frozen.get((carried, rebound), value) is not value:
            return False
        self.frozen[(carried, rebound)] = value
        lcssa.replace_all_uses_with(self.moved_of[carried])
        lcssa.erase()
        return True

    def _finish_trackers(self, live: _Tracker, exit_masks: list[_Tracker]) -> None:
        """Incoming values from the old latch (lanes that stay), the rebound
        blocks (lanes that leave) and the guard (lanes that are not live)."""
        live.next.add_incoming(Constant(I1, 0), self.guard)
        for mask in exit_masks:
            mask.next.add_incoming(mask.value, self.latch)
            mask.next.add_incoming(mask.value, self.guard)
        for out in self.live_outs:
            assert out.leaving is not None
            value, leaving_through = out.leaving
            out.next.add_incoming(out.value, self.latch)
            out.next.add_incoming(out.value, self.guard)
            for rebound in self.rebounds:
                out.next.add_incoming(value if rebound is leaving_through else out.value, rebound)
        trackers = {t.next for t in [live, *exit_masks, *self.live_outs]}
        frozen_phis = {carried for carried, _ in self.frozen}
        for carried in self.new_latch.phis:
            if carried in trackers:
                continue
            for rebound in self.rebounds:
                carried.add_incoming(
                    self.frozen.get((carried, rebound), Undef(carried.type)), rebound
                )
            keep = self.moved_of[carried] if carried in frozen_phis else Undef(carried.type)
            carried.add_incoming(keep, self.guard)

    def _dispatch(self, exits: list[Block], masks: list[Value]) -> None:
        """Send each lane from the new exit block to the exit it took."""
        block = self.dispatch
        for k, exit_block in enumerate(exits[:-1]):
            rest = self._block(f"{self.dispatch.name}.{k + 1}", after=block)
            block.append(CondBr(masks[k], exit_block, rest))
            block = rest
        block.append(Br(exits[-1]))


def _counter_step(phi: Phi, update: Value, div: DivergenceInfo) -> Value | None:
    """``c`` when ``phi`` is a uniform counter updated by ``phi + c`` or
    ``phi - c`` with a uniform ``c`` (a lane's copy of it then counts alike)."""
    if not div.is_uniform(phi) or not isinstance(update, BinOp) or update.op not in ("add", "sub"):
        return None
    a, b = update.operands
    step = b if a is phi else a if b is phi and update.op == "add" else None
    return step if step is not None and step is not phi and div.is_uniform(step) else None


@dataclass
class _Tracker:
    """A header phi and its update in the new latch."""

    value: Phi
    next: Phi
    leaving: tuple[Value, Block] | None = None
    """Live-outs: the value a lane takes out and the rebound block it leaves through."""


def _run(state: PassState) -> int:
    return make_loops_uniform(state.fn, state.get(DivergenceInfo), state.options.shadow_counters)


PASS = Pass(
    "divergent-loops",
    _run,
    requires=(DivergenceInfo,),
    options=("shadow_counters",),
    changed=did_any,
)
