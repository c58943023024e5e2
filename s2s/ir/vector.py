"""The vector IR's own instructions.

The vector IR is this IR with vector types (``<8 x f64>``,
``<vscale x 2 x f64>``; masks ``<N x i1>``, s2s/ir/types.py): the code
generator's widening maps the predicated scalar IR of a region to it, and
legalization and selection work on it before the emitter makes C text.
Lanewise arithmetic, compares, selects, casts and ``gep`` are the scalar
instructions on vector operands, as in LLVM; these are the rest:

    %v = splat %x to <8 x f64>        every lane %x
    %s = stepvector <8 x i32>         lane k holds k
    %x = extractlane %v, i32 3        one lane's value
    %w = insertlane %v, %x, i32 3     %v with one lane replaced
    %s = reduce add %v [mask %m]      the lanes (the active ones) combined
    %v = vload <8 x f64>, %p [mask]   lanes from p[0], p[1], ... (contiguous)
    vstore %v, %p [mask %m]           lanes to p[0], p[1], ...
    %v = gather %ptrs [mask %m]       lane k from ptrs[k] (<N x ptr<T>>)
    scatter %v, %ptrs [mask %m]       lane k to ptrs[k], in lane order
    %f = recordload <8 x f64>, %p, slot 1 of 3
                                      lane k from p[k*3 + 1]: one field of N
                                      records of 3 elements
    %h = part <4 x i32>, %v, 1        lanes 4..7 of the <8 x i32> %v: part 1
                                      of its parts of 4 lanes (legalization,
                                      where element types take different
                                      numbers of registers)
    %v = concat %a, %b                the lanes of %a, then those of %b
    %f = rowload <8 x f64>, %ptrs, slot 1 of 5 [mask %m]
                                      lane k from ptrs[k][1]: one element of
                                      each lane's row of 5 (at its own address)
    recordstore %f0, %f1, %f2, %p     lane k of %fs to p[k*3 + s]: N whole
                                      records, field s from %fs

A masked memory instruction touches no memory for an inactive lane; an
inactive lane of a masked gather or vload holds 0.  Record loads and stores
are never masked: they move whole records the loop accesses (the record
groups of s2s.analysis.records), and selection moves the fields of one
group together (the target's ``load_records``/``store_records``).  The row
loads of one row (the row groups of s2s.analysis.rows: the same ``ptrs``,
mask and row length, made together) read each active lane's whole row at
once, so every element of it must be readable when the lane is active.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import I32, VOID, PtrType, Type, VectorType, element_type
from .values import Instruction, Value

REDUCTIONS = ("add", "mul", "min", "max", "and", "or", "xor")


class Splat(Instruction):
    opcode = "splat"

    def __init__(self, value: Value, to: VectorType, name: str = "") -> None:
        super().__init__(to, [value], name)


class StepVector(Instruction):
    opcode = "stepvector"

    def __init__(self, t: VectorType, name: str = "") -> None:
        super().__init__(t, [], name)


class ExtractLane(Instruction):
    opcode = "extractlane"

    def __init__(self, vec: Value, lane: Value, name: str = "") -> None:
        super().__init__(element_type(vec.type), [vec, lane], name)


class InsertLane(Instruction):
    opcode = "insertlane"

    def __init__(self, vec: Value, value: Value, lane: Value, name: str = "") -> None:
        super().__init__(vec.type, [vec, value, lane], name)


class Reverse(Instruction):
    """``reverse %v``: the lanes in the opposite order (lane k of the
    result is lane N - 1 - k of %v): a contiguous access walking downwards
    is a vload or vstore of the lanes in reverse."""

    opcode = "reverse"

    def __init__(self, vec: Value, name: str = "") -> None:
        super().__init__(vec.type, [vec], name)


class Reduce(Instruction):
    """``reduce op %v``: the lanes combined with ``op`` in lane order."""

    opcode = "reduce"

    def __init__(self, op: str, vec: Value, name: str = "") -> None:
        assert op in REDUCTIONS, op
        super().__init__(element_type(vec.type), [vec], name)
        self.op: str = op


class ExtractPart(Instruction):
    """``part <n x T>, %v, j``: lanes ``j*n .. j*n + n - 1`` of %v."""

    opcode = "part"

    def __init__(self, vec: Value, t: VectorType, part: int, name: str = "") -> None:
        super().__init__(t, [vec], name)
        self.part: int = part


class Concat(Instruction):
    """``concat %a, %b, ...``: the lanes of the operands, in order."""

    opcode = "concat"

    def __init__(self, parts: Sequence[Value], name: str = "") -> None:
        first = parts[0].type
        t: Type = first  # the verifier says why when it is no vector
        if isinstance(first, VectorType):
            t = VectorType(first.elem, first.lanes * len(parts), first.scalable)
        super().__init__(t, list(parts), name)


class VLoad(Instruction):
    opcode = "vload"

    def __init__(self, ptr: Value, t: VectorType, name: str = "") -> None:
        super().__init__(t, [ptr], name)


class VStore(Instruction):
    opcode = "vstore"

    def __init__(self, value: Value, ptr: Value) -> None:
        super().__init__(VOID, [value, ptr])

    @property
    def has_side_effects(self) -> bool:
        return True


class Gather(Instruction):
    opcode = "gather"

    def __init__(self, ptrs: Value, name: str = "") -> None:
        super().__init__(gathered_type(ptrs.type), [ptrs], name)


class Scatter(Instruction):
    opcode = "scatter"

    def __init__(self, value: Value, ptrs: Value) -> None:
        super().__init__(VOID, [value, ptrs])

    @property
    def has_side_effects(self) -> bool:
        return True


class RecordLoad(Instruction):
    """Field ``slot`` of N records of ``slots`` elements at ``ptr``."""

    opcode = "recordload"

    def __init__(self, ptr: Value, t: VectorType, slot: int, slots: int, name: str = "") -> None:
        super().__init__(t, [ptr], name)
        self.slot: int = slot
        self.slots: int = slots


class RowLoad(Instruction):
    """Element ``slot`` of each lane's row of ``slots`` elements at ``ptrs[k]``."""

    opcode = "rowload"

    def __init__(self, ptrs: Value, t: VectorType, slot: int, slots: int, name: str = "") -> None:
        super().__init__(t, [ptrs], name)
        self.slot: int = slot
        self.slots: int = slots


class RecordStore(Instruction):
    """N whole records at the last operand, field s from operand s."""

    opcode = "recordstore"

    def __init__(self, fields: Sequence[Value], ptr: Value) -> None:
        super().__init__(VOID, [*fields, ptr])

    @property
    def slots(self) -> int:
        return len(self.operands) - 1

    @property
    def has_side_effects(self) -> bool:
        return True


VECTOR_INSTRUCTIONS = (
    Splat,
    StepVector,
    ExtractLane,
    InsertLane,
    Reverse,
    Reduce,
    ExtractPart,
    Concat,
    VLoad,
    VStore,
    Gather,
    Scatter,
    RecordLoad,
    RowLoad,
    RecordStore,
)


def is_lanewise(inst: Instruction) -> bool:
    """Whether ``inst`` works on lanes: a vector result, operand or mask
    (a call of scalar operands under a vector mask runs once per active lane)."""
    return (
        isinstance(inst.type, VectorType)
        or any(isinstance(o.type, VectorType) for o in inst.operands)
        or (inst.mask is not None and isinstance(inst.mask.type, VectorType))
    )


def gathered_type(ptrs: Type) -> Type:
    """What a gather through ``ptrs`` (``<N x ptr<T>>``) reads: ``<N x T>``."""
    if isinstance(ptrs, VectorType) and isinstance(ptrs.elem, PtrType):
        return ptrs.of(ptrs.elem.pointee)
    return VOID  # the verifier says why


def vector_problem(inst: Instruction) -> str | None:
    """The type error of a vector IR instruction, or None (the verifier)."""
    ops = inst.operands
    t = inst.type
    if isinstance(inst, Splat):
        ok = isinstance(t, VectorType) and t.elem == ops[0].type
        return None if ok else f"splat of {ops[0].type} to {t}"
    if isinstance(inst, StepVector):
        ok = isinstance(t, VectorType) and t.elem.is_int()
        return None if ok else f"stepvector of type {t}"
    if isinstance(inst, (ExtractLane, InsertLane)):
        vec, lane = ops[0], ops[-1]
        if not isinstance(vec.type, VectorType) or lane.type != I32:
            return f"{inst.opcode} of {vec.type} at a lane of type {lane.type}"
        if isinstance(inst, InsertLane) and ops[1].type != vec.type.elem:
            return f"insertlane of {ops[1].type} into {vec.type}"
        return None
    if isinstance(inst, Reverse):
        ok = isinstance(t, VectorType) and t == ops[0].type
        return None if ok else f"reverse of {ops[0].type} to {t}"
    if isinstance(inst, ExtractPart):
        vt = ops[0].type
        ok = (
            isinstance(vt, VectorType)
            and isinstance(t, VectorType)
            and t.elem == vt.elem
            and not vt.scalable
            and vt.lanes % t.lanes == 0
            and 0 <= inst.part < vt.lanes // t.lanes
        )
        return None if ok else f"part {inst.part} of {vt} as {t}"
    if isinstance(inst, Concat):
        vts = [o.type for o in ops]
        ok = (
            len(ops) >= 2
            and all(isinstance(v, VectorType) and v == vts[0] for v in vts)
            and isinstance(t, VectorType)
            and isinstance(vts[0], VectorType)
            and t.elem == vts[0].elem
            and t.lanes == vts[0].lanes * len(ops)
        )
        return None if ok else f"concat of {', '.join(map(str, vts))} to {t}"
    if isinstance(inst, Reduce):
        vt = ops[0].type
        if not isinstance(vt, VectorType) or not (vt.elem.is_int() or vt.elem.is_float()):
            return f"reduce of {vt}"
        if inst.op in ("and", "or", "xor") and not vt.elem.is_int():
            return f"reduce {inst.op} of {vt}"
        return None
    if isinstance(inst, (VLoad, VStore)):
        vt = t if isinstance(inst, VLoad) else ops[0].type
        ptr = ops[-1].type
        if not isinstance(vt, VectorType) or vt != _vector_of_pointee(ptr, vt):
            return f"{inst.opcode} of {vt} through {ptr}"
        return None
    if isinstance(inst, RecordLoad):
        ok = isinstance(t, VectorType) and t == _vector_of_pointee(ops[0].type, t)
        if not ok or not 0 <= inst.slot < inst.slots:
            return f"recordload of {t} through {ops[0].type}, slot {inst.slot} of {inst.slots}"
        return None
    if isinstance(inst, RowLoad):
        ok = isinstance(t, VectorType) and t == gathered_type(ops[0].type)
        if not ok or not 0 <= inst.slot < inst.slots:
            return f"rowload of {t} through {ops[0].type}, slot {inst.slot} of {inst.slots}"
        return None
    if isinstance(inst, RecordStore):
        vt = ops[0].type
        ok = isinstance(vt, VectorType) and vt == _vector_of_pointee(ops[-1].type, vt)
        if not ok or any(o.type != vt for o in ops[:-1]):
            return (
                f"recordstore of {', '.join(str(o.type) for o in ops[:-1])} through {ops[-1].type}"
            )
        return None
    if isinstance(inst, (Gather, Scatter)):
        ptrs = ops[-1].type
        vt = t if isinstance(inst, Gather) else ops[0].type
        return (
            None
            if vt != VOID and vt == gathered_type(ptrs)
            else f"{inst.opcode} of {vt} through {ptrs}"
        )
    return None


def _vector_of_pointee(ptr: Type, like: VectorType) -> Type:
    return like.of(ptr.pointee) if isinstance(ptr, PtrType) else VOID
