"""Memory access shapes: how each load and store touches memory across lanes.

From the vector shape of the address (bytes) and the element size:

  * ``uniform``     every lane uses one address (stride 0)
  * ``contiguous``  stride == element size: one vector load/store
  * ``strided``     another constant stride (also negative, e.g. reversed arrays)
  * ``gather``      unrelated addresses, load
  * ``scatter``     unrelated addresses, store

``alignment`` is what lane 0's address is a multiple of (bytes), so a
contiguous access is vector-aligned when ``alignment % (W * elem_size) == 0``.
``masked`` says the access may run with inactive lanes (it depends on a
divergent branch or carries a mask) so the code generator must predicate it.
Accesses into a per-lane stack object also name the ``alloca`` and the shape
of the offset inside each lane's copy (``lane_offset``), so the code
generator may pick a layout that makes them contiguous.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.types import IntType, PtrType
from ..ir.values import Alloca, Cast, FieldAddr, Function, Gep, Instruction, Load, Store, Value
from .divergence import DivergenceInfo
from .shapes import VectorShape
from .transfer import add_shapes, scale_shape


@dataclass(frozen=True)
class MemoryAccess:
    """The lane pattern of one load or store."""

    inst: Instruction
    kind: str
    """``uniform``, ``contiguous``, ``strided``, ``gather`` or ``scatter``."""
    stride: int | None
    """Byte distance between neighbouring lanes' addresses (None if unrelated)."""
    alignment: int
    """Lane 0's address is a multiple of this many bytes (0: null)."""
    elem_size: int
    """Bytes read or written per lane."""
    masked: bool = False
    """Some lanes may be inactive when the access runs."""
    alloca: Alloca | None = None
    """The per-lane (varying) stack object accessed, if any."""
    lane_offset: VectorShape | None = None
    """For per-lane stack objects: shape of the byte offset inside each lane's copy."""
    indexed: IndexedAddress | None = None
    """The address as ``base[index]`` when a gather or scatter can take the
    index itself (``indexed_address``); None otherwise."""

    @property
    def is_load(self) -> bool:
        return isinstance(self.inst, Load)

    @property
    def is_reverse(self) -> bool:
        """Contiguous but walking downwards (stride == -elem_size)."""
        return self.stride == -self.elem_size

    def is_aligned(self, vector_bytes: int) -> bool:
        """Lane 0's address is a multiple of ``vector_bytes``."""
        return self.alignment != 0 and self.alignment % vector_bytes == 0


@dataclass(frozen=True)
class IndexedAddress:
    """An address ``base + index * elem_size`` a gather or scatter reaches
    from the index itself, without a vector of 64-bit addresses."""

    base: Value
    """Uniform."""
    index: Value
    """A signed 32-bit or a 64-bit integer, not uniform (with ``parts``:
    the last gep's index)."""
    elem_size: int
    """1, 2, 4 or 8 bytes."""
    parts: tuple[Value, ...] = ()
    """Several geps ``base + p0 + p1 + ...`` (a varying pointer made from
    a uniform one): the index is their sum in 64 bits, which cannot wrap
    where the pointer arithmetic does not (every partial sum is an offset
    inside the object); empty for one gep (``index``)."""

    @property
    def index_bits(self) -> int:
        if self.parts:
            return 64
        t = self.index.type
        assert isinstance(t, IntType)
        return t.bits


def indexed_address(ptr: Value, div: DivergenceInfo) -> IndexedAddress | None:
    """``gep base, index`` with a uniform base, elements of 1, 2, 4 or 8
    bytes and a non-uniform index of a signed 32-bit or a 64-bit type; a
    64-bit index that sign-extends a signed 32-bit one is taken as that one
    (gathers sign-extend their 32-bit indices anyway).  A chain of geps
    from a uniform base (``g = grid + nuc * N; g[mid]``) is that base and
    the sum of the chain's indices in 64 bits.  The one rule the width
    choice and widening share."""
    if not isinstance(ptr, Gep) or not isinstance(ptr.type, PtrType):
        return None
    if not _lane_invariant(ptr.operands[0], div):
        return _chained_address(ptr, div)
    index = ptr.operands[1]
    size = ptr.type.pointee.size
    if size not in (1, 2, 4, 8) or not isinstance(index.type, IntType):
        return None
    if (
        isinstance(index, Cast)
        and index.type.bits == 64
        and _signed_i32(index.operands[0])
        and not _lane_invariant(index.operands[0], div)
    ):
        index = index.operands[0]
    wide = isinstance(index.type, IntType) and index.type.bits == 64
    if _lane_invariant(index, div) or not (wide or _signed_i32(index)):
        return None
    return IndexedAddress(ptr.operands[0], index, size)


def _chained_address(ptr: Gep, div: DivergenceInfo) -> IndexedAddress | None:
    """``gep (gep ... (gep base, p0) ..., pn-1), pn`` with a uniform base:
    the base and the indices p0 .. pn (integers of any width; each one is
    sign- or zero-extended to 64 bits as the gep does)."""
    parts: list[Value] = []
    v: Value = ptr
    while isinstance(v, Gep) and not _lane_invariant(v, div):
        parts.append(v.operands[1])
        v = v.operands[0]
    size = ptr.type.pointee.size if isinstance(ptr.type, PtrType) else 0
    if (
        len(parts) < 2
        or not _lane_invariant(v, div)
        or size not in (1, 2, 4, 8)
        or not all(isinstance(p.type, IntType) for p in parts)
    ):
        return None
    return IndexedAddress(v, ptr.operands[1], size, tuple(reversed(parts)))


def _lane_invariant(v: Value, div: DivergenceInfo) -> bool:
    """Uniform, or never computed (unreachable)."""
    shape = div.shape_of(v)
    return shape.is_bottom or shape.is_uniform


def _signed_i32(v: Value) -> bool:
    return isinstance(v.type, IntType) and v.type.bits == 32 and v.type.signed


class MemoryAccesses(dict[Instruction, MemoryAccess]):
    """The access of every reachable load and store of a function (the
    pass manager's key for this analysis)."""


def memory_shapes(fn: Function, div: DivergenceInfo) -> MemoryAccesses:
    """The access shape of every reachable load and store of ``fn``."""
    out = MemoryAccesses()
    for block in fn.blocks:
        if not div.cfg.reachable(block):
            continue
        for inst in block.instructions:
            if isinstance(inst, (Load, Store)):
                out[inst] = access_of(inst, div)
    return out


def access_of(inst: Instruction, div: DivergenceInfo) -> MemoryAccess:
    """The MemoryAccess of one load or store."""
    ptr = inst.operands[0] if isinstance(inst, Load) else inst.operands[1]
    assert isinstance(ptr.type, PtrType)
    try:
        elem_size = ptr.type.pointee.size
    except TypeError:
        elem_size = 0
    shape = div.shape_of(ptr)
    masked = (inst.mask is not None and not _all_true(inst.mask)) or (
        inst.block is not None and div.has_varying_activation(inst.block)
    )
    if shape.is_uniform:
        kind = "uniform"
    elif shape.stride is None or shape.is_bottom:
        kind = "gather" if isinstance(inst, Load) else "scatter"
    elif shape.stride == elem_size:
        kind = "contiguous"
    else:
        kind = "strided"
    alloca, offset = _lane_offset(ptr, div)
    align = shape.alignment if shape.stride is not None else shape.lane_alignment()
    indexed = indexed_address(ptr, div) if kind != "uniform" else None
    return MemoryAccess(
        inst=inst,
        kind=kind,
        stride=shape.stride,
        alignment=align,
        elem_size=elem_size,
        masked=masked,
        alloca=alloca,
        lane_offset=offset,
        indexed=indexed,
    )


def _all_true(mask: Value) -> bool:
    from ..ir.values import Constant

    return isinstance(mask, Constant) and bool(mask.value)


def _lane_offset(ptr: Value, div: DivergenceInfo) -> tuple[Alloca | None, VectorShape | None]:
    """Follow gep/fieldaddr/pointer casts back to a varying alloca."""
    offset = VectorShape.uniform(0)
    v = ptr
    while True:
        if isinstance(v, Alloca):
            if div.alloca_is_uniform(v):
                return None, None
            return v, offset
        if isinstance(v, Gep):
            base_t = v.operands[0].type
            if not isinstance(base_t, PtrType):
                return None, None
            try:
                size = base_t.pointee.size
            except TypeError:
                return None, None
            offset = add_shapes(offset, scale_shape(div.shape_of(v.operands[1]), size))
            v = v.operands[0]
        elif isinstance(v, FieldAddr):
            offset = add_shapes(offset, VectorShape.uniform(v.offset))
            v = v.operands[0]
        elif isinstance(v, Cast) and v.operands[0].type.is_ptr():
            v = v.operands[0]
        else:
            return None, None


def memory_counts(accesses: dict[Instruction, MemoryAccess]) -> dict[str, int]:
    """The report's ``memory`` object: counts per kind plus ``masked``."""
    counts = {"contiguous": 0, "strided": 0, "gather": 0, "scatter": 0, "masked": 0, "uniform": 0}
    for acc in accesses.values():
        counts[acc.kind] += 1
        if acc.masked:
            counts["masked"] += 1
    return counts
