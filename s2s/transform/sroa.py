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
and the pieces those touch are identical or disjoint.  An array of at most
``MAX_INDEXED`` scalars may also be read and written at a variable index
(``macro[best]``): a load becomes a chain of selects on the index, a store
a select per element.  Anything else (the address passed to a call,
stored, compared, selected, a larger array indexed by a variable, read
with another type) keeps the object in memory.  A load
before any store reads ``undef``, as the uninitialized object would.

Runs after inlining and before canonicalization, on code without masks.
Keeps the CFG; defines new phis, so analyses of ``fn`` are invalid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from ..analysis.cfg import cfg_of
from ..ir.builder import IRBuilder
from ..ir.ssa import SSABuilder
from ..ir.types import ArrayType, PtrType, Type
from ..ir.values import (
    Alloca,
    Block,
    Cast,
    Constant,
    FieldAddr,
    Function,
    Gep,
    Instruction,
    Load,
    Store,
    Value,
)
from .passes import Pass, PassState, did_any


@dataclass
class _Object:
    """One replaceable alloca: its address computations and accesses."""

    alloca: Alloca
    addresses: list[Instruction] = field(default_factory=list[Instruction])
    """fieldaddr / gep / cast of the object's address, users before their bases."""
    loads: dict[Load, tuple[int, Type]] = field(default_factory=dict[Load, tuple[int, Type]])
    stores: dict[Store, tuple[int, Type]] = field(default_factory=dict[Store, tuple[int, Type]])
    indexed: dict[Instruction, Value] = field(default_factory=dict[Instruction, Value])
    """Loads and stores of an element at a variable index: the index."""
    elements: list[tuple[int, Type]] = field(default_factory=list[tuple[int, Type]])
    """The pieces a variable index chooses from (a small array's elements)."""

    def pieces(self) -> set[tuple[int, Type]]:
        return set(self.loads.values()) | set(self.stores.values()) | set(self.elements)


def replace_stack_objects(fn: Function) -> int:
    """Replace every alloca of ``fn`` that qualifies (module doc); how many."""
    objects = [
        o
        for o in map(
            _analyze, (i for i in fn.instructions() if isinstance(i, Alloca) and not i.interleaved)
        )
        if o is not None
    ]
    if objects:
        _promote(fn, objects)
    return len(objects)


def _analyze(alloca: Alloca) -> _Object | None:
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
            elif _element_at_variable_index(obj, user, ptr, offset):
                obj.addresses.append(user)
            elif isinstance(user, Load) and _scalar(user.type):
                obj.loads[user] = (offset, user.type)
            elif (
                isinstance(user, Store)
                and user.operands[1] is ptr
                and user.operands[0] is not ptr
                and _scalar(user.operands[0].type)
            ):
                obj.stores[user] = (offset, user.operands[0].type)
            else:
                return None
    if any(i.mask is not None for i in [*obj.loads, *obj.stores, *obj.indexed]):
        return None
    return obj if _pieces_disjoint(obj) else None


def _element_at_variable_index(obj: _Object, user: Instruction, base: Value, offset: int) -> bool:
    """``gep`` of a small array of scalars at a variable index whose every
    use is a load or a store of an element: recorded in ``obj.indexed``."""
    alloca = obj.alloca
    allocated = alloca.allocated
    if not (
        isinstance(user, Gep)
        and offset == 0
        and isinstance(allocated, ArrayType)
        and allocated.count <= MAX_INDEXED
        and _scalar(allocated.elem)
        and base.type == PtrType(allocated.elem)
        and user.operands[0] is base
    ):
        return False
    accesses = list(user.users)
    if not all(
        isinstance(a, Load)
        or (isinstance(a, Store) and a.operands[1] is user and a.operands[0] is not user)
        for a in accesses
    ):
        return False
    for a in accesses:
        obj.indexed[a] = user.operands[1]
    size = allocated.elem.size
    obj.elements = [(j * size, allocated.elem) for j in range(allocated.count)]
    return True


MAX_INDEXED = 8
"""Most elements of an array read or written at a variable index that is
still replaced (a load is a chain of selects, a store a select per element)."""


def _derived_offset(user: Instruction, base: Value, offset: int) -> int | None:
    """The byte offset of an address computed from ``base`` (None: not one
    of the address computations the replacement can follow)."""
    if isinstance(user, FieldAddr):
        return offset + user.offset
    if (
        isinstance(user, Gep)
        and user.operands[0] is base
        and isinstance(user.operands[1], Constant)
    ):
        assert isinstance(base.type, PtrType)
        return offset + int(user.operands[1].value) * base.type.pointee.size
    if (
        isinstance(user, Cast)
        and isinstance(base.type, PtrType)
        and isinstance(base.type.pointee, ArrayType)
        and user.type == PtrType(base.type.pointee.elem)
    ):
        return offset  # an array decays to its first element
    return None


def _scalar(t: Type) -> bool:
    return t.is_int() or t.is_float() or t.is_ptr()


def _pieces_disjoint(obj: _Object) -> bool:
    pieces = sorted(obj.pieces(), key=lambda p: (p[0], str(p[1])))
    return all(next_off >= off + t.size for (off, t), (next_off, _) in pairwise(pieces))


def _promote(fn: Function, objects: list[_Object]) -> None:
    """Loads read the SSA variables of their pieces, stores write them, in
    one pass over the blocks in reverse post-order (Braun et al.: a block is
    sealed once its predecessors are filled); the memory goes."""
    ssa = SSABuilder()
    for block in fn.blocks:
        ssa.add_block(block)
    preds = fn.predecessors()
    for block, sources in preds.items():
        for src in sources:
            ssa.add_edge(src, block)
    accesses: dict[Instruction, _Object] = {}
    for obj in objects:
        _declare(obj, ssa)
        accesses.update({i: obj for i in [*obj.loads, *obj.stores, *obj.indexed]})
    filled: set[Block] = set()
    for block in cfg_of(fn).rpo:
        if all(p in filled for p in preds[block]):
            ssa.seal(block)
        current: dict[tuple[Alloca, int, Type], Value] = {}
        for inst in list(block.instructions):
            obj = accesses.get(inst)
            if obj is not None:
                _replace_access(obj, inst, block, current, ssa)
        for var, value in current.items():
            ssa.write(var, block, value)
        filled.add(block)
        for succ in block.successors:
            if succ not in ssa.sealed and all(p in filled for p in preds[succ]):
                ssa.seal(succ)
    for obj in objects:
        for inst in [*obj.loads, *obj.stores, *obj.indexed]:
            inst.erase()
        for inst in reversed(obj.addresses):
            inst.erase()
        obj.alloca.erase()


def _declare(obj: _Object, ssa: SSABuilder) -> None:
    names: dict[tuple[int, Type], str] = {}
    for inst, piece in [*obj.loads.items(), *obj.stores.items()]:
        names.setdefault(piece, inst.operands[-1].name or obj.alloca.name or "obj")
    for piece in obj.pieces():  # a field's phis are named after the field
        ssa.declare((obj.alloca, *piece), piece[1], names.get(piece, obj.alloca.name or "obj"))


def _replace_access(
    obj: _Object,
    inst: Instruction,
    block: Block,
    current: dict[tuple[Alloca, int, Type], Value],
    ssa: SSABuilder,
) -> None:
    def value_of(piece: tuple[int, Type]) -> Value:
        var = (obj.alloca, *piece)
        return ssa.resolve(current.get(var) or ssa.read(var, block))

    if inst in obj.indexed:
        index = obj.indexed[inst]
        # read first: reading may place phis at the block's start
        old = [value_of(piece) for piece in obj.elements]
        b = IRBuilder().before(inst)
        if isinstance(inst, Store):
            for j, piece in enumerate(obj.elements):
                chosen = b.cmp("eq", index, Constant(index.type, j))
                current[(obj.alloca, *piece)] = b.select(chosen, inst.operands[0], old[j])
            return
        value = old[-1]
        for j in reversed(range(len(old) - 1)):
            value = b.select(b.cmp("eq", index, Constant(index.type, j)), old[j], value)
        _replace_load(inst, value, ssa)
    elif isinstance(inst, Store):
        current[(obj.alloca, *obj.stores[inst])] = inst.operands[0]
    else:
        assert isinstance(inst, Load)
        _replace_load(inst, value_of(obj.loads[inst]), ssa)


def _replace_load(load: Instruction, value: Value, ssa: SSABuilder) -> None:
    ssa.replaced[load] = value  # definitions that name the load
    load.replace_all_uses_with(value)


__all__ = ["replace_stack_objects"]


def _run(state: PassState) -> int:
    return replace_stack_objects(state.fn)


PASS = Pass("sroa", _run, changed=did_any)
