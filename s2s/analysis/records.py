"""Record groups: strided field accesses that can move whole records at once.

An array of structs read field by field (``p[i].x``, ``p[i].y`` ...) gives
strided accesses whose stride is the record size.  When a block touches
enough fields of the same records, the code generator can load the W
records' bytes with contiguous vector loads and de-interleave them into one
vector per field (and interleave + store contiguously for stores) instead
of gathering every field.  This analysis finds those groups; it changes
nothing.

A group is a run of accesses in one block, in program order, such that

  1. every member is a load or store with the memory analysis' kind
     ``strided``, no lane mask and no varying activation (an inactive lane
     must never touch memory, so masked accesses keep their gathers);
  2. its address is ``fieldaddr* base`` (``base`` itself: offset 0) where
     ``base`` is a pointer to a struct whose size is the (positive) stride,
     so the W records ``base[0..W-1]`` are whole objects the loop accesses:
     reading all their bytes cannot fault; or it is ``p[k*i + c]``, an
     element of an array read with a stride of k elements (``gep p, X + c``,
     the index a signed ``add`` of a constant c, 0 <= c < k, sign-extended
     or not): the records are the k elements from ``p[X]``, and the group
     must access slots 0 and k - 1, so that every byte it reads lies
     between two elements the loop reads (an array is one object).  Its
     base is the address of its slot-0 member where that is computed
     before the group's first member, else the first member's own address
     (``start``: its slot, so the records begin ``start`` elements before
     it; ``x[2*k + 1]`` read before ``x[2*k]``);
  3. every member has one element type T (int or float), all offsets are
     multiples of sizeof T and the record is ``slots`` = size / sizeof T
     elements (2 to 8) -- a record mixing types stays with gathers;
  4. between the first and the last member nothing else writes memory (a
     store outside the group, a call with effects) and, once a member has
     stored, nothing else reads memory: the group's loads happen at its
     first member and its stores at its last store, so other accesses must
     not see the difference.  Such an instruction ends the group; later
     members start a new one.
  5. at least half of the slots are touched (else gathers move fewer bytes).

Loads of a group read the records once; a later member load of a slot
stored before in the group reads the stored value (lane j's own bytes).
``needs_load``: the group must read the records first (it loads a slot, or
it stores only some slots, whose old bytes are written back unchanged).

Counting: a grouped access is still one ``strided`` access in the report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..ir.types import FloatType, IntType, PtrType, StructType, Type
from ..ir.values import (
    BinOp,
    Call,
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
from .divergence import DivergenceInfo
from .memory import MemoryAccess
from .rows import RowGroup, compute_row_groups

MAX_SLOTS = 8
"""Records of more elements are left to gathers (the shuffles grow with slots**2)."""


@dataclass(eq=False)
class RecordGroup:
    """Accesses of one block to the same W records (see the module doc)."""

    base: Value
    """Pointer to slot ``start`` of lane 0's record (its shape has stride
    ``size``); defined before the group's first member."""
    elem: Type
    """Element type of every member."""
    slots: int
    """Elements of type ``elem`` per record."""
    members: list[tuple[Instruction, int]] = field(default_factory=list[tuple[Instruction, int]])
    """(load or store, slot) in program order."""
    array: bool = False
    """Elements of an array read with a stride (``p[k*i + c]``), not structs."""
    start: int = 0
    """The slot ``base`` points at: lane 0's record begins ``start``
    elements before ``base`` (array groups whose slot-0 address is computed
    only after their first member)."""

    @property
    def first(self) -> Instruction:
        return self.members[0][0]

    @property
    def last_store(self) -> Instruction | None:
        stores = [i for i, _ in self.members if isinstance(i, Store)]
        return stores[-1] if stores else None

    @property
    def stored_slots(self) -> set[int]:
        return {s for i, s in self.members if isinstance(i, Store)}

    @property
    def needs_load(self) -> bool:
        loads = any(isinstance(i, Load) for i, _ in self.members)
        return loads or len(self.stored_slots) != self.slots

    def slot_of(self, inst: Instruction) -> int:
        return next(s for i, s in self.members if i is inst)


@dataclass(frozen=True)
class RecordInfo:
    """The record groups of a region, and its row groups (s2s.analysis.rows:
    a record per lane at the lane's own address)."""

    groups: tuple[RecordGroup, ...]
    by_inst: dict[Instruction, RecordGroup]
    rows: tuple[RowGroup, ...] = ()

    def group_of(self, inst: Instruction) -> RecordGroup | None:
        return self.by_inst.get(inst)


def compute_record_groups(
    fn: Function, div: DivergenceInfo, mem: Mapping[Instruction, MemoryAccess]
) -> RecordInfo:
    """Find the record groups of every reachable block of ``fn``, and its
    row groups."""
    candidates = {i: c for i, acc in mem.items() if (c := _candidate(i, acc, div)) is not None}
    _drop_mixed_types(candidates)
    groups: list[RecordGroup] = []
    for block in fn.blocks:
        if div.cfg.reachable(block):
            groups.extend(_block_groups(block.instructions, candidates))
    kept = tuple(
        g for g in groups if 2 * len({s for _, s in g.members}) >= g.slots and _array_group_based(g)
    )
    rows = compute_row_groups(fn, div, mem)
    return RecordInfo(kept, {i: g for g in kept for i, _ in g.members}, rows)


Candidate = tuple[Value | tuple[Value, Value, bool], Type, int, int]
"""(base, element type, slots, slot) of an access that may join a group; the
base of an array element ``p[X + c]`` is (p, X, whether X is sign-extended)."""


def _candidate(inst: Instruction, acc: MemoryAccess, div: DivergenceInfo) -> Candidate | None:
    """Conditions 1-3 for one access."""
    if acc.kind != "strided" or acc.masked:
        return None
    if inst.mask is not None:
        return None
    elem = inst.type if isinstance(inst, Load) else inst.operands[0].type
    if not isinstance(elem, (IntType, FloatType)) or elem.bits < 8:
        return None
    ptr = inst.operands[0] if isinstance(inst, Load) else inst.operands[1]
    base, offset = _field_chain(ptr)
    if not isinstance(base.type, PtrType) or not isinstance(base.type.pointee, StructType):
        return _array_candidate(ptr, elem, acc)
    size, esize = base.type.pointee.size, elem.size
    if div.shape_of(base).stride != size or acc.stride != size or size <= 0:
        return None
    if size % esize or offset % esize or offset + esize > size:
        return None
    slots = size // esize
    if not 2 <= slots <= MAX_SLOTS:
        return None
    return base, elem, slots, offset // esize


def _array_candidate(ptr: Value, elem: Type, acc: MemoryAccess) -> Candidate | None:
    """``p[X + c]`` read or written with a stride of k elements (condition 2)."""
    stride = acc.stride
    if not isinstance(ptr, Gep) or ptr.type != PtrType(elem) or stride is None:
        return None
    if stride % elem.size:
        return None
    slots = stride // elem.size
    index = ptr.operands[1]
    extended = isinstance(index, Cast)
    inner = index.operands[0] if isinstance(index, Cast) else index
    if not isinstance(inner.type, IntType) or (extended and not inner.type.signed):
        return None  # zext(X + c) is not zext(X) + c where X + c wraps
    start, c = inner, 0
    if isinstance(inner, BinOp) and inner.op == "add" and inner.type.signed:
        a, b = inner.operands
        if isinstance(a, Constant):
            a, b = b, a
        if isinstance(b, Constant):
            start, c = a, int(b.value)
    if not 2 <= slots <= MAX_SLOTS or not 0 <= c < slots:
        return None
    return (ptr.operands[0], start, extended), elem, slots, c


def _array_group_based(group: RecordGroup) -> bool:
    """An array group (condition 2) accesses its records' first and last
    slots; its base becomes the address of slot 0 (lane 0's record) when
    that is defined before the group's first member, where the records are
    loaded, else stays the first member's address, ``start`` slots into
    the record."""
    if not group.array:
        return True
    slots = {s for _, s in group.members}
    if 0 not in slots or group.slots - 1 not in slots:
        return False
    head = _address(next(i for i, s in group.members if s == 0))
    if _defined_before(head, group.first):
        group.base, group.start = head, 0
    else:
        group.base, group.start = _address(group.first), group.members[0][1]
    return True


def _defined_before(value: Value, inst: Instruction) -> bool:
    """Whether ``value``, an operand of an instruction in ``inst``'s block,
    is available at ``inst``: not an instruction of that block at or after
    it (one of another block dominates the block: SSA)."""
    if not isinstance(value, Instruction) or value.block is not inst.block:
        return True
    insts = inst.parent.instructions
    return insts.index(value) < insts.index(inst)


def _address(inst: Instruction) -> Value:
    return inst.operands[0] if isinstance(inst, Load) else inst.operands[1]


def _field_chain(ptr: Value) -> tuple[Value, int]:
    """Strip ``fieldaddr``s: (the struct pointer underneath, byte offset)."""
    offset = 0
    while isinstance(ptr, FieldAddr):
        offset += ptr.offset
        ptr = ptr.operands[0]
    return ptr, offset


def _drop_mixed_types(candidates: dict[Instruction, Candidate]) -> None:
    """Condition 3 across the region: one element type per base."""
    types: dict[object, set[Type]] = {}
    for base, elem, _, _ in candidates.values():
        types.setdefault(base, set()).add(elem)
    for inst in [i for i, c in candidates.items() if len(types[c[0]]) > 1]:
        del candidates[inst]


def _block_groups(
    insts: list[Instruction], candidates: dict[Instruction, Candidate]
) -> list[RecordGroup]:
    """Condition 4: scan one block, closing groups at conflicting accesses."""
    open_: dict[object, RecordGroup] = {}
    done: list[RecordGroup] = []
    for inst in insts:
        cand = candidates.get(inst)
        for base in list(open_):
            if (cand is None or cand[0] != base) and _conflicts(inst, open_[base]):
                done.append(open_.pop(base))
        if cand is None:
            continue
        base, elem, slots, slot = cand
        if base not in open_:
            open_[base] = (
                RecordGroup(base, elem, slots)
                if isinstance(base, Value)
                else RecordGroup(_address(inst), elem, slots, array=True)
            )
        group = open_[base]
        group.members.append((inst, slot))
    return done + list(open_.values())


def _conflicts(inst: Instruction, group: RecordGroup) -> bool:
    """Would moving the group's loads up / stores down past ``inst`` change it?"""
    if isinstance(inst, Store) or (isinstance(inst, Call) and not inst.pure):
        return True
    return isinstance(inst, Load) and bool(group.stored_slots)


def print_record_groups(info: RecordInfo) -> str:
    """One line per group: base, element type, slots and members (slot:op)."""
    lines: list[str] = []
    for g in info.groups:
        members = " ".join(f"{s}:{'st' if isinstance(i, Store) else 'ld'}" for i, s in g.members)
        at = f" at slot {g.start}" if g.start else ""
        lines.append(
            f"records %{g.base.name}{at} {g.elem} x{g.slots} "
            f"{'load ' if g.needs_load else ''}[{members}]"
        )
    return "\n".join(lines)
