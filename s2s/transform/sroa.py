"""Scalar replacement of stack objects: locals that live in memory become SSA values.

A struct local, a struct parameter an inlined callee copies, a struct
result's slot, an array indexed by constants only, a scalar whose address
was taken only to be read and written through (``rng(&seed)`` once
``rng`` is inlined) -- each is an ``alloca`` whose address never escapes.
Its scalar pieces (byte offset, type) become SSA variables, so the
vector code keeps them in registers, one vector per field, instead of in
per-lane storage reached by gathers and scatters (LLVM's SROA and
mem2reg; seed 001 Section 6.6 leaves such objects to the front end):

    %r = alloca struct.Range             (removed)
    %lo = fieldaddr %r, lo               (removed)
    store %a, %lo                        (removed)
    ...
    %x = load %lo                  ==>   uses of %x use %a (or a phi
                                         where paths with other stores meet)

An alloca is replaced when every use of its address, through
``fieldaddr``, ``gep`` with a constant index and the decay of an array to
its first element, is the address of a ``load`` or ``store`` of a scalar,
and the pieces those touch are identical or disjoint.  Anything else (the
address passed to a call, stored, compared, selected, indexed by a
variable, read with another type) keeps the object in memory.  A load
before any store reads ``undef``, as the uninitialized object would.

Runs after inlining and before canonicalization, on code without masks.
Keeps the CFG; defines new phis, so analyses of ``fn`` are invalid.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..ir.ssa import SSABuilder
from ..ir.types import ArrayType, PtrType, Type
from ..ir.values import (Alloca, Cast, Constant, FieldAddr, Function, Gep, Instruction, Load,
                         Store, Value)


@dataclass
class _Object:
    """One replaceable alloca: its address computations and accesses."""

    alloca: Alloca
    addresses: list[Instruction] = field(default_factory=list)
    """fieldaddr / gep / cast of the object's address, users before their bases."""
    loads: dict[Load, tuple[int, Type]] = field(default_factory=dict)
    stores: dict[Store, tuple[int, Type]] = field(default_factory=dict)


def replace_stack_objects(fn: Function) -> int:
    """Replace every alloca of ``fn`` that qualifies (module doc); how many."""
    objects = [o for o in map(_analyze, (i for i in fn.instructions()
                                         if isinstance(i, Alloca) and not i.interleaved))
               if o is not None]
    if not objects:
        return 0
    ssa = SSABuilder.for_function(fn)
    for obj in objects:
        _promote(fn, obj, ssa)
    return len(objects)


def _analyze(alloca: Alloca) -> Optional[_Object]:
    """The object's accesses, or None when its address escapes or pieces overlap."""
    obj = _Object(alloca)
    work: list[tuple[Value, int]] = [(alloca, 0)]
    while work:
        ptr, offset = work.pop()
        for user in ptr.users:
            derived = _derived_offset(user, ptr, offset)
            if derived is not None:
                obj.addresses.append(user)
                work.append((user, derived))
            elif isinstance(user, Load) and _scalar(user.type):
                obj.loads[user] = (offset, user.type)
            elif isinstance(user, Store) and user.operands[1] is ptr and \
                    user.operands[0] is not ptr and _scalar(user.operands[0].type):
                obj.stores[user] = (offset, user.operands[0].type)
            else:
                return None
    if any(i.mask is not None for i in [*obj.loads, *obj.stores]):
        return None
    return obj if _pieces_disjoint(obj) else None


def _derived_offset(user: Instruction, base: Value, offset: int) -> Optional[int]:
    """The byte offset of an address computed from ``base`` (None: not one
    of the address computations the replacement can follow)."""
    if isinstance(user, FieldAddr):
        return offset + user.offset
    if isinstance(user, Gep) and user.operands[0] is base and \
            isinstance(user.operands[1], Constant):
        pointee = base.type.pointee  # type: ignore[attr-defined]
        return offset + int(user.operands[1].value) * pointee.size
    if isinstance(user, Cast) and isinstance(base.type, PtrType) and \
            isinstance(base.type.pointee, ArrayType) and \
            user.type == PtrType(base.type.pointee.elem):
        return offset  # an array decays to its first element
    return None


def _scalar(t: Type) -> bool:
    return t.is_int() or t.is_float() or t.is_ptr()


def _pieces_disjoint(obj: _Object) -> bool:
    pieces = sorted(set(obj.loads.values()) | set(obj.stores.values()),
                    key=lambda p: (p[0], str(p[1])))
    for (off, t), (next_off, _) in zip(pieces, pieces[1:]):
        if next_off < off + t.size:
            return False
    return True


def _promote(fn: Function, obj: _Object, ssa: SSABuilder) -> None:
    """Loads read the SSA variable of their piece; the memory goes."""
    names: dict[tuple[int, Type], str] = {}
    for inst, piece in [*obj.loads.items(), *obj.stores.items()]:
        names.setdefault(piece, inst.operands[-1].name or obj.alloca.name or "obj")
    for piece, name in names.items():  # a field's phis are named after the field
        ssa.declare((obj.alloca, piece), piece[1], name)
    for block in fn.blocks:  # a block's last store is its definition
        for inst in block.instructions:
            if inst in obj.stores:
                ssa.write((obj.alloca, obj.stores[inst]), block, inst.operands[0])
    for block in fn.blocks:
        current: dict[tuple[int, Type], Value] = {}
        for inst in list(block.instructions):
            if inst in obj.stores:
                current[obj.stores[inst]] = inst.operands[0]
            elif inst in obj.loads:
                piece = obj.loads[inst]
                value = current.get(piece) or ssa.read_at_start((obj.alloca, piece), block)
                value = ssa.resolve(value)
                ssa.replaced[inst] = value  # definitions that name the load
                inst.replace_all_uses_with(value)
    for inst in [*obj.loads, *obj.stores]:
        inst.erase()
    for inst in reversed(obj.addresses):
        inst.erase()
    obj.alloca.erase()


__all__ = ["replace_stack_objects"]
