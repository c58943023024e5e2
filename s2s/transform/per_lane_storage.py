"""Per-lane stack objects, element by element (seed 001 Section 6.6).

A local array (or an address-taken scalar) that the divergence analysis
finds varying needs one copy per lane.  Laid out one copy after the other,
element ``j`` of every lane is ``sizeof(T)`` bytes from its neighbour's: a
gather even when all lanes read the same ``j``.  This pass gives such an
object the interleaved layout instead: one ``alloca T interleaved`` holds
every lane's copy, element ``j`` of lane ``k`` at element ``j * W + k``, so
the lanes' elements ``j`` are neighbours (a contiguous vector access when
``j`` is uniform, a gather over one small block otherwise)::

    %st = alloca [8 x i32]               %st.soa = alloca [8 x i32] interleaved
    %p = cast %st to ptr<i32>            %w = call i64 @s2s.width()
    %q = gep %p, %j           ==>        %k = call i64 @s2s.lane()
    store %x, %q                         %e = cast %st.soa to ptr<i32>
                                         %n = add (mul %j, %w), %k
                                         %q.soa = gep %e, %n
                                         store %x, %q.soa

Only objects whose every address is used to load or store one element of
their scalar type E are rewritten (T is E or an array of arrays of E; the
addresses come from the alloca through casts and geps); an object whose
address escapes (a call, a store of the pointer, a phi or select of
pointers, a load of a whole row) keeps one copy per lane.

Needs the divergence analysis; changes no control flow; the old alloca
and its address computations are deleted.  Runs before speculation and
linearization (s2s/pipeline.py), which treat the new accesses as any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.divergence import DivergenceInfo
from ..ir.builder import IRBuilder
from ..ir.types import I32, I64, ArrayType, FloatType, IntType, PtrType, Type
from ..ir.values import (
    LANE,
    WIDTH,
    Alloca,
    Call,
    Cast,
    Constant,
    Function,
    Gep,
    Instruction,
    Load,
    Store,
    Value,
)
from .passes import Pass, PassState, did_any


def interleave_per_lane_objects(fn: Function, div: DivergenceInfo) -> int:
    """Rewrite every varying stack object that only holds elements (module
    doc); returns how many were rewritten."""
    objects = [
        i
        for i in fn.instructions()
        if isinstance(i, Alloca) and not i.interleaved and not div.alloca_is_uniform(i)
    ]
    lanes: dict[Type, tuple[Value, Value]] = {}
    rewritten = 0
    for alloca in objects:
        elem = scalar_element(alloca.allocated)
        plan = _Plan.of(alloca, elem) if elem is not None else None
        if plan is None:
            continue
        t = plan.index_type()
        if t not in lanes:
            lanes[t] = _lane_values(fn, t)
        plan.rewrite(t, *lanes[t])
        rewritten += 1
    return rewritten


def scalar_element(t: Type) -> Type | None:
    """E when ``t`` is a scalar E or an array (of arrays) of E."""
    while isinstance(t, ArrayType):
        t = t.elem
    return t if isinstance(t, (IntType, FloatType, PtrType)) else None


def _units(t: Type, elem: Type) -> int | None:
    """How many elements E a value of type ``t`` spans (None: not made of E)."""
    if scalar_element(t) != elem:
        return None
    return t.size // elem.size


def _lane_values(fn: Function, t: Type) -> tuple[Value, Value]:
    """``@s2s.width()`` and ``@s2s.lane()`` of type ``t`` at the start of the entry block."""
    b = IRBuilder().at_start(fn.entry)
    width = b.insert(Call(WIDTH, [], t, pure=True, name="w"))
    lane = b.insert(Call(LANE, [], t, pure=True, name="lane"))
    return width, lane


MAX_I32_ELEMENTS = (1 << 31) // 64
"""Objects of fewer elements are indexed in 32 bits (j * W + k fits for any W
up to 64), which keeps gathers from them at 32-bit offsets."""


@dataclass
class _Plan:
    """The addresses derived from one alloca and the accesses through them."""

    alloca: Alloca
    elem: Type
    derived: list[Instruction]
    """Casts and geps of the object's addresses, in definition order."""
    accesses: list[Instruction]

    @staticmethod
    def of(alloca: Alloca, elem: Type) -> _Plan | None:
        plan = _Plan(alloca, elem, [], [])
        work: list[Value] = [alloca]
        while work:
            ptr = work.pop()
            for user in ptr.users:
                kind = plan._use_kind(ptr, user)
                if kind is None:
                    return None
                if kind == "address":
                    plan.derived.append(user)
                    work.append(user)
                elif user not in plan.accesses:
                    plan.accesses.append(user)
        return plan  # derived: an address comes after the one it is computed from

    def _use_kind(self, ptr: Value, user: Instruction) -> str | None:
        """``address`` (a derived address), ``access`` or None (escapes)."""
        if isinstance(user, Load) and user.operands[0] is ptr:
            return "access" if user.type == self.elem else None
        if isinstance(user, Store) and user.operands[1] is ptr and user.operands[0] is not ptr:
            return "access" if user.operands[0].type == self.elem else None
        if isinstance(user, Cast) and isinstance(user.type, PtrType):
            return "address" if _units(user.type.pointee, self.elem) else None
        if isinstance(user, Gep) and user.operands[0] is ptr and isinstance(user.type, PtrType):
            return "address" if _units(user.type.pointee, self.elem) else None
        return None

    def index_type(self) -> Type:
        """i32 when every step is an int widened to i64 or a constant and the
        object is small; else i64."""
        small = self.alloca.allocated.size // self.elem.size < MAX_I32_ELEMENTS
        narrow = all(
            isinstance(d, Cast) or _narrow_step(d.operands[1]) is not None for d in self.derived
        )
        return I32 if small and narrow else I64

    def rewrite(self, t: Type, width: Value, lane: Value) -> None:
        a = self.alloca
        b = IRBuilder().after(a)
        soa = b.insert(Alloca(a.allocated, f"{a.name or 'obj'}.soa", interleaved=True))
        base = b.cast(soa, PtrType(self.elem), f"{soa.name}.e")
        index: dict[Value, Value] = {a: Constant(t, 0)}
        for d in self.derived:
            index[d] = self._index_of(d, index, t)
        for access in self.accesses:
            ptr = access.operands[0 if isinstance(access, Load) else 1]
            b = IRBuilder().before(access)
            at = b.add(b.mul(index[ptr], width), lane)
            if t != I64:
                at = b.cast(at, I64)
            access.set_operand(0 if isinstance(access, Load) else 1, b.gep(base, at))
        for d in reversed(self.derived):
            d.erase()
        a.erase()

    def _index_of(self, d: Instruction, index: dict[Value, Value], t: Type) -> Value:
        """The element number ``d`` addresses in one lane's copy (type ``t``)."""
        src = index[d.operands[0]]
        if isinstance(d, Cast):
            return src
        b = IRBuilder().after(d)
        step = _narrow_step(d.operands[1]) if t == I32 else d.operands[1]
        assert step is not None
        if step.type != t:
            step = b.cast(step, t)
        assert isinstance(d.type, PtrType)
        units = _units(d.type.pointee, self.elem)
        assert units is not None  # an address of whole elements (see _use_kind)
        scaled = step if units == 1 else b.mul(step, Constant(t, units))
        return scaled if _is_zero(src) else b.add(src, scaled)


def _narrow_step(step: Value) -> Value | None:
    """The 32-bit value a gep step widens (its cast's operand, a constant that
    fits), or None."""
    if isinstance(step, Cast) and step.operands[0].type == I32:
        return step.operands[0]
    if isinstance(step, Constant) and -(1 << 31) <= step.value < (1 << 31):
        return Constant(I32, step.value)
    if step.type == I32:
        return step
    return None


def _is_zero(v: Value) -> bool:
    return isinstance(v, Constant) and v.value == 0


def _run(state: PassState) -> int:
    return interleave_per_lane_objects(state.fn, state.get(DivergenceInfo))


PASS = Pass("per-lane-storage", _run, requires=(DivergenceInfo,), changed=did_any)
