"""Row groups: gathers that read a short row of elements at each lane's address.

Code that interpolates in a table (``below[c] + f * (above[c] - below[c])``
for the channels ``c`` of a row found by a search) gathers the elements of
one row of consecutive elements per lane, one gather per element.  When a
run of loads reads enough of the same row, the code generator can copy each
active lane's row (one short contiguous copy per lane) and transpose the W
rows into one vector per element instead of gathering every element.  This
analysis finds those groups; it changes nothing.

Addresses are normalized to ``anchor[index + offset]``: constant ``gep``s
are stripped (their element counts add up), and a last ``gep B, x + c``
(``add``/``sub`` of a constant, or none) becomes anchor ``B``, index ``x``,
offset ``c``; any other address is its own anchor with no index.  A signed
``x + c`` converted to a wider integer is ``x`` converted, plus ``c``: C
leaves signed overflow undefined, so the sum did not wrap.  (An unsigned sum
may wrap; converted, it stays an index of its own.)  A group is a
set of loads such that

  1. every member is a load of the memory analysis' kind ``gather`` of an
     int or float element (8 to 64 bits), with one anchor, index, element
     type and lane mask (the same value, or none for all); a load that may
     run with inactive lanes carries its mask;
  2. the members lie on a straight-line run of blocks (each block after the
     first has the one before as its only predecessor, which jumps to it
     unconditionally), so whenever the first member runs, every member runs
     for the same lanes;
  3. between the first and the last member nothing writes memory (a store, a
     call with effects): the copies happen at the first member.  Such an
     instruction ends the groups open at it; later loads start new ones;
  4. the offsets, cut into chunks of at most MAX_SLOTS (as equal as
     possible), give each chunk its row: the elements from its smallest to
     its largest member offset.  Every active lane reads both ends, so the
     elements between are in the same object: copying them cannot fault.
     A chunk is a group when it has two distinct offsets and touches at
     least half of its row (else the gathers move fewer bytes).

Counting: a grouped load is still one ``gather`` in the report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..ir.types import FloatType, IntType, Type
from ..ir.values import (
    BinOp,
    Block,
    Br,
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
from .divergence import DivergenceInfo
from .memory import MemoryAccess

MAX_SLOTS = 8
"""Elements per row at most (the transposes grow with slots**2)."""


@dataclass(eq=False)
class RowGroup:
    """Loads of one row per lane (see the module doc): lane k's row starts
    ``first`` elements after ``&anchor[index]`` (``anchor`` without an index)."""

    anchor: Value
    index: Value | None
    widen: Type | None
    """The wider integer type ``index`` is converted to first, if any."""
    first: int
    """Element offset of the row's slot 0 from ``anchor[index]``."""
    elem: Type
    slots: int
    mask: Value | None
    members: list[tuple[Load, int]] = field(default_factory=list[tuple[Load, int]])
    """(load, slot) in program order."""

    def slot_of(self, inst: Instruction) -> int:
        return next(s for i, s in self.members if i is inst)


Address = tuple[Value, Value | None, Type | None, int]
"""(anchor, index, the type it is widened to, element offset) of a load's
address."""


def compute_row_groups(
    fn: Function, div: DivergenceInfo, mem: Mapping[Instruction, MemoryAccess]
) -> tuple[RowGroup, ...]:
    """The row groups of every reachable straight-line run of ``fn``."""
    groups: list[RowGroup] = []
    for run in _straight_runs(fn, div):
        for key, members in _run_candidates(run, mem):
            groups.extend(_chunks(key, members))
    return tuple(groups)


def _straight_runs(fn: Function, div: DivergenceInfo) -> list[list[Instruction]]:
    """The instructions of each maximal chain of blocks joined by a ``br``
    to a block with no other predecessor (condition 2)."""
    preds = fn.predecessors()

    def continues(b: Block) -> Block | None:
        term = b.terminator
        if isinstance(term, Br) and len(preds[term.target]) == 1 and term.target is not b:
            return term.target
        return None

    nexts = {b: n for b in fn.blocks if (n := continues(b)) is not None}
    inner = set(nexts.values())
    runs: list[list[Instruction]] = []
    for b in fn.blocks:
        if b in inner or not div.cfg.reachable(b):
            continue
        insts: list[Instruction] = []
        seen: set[Block] = set()
        cur: Block | None = b
        while cur is not None and cur not in seen:
            seen.add(cur)
            insts.extend(cur.instructions)
            cur = nexts.get(cur)
        runs.append(insts)
    return runs


Key = tuple[Value, Value | None, Type | None, Type, Value | None]
"""(anchor, index, its widened type, element type, mask) shared by a
group's members."""


def _run_candidates(
    insts: list[Instruction], mem: Mapping[Instruction, MemoryAccess]
) -> list[tuple[Key, list[tuple[Load, int]]]]:
    """Condition 1 and 3 along one run: the loads of each key between two
    writes, with their offsets."""
    open_: dict[Key, list[tuple[Load, int]]] = {}
    done: list[tuple[Key, list[tuple[Load, int]]]] = []
    for inst in insts:
        if isinstance(inst, Store) or (isinstance(inst, Call) and not inst.pure):
            done.extend(open_.items())
            open_ = {}
            continue
        found = _candidate(inst, mem.get(inst)) if isinstance(inst, Load) else None
        if isinstance(inst, Load) and found is not None:
            key, offset = found
            open_.setdefault(key, []).append((inst, offset))
    return done + list(open_.items())


def _candidate(inst: Load, acc: MemoryAccess | None) -> tuple[Key, int] | None:
    if acc is None or acc.kind != "gather":
        return None
    if acc.masked and inst.mask is None:
        return None
    elem = inst.type
    if not isinstance(elem, (IntType, FloatType)) or elem.bits < 8:
        return None
    anchor, index, widen, offset = row_address(inst.operands[0])
    return (anchor, index, widen, elem, inst.mask), offset


def row_address(ptr: Value) -> Address:
    """``ptr`` as ``anchor[index + offset]`` (module doc)."""
    offset = 0
    while (
        isinstance(ptr, Gep)
        and isinstance(ptr.operands[1], Constant)
        and ptr.operands[0].type == ptr.type
    ):
        offset += int(ptr.operands[1].value)
        ptr = ptr.operands[0]
    if isinstance(ptr, Gep) and ptr.operands[0].type == ptr.type:
        index, widen = ptr.operands[1], None
        if isinstance(index, Cast) and _widens_signed(index):
            widen, index = index.type, index.operands[0]
        index, c = _constant_term(index)
        return ptr.operands[0], index, widen, offset + c
    return ptr, None, None, offset


def _widens_signed(v: Cast) -> bool:
    """A conversion of a signed integer to a wider integer type."""
    if not isinstance(v.type, IntType):
        return False
    source = v.operands[0].type
    return isinstance(source, IntType) and source.signed and source.bits < v.type.bits


def _constant_term(v: Value) -> tuple[Value, int]:
    """``x + c`` or ``x - c`` as (x, c); anything else as (v, 0)."""
    if isinstance(v, BinOp) and v.op in ("add", "sub") and isinstance(v.operands[1], Constant):
        c = int(v.operands[1].value)
        return v.operands[0], c if v.op == "add" else -c
    if isinstance(v, BinOp) and v.op == "add" and isinstance(v.operands[0], Constant):
        return v.operands[1], int(v.operands[0].value)
    return v, 0


def _chunks(key: Key, members: list[tuple[Load, int]]) -> list[RowGroup]:
    """Condition 4: the rows of one key's loads."""
    offsets = sorted({o for _, o in members})
    span = offsets[-1] - offsets[0] + 1
    count = -(-span // MAX_SLOTS)
    size = -(-span // count)
    anchor, index, widen, elem, mask = key
    groups: list[RowGroup] = []
    for j in range(count):
        lo = offsets[0] + j * size
        mine = [(i, o) for i, o in members if lo <= o < lo + size]
        touched = {o for _, o in mine}
        if len(touched) < 2:
            continue
        first, last = min(touched), max(touched)
        slots = last - first + 1
        if 2 * len(touched) < slots:
            continue
        group = RowGroup(anchor, index, widen, first, elem, slots, mask)
        group.members = [(i, o - first) for i, o in mine]
        groups.append(group)
    return groups


def print_row_groups(groups: tuple[RowGroup, ...]) -> str:
    """One line per group: its row's start, element type, slots, members."""
    lines: list[str] = []
    for g in groups:
        index = "" if g.index is None else f"%{g.index.name}"
        index = f"({g.widen}){index}" if g.widen is not None else index
        at = f"%{g.anchor.name}" + (f"[{index}]" if index else "")
        mask = f" mask %{g.mask.name}" if g.mask is not None else ""
        slots = " ".join(f"{s}:%{i.name}" for i, s in g.members)
        lines.append(f"rows {at} + {g.first} {g.elem} x{g.slots}{mask} [{slots}]")
    return "\n".join(lines)
