"""The interleave cost model: how many vectors a loop runs per trip.

Independent vectors in one trip let the processor overlap what one vector
would leave waiting: the accumulator chain of a reduction, the latency of a
gather or a call that the next step of a loop depends on.  They cost
registers, and every per-lane stack object once more per vector.  Measured
on the bench kernels (bench/RESULTS.md, "Vectors per trip"), AVX-512 and
AVX2, gcc and clang-19 building the output:

- two vectors per trip were at least level with one on every kernel but the
  tree search, which keeps a stack per lane (0.94x and 0.70x);
- four paid where the region's hottest loop carries a chain through a
  long-latency operation -- a load whose address the previous trip
  computed (binary search, 1.06-1.25x over two), a call (iterated ``log``,
  1.13-1.17x) -- and cost up to 0.65x elsewhere (register spills of wide
  bodies, escape-time loops on AVX2);
- a very long body gains nothing from a second vector and doubles what the
  C compiler reads (LONG_BODY).

A ``simdlen`` wider than a register and ``--interleave`` come before this
model (codegen.generate, ``_LoopGen.interleave``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..analysis.cfg import Loop
from ..analysis.divergence import DivergenceInfo
from ..ir.atomic_calls import SCAN_PREFIX
from ..ir.types import I1
from ..ir.values import Alloca, BinOp, Block, Call, Function, Instruction, Load, Phi, Value

LONG_LATENCY_DIVISIONS = ("div", "rem")

LONG_BODY = 1000
"""Instructions beyond which a region runs one vector per trip: it has
independent work enough, and every vector more is as much C again for the
compiler (deep_expressions, a 1,500-term sum: clang 14 took 127 s for two
vectors on AArch64, 34 s for one; xsproxy's lookup loop, four vectors, has
591)."""


def interleave_factor(fn: Function, div: DivergenceInfo) -> int:
    """Vectors per trip for the vector loop of region ``fn``: 1 with
    per-lane stack objects or a long body, 4 when the hottest loop's
    recurrence waits on a long-latency operation, else 2."""
    insts = [inst for b in fn.blocks for inst in b.instructions]
    if len(insts) > LONG_BODY or any(_is_per_lane_stack(inst) for inst in insts):
        return 1
    if any(isinstance(inst, Call) and inst.callee.startswith(SCAN_PREFIX) for inst in insts):
        return 1  # a scan's running total passes from one vector to the next
    hot = _hottest_loop(div)
    if hot is not None and any(_is_long_latency(inst) for inst in _recurrence(hot)):
        return 4
    return 2


def _is_per_lane_stack(inst: Instruction) -> bool:
    return isinstance(inst, Alloca) and inst.interleaved


def _is_long_latency(inst: Instruction) -> bool:
    if isinstance(inst, (Load, Call)):
        return True
    return isinstance(inst, BinOp) and inst.op in LONG_LATENCY_DIVISIONS


def _hottest_loop(div: DivergenceInfo) -> Loop[Block] | None:
    """The innermost loop nested deepest (the one that runs most often);
    the first of them in block order."""
    loops = div.loops.loops
    return max(loops, key=lambda lp: lp.depth) if loops else None


def _recurrence(loop: Loop[Block]) -> set[Instruction]:
    """The instructions of ``loop`` on a cycle from one of its header's
    phis to the value that phi takes from a latch: what a trip waits on
    from the trip before.  Masks aside: every divergent loop's live mask
    waits on the conditions of its body (seen on a wide if-cascade, where
    four vectors were no faster than two)."""
    on_cycles: set[Instruction] = set()
    header_phis = [inst for inst in loop.header.instructions if isinstance(inst, Phi)]
    for phi in (phi for phi in header_phis if phi.type != I1):
        carried = [v for v, b in phi.incoming() if b in loop]
        downstream = _closure([phi], lambda inst: _users_in(inst, loop))
        upstream = _closure(carried, lambda inst: _operands_in(inst, loop))
        on_cycles |= downstream & upstream
    return on_cycles


def _closure(
    start: Iterable[Value], step: Callable[[Instruction], list[Instruction]]
) -> set[Instruction]:
    seen: set[Instruction] = set()
    work = [v for v in start if isinstance(v, Instruction)]
    while work:
        inst = work.pop()
        if inst not in seen:
            seen.add(inst)
            work.extend(step(inst))
    return seen


def _users_in(inst: Instruction, loop: Loop[Block]) -> list[Instruction]:
    """Users in the loop within the same trip (a header phi starts the next)."""
    return [
        u
        for u in inst.users
        if isinstance(u, Instruction)
        and u.block in loop
        and not (isinstance(u, Phi) and u.block is loop.header)
    ]


def _operands_in(inst: Instruction, loop: Loop[Block]) -> list[Instruction]:
    if isinstance(inst, Phi) and inst.block is loop.header:
        return []  # the trip starts here
    return [op for op in inst.operands if isinstance(op, Instruction) and op.block in loop]
