"""Counters in the masks' lane width, on targets whose masks are vector lanes.

On AVX2 and NEON a mask is a vector of all-ones or zero lanes as wide as
the region's widest elements (s2s.codegen.legalize ``mask_lane_bits``); a
select on narrower lanes first narrows its mask, a permute or two each time.
An escape-time loop's per-lane count (``it = select(live, it + 1, it)``,
from transform.divergent_loops) pays that on every trip for every vector,
where a hand-written loop keeps the count in 64-bit lanes and subtracts
the mask.  So a loop-carried integer vector narrower than the masks whose
values are made only by phis, selects and adds or subtracts of splats is
computed in the masks' width, and truncated where anything else reads it:
its low bits are the same (addition and selection commute with
truncation), and the selects take the mask as it is.  The emitter then
writes ``select(m, x + 1, x)`` as ``x - m`` where the target can
(``increment_where``).

Targets with bit masks or predicates (AVX-512, SVE, RVV) select on any
lane width without conversion: nothing is done for them.  Runs on the
legalized vector function (s2s.codegen.legalize), whose vectors fit the
target's registers; a wide type the target has no register for is left
alone.
"""

from __future__ import annotations

from collections.abc import Container

from ..analysis.cfg import cfg_of
from ..ir.types import IntType, Type, VectorType
from ..ir.values import (
    BinOp,
    Block,
    Cast,
    Constant,
    Function,
    Instruction,
    Phi,
    Select,
    Undef,
    Value,
)
from ..ir.vector import Splat
from .legalize import mask_lane_bits
from .target import Target


def promote_counters(fn: Function, target: Target, lanes: int) -> int:
    """Widen every promotable web of ``fn`` (module docstring); returns how many."""
    if target.mask_kind != "lanes":
        return 0
    bits = mask_lane_bits(fn, target, lanes)
    in_loops = {b for lp in cfg_of(fn).loops.loops for b in lp.blocks}
    done: set[Instruction] = set()
    count = 0
    for phi in [p for b in fn.blocks for p in b.phis]:
        if phi in done or not _narrow_int_vector(phi.type, bits):
            continue
        web = _web(phi)
        done.update(web)
        wide = _wide_type(phi.type, bits)
        if target.vtype(wide.elem, wide.lanes) is None or not _pays(web, in_loops):
            continue
        _widen(web, wide)
        count += 1
    return count


def _narrow_int_vector(t: Type, bits: int) -> bool:
    return (
        isinstance(t, VectorType)
        and not t.scalable
        and isinstance(t.elem, IntType)
        and 1 < t.elem.bits < bits
    )


def _wide_type(t: Type, bits: int) -> VectorType:
    assert isinstance(t, VectorType) and isinstance(t.elem, IntType)
    return t.of(IntType(bits, t.elem.signed))


def _web(start: Phi) -> dict[Instruction, None]:
    """The phis, selects (as values) and adds/subtracts of a splat around
    ``start`` that carry its value, following uses and the phis' operands;
    in the order found (a set's order would follow the objects' addresses,
    and so would the order of the casts and splats the widening inserts:
    output differing from run to run)."""
    web: dict[Instruction, None] = {}
    work: list[Instruction] = [start]
    while work:
        inst = work.pop()
        if inst in web:
            continue
        web[inst] = None
        related = list(inst.users) + (list(inst.operands) if isinstance(inst, Phi) else [])
        for v in related:
            if isinstance(v, Instruction) and v.type == start.type and _carries(v, web):
                work.append(v)
    return web


def _carries(inst: Instruction, known: Container[Value]) -> bool:
    """Whether ``inst`` may join a web holding ``known``: a phi; a select
    whose mask is none of them; an add or subtract of a member and a splat."""
    if isinstance(inst, Phi):
        return True
    if isinstance(inst, Select):
        return inst.operands[0] not in known
    if isinstance(inst, BinOp) and inst.op in ("add", "sub"):
        a, b = inst.operands
        return (a in known and _is_splat(b)) or (inst.op == "add" and b in known and _is_splat(a))
    return False


def _is_splat(v: Value) -> bool:
    return isinstance(v, Splat)


def _pays(web: dict[Instruction, None], in_loops: set[Block]) -> bool:
    """A select in a loop (a mask narrowed on every trip), and nothing in a
    loop that reads a member but the web (a truncation on every trip)."""
    selects = any(isinstance(i, Select) and i.parent in in_loops for i in web)
    outside_readers = all(u in web or u.parent not in in_loops for i in web for u in i.users)
    return selects and outside_readers


def _widen(web: dict[Instruction, None], wide: VectorType) -> None:
    narrow = next(iter(web)).type
    readers = [(u, i) for i in web for u in list(i.users) if u not in web]
    for inst in web:
        inst.type = wide
    for inst in web:
        for k, op in enumerate(list(inst.operands)):
            if op in web or (isinstance(inst, Select) and k == 0):
                continue
            inst.set_operand(k, _widened(op, wide, _insert_point(inst, k)))
    for user, member in readers:
        for k, op in enumerate(list(user.operands)):
            if op is member:
                trunc = Cast(member, narrow, f"{member.name or 'v'}.narrow")
                _insert(trunc, _insert_point(user, k))
                user.set_operand(k, trunc)


def _widened(v: Value, wide: VectorType, at: tuple[Block, int]) -> Value:
    """``v`` in the wide type: undef stays undef, a splat a splat of the
    converted scalar, anything else converted."""
    if isinstance(v, Undef):
        return Undef(wide)
    if isinstance(v, Splat):
        scalar = v.operands[0]
        if isinstance(scalar, Constant):
            scalar = Constant(wide.elem, scalar.value)
        else:
            scalar = Cast(scalar, wide.elem, f"{scalar.name or 'v'}.wide")
            _insert(scalar, at)
            at = (at[0], at[1] + 1)
        splat = Splat(scalar, wide, v.name)
        _insert(splat, at)
        return splat
    cast = Cast(v, wide, f"{v.name or 'v'}.wide")
    _insert(cast, at)
    return cast


def _insert_point(user: Instruction, k: int) -> tuple[Block, int]:
    """Where a value for operand ``k`` of ``user`` is made: before the
    user, or for a phi at the end of the incoming block."""
    if isinstance(user, Phi):
        block = user.incoming_blocks[k]
        return block, len(block.instructions) - 1
    block = user.parent
    assert block is not None
    return block, block.instructions.index(user)


def _insert(inst: Instruction, at: tuple[Block, int]) -> None:
    block, index = at
    block.insert(index, inst)
