"""Legalization: vectors split to the target's registers.

A region widened for W lanes (s2s.codegen.to_vector_ir) may hold vectors
that no register of the target holds (16 lanes of int64 on AVX-512), or be
widened past one register on purpose (interleaving: two or four independent
vectors per trip of the loop).  ``split_vectors`` rewrites the function so
that every vector value of W lanes becomes ``parts`` values of W/parts
lanes: lane k of the original is lane k % n of part k // n (n = W/parts).

    lanewise operations    one per part, scalar operands shared
    splat                  one splat serves every part
    stepvector             part j: stepvector + splat(j * n)
    vload / vstore         part j at address + j * n elements
    gather / scatter       one per part, in part order (lane order holds)
    extractlane c          lane c % n of part c // n
    insertlane c           into part c // n only
    reverse                part j: reverse of part parts - 1 - j
    any / all (a mask)     of each part, combined with or / and
    phis, arguments,       one per part
    results

Scalar instructions are copied as they are; uniform control flow is
unchanged.  The function's width stays W (``@s2s.width()`` was resolved by
the widening); ``VectorFunction.parts`` says how it is cut.
``register_parts`` finds the fewest parts whose vectors all have a
register type on the target (its ``target.toml``), so that the emitter
(s2s.codegen.emit_vector_ir) never falls back to arrays of lanes for them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..analysis.cfg import cfg_of
from ..diagnostics import Unsupported
from ..ir.builder import copy_call, copy_instruction
from ..ir.types import I1, I32, VOID, FloatType, IntType, Type, VectorType
from ..ir.values import (
    ALL,
    ANY,
    HORIZONTAL,
    POPCOUNT,
    BinOp,
    Block,
    Call,
    Cast,
    Cmp,
    Constant,
    Function,
    Gep,
    Instruction,
    Phi,
    Ret,
    Select,
    Undef,
    UnOp,
    Value,
)
from ..ir.vector import (
    Concat,
    ExtractLane,
    ExtractPart,
    InsertLane,
    RecordLoad,
    RecordStore,
    Reduce,
    Reverse,
    RowLoad,
    Splat,
    StepVector,
    VLoad,
    VStore,
    is_lanewise,
)
from .target import Target
from .to_vector_ir import VectorFunction


def split_vectors(vf: VectorFunction, parts: int) -> VectorFunction:
    """``vf`` with every vector value cut into ``parts`` registers' worth."""
    if parts == 1:
        return vf
    if vf.width % parts:
        raise Unsupported(f"internal error: {vf.width} lanes do not split into {parts} parts")
    return _Split(vf, parts).run()


def split_mixed(vf: VectorFunction, parts: int, target: Target) -> VectorFunction | None:
    """``vf`` cut so that every element type fills whole registers: the
    widest in ``parts`` parts, a type half as wide in half as many (8 ints
    in one AVX2 register where 8 doubles take two; casts between them go
    through ``part`` and ``concat``).  None where the even cut
    (``split_vectors``) is what the function gets: every type takes
    ``parts``, or the function holds what only the even cut handles
    (gathers, records, lanes picked at run time, masks used by a narrower
    type, calls or casts across cuts the target has no ``part``/``concat``
    for)."""
    counts = _mixed_counts(vf, parts, target)
    return None if counts is None else _Mixed(vf, parts, counts).run()


_MIXED_OK = (
    BinOp,
    UnOp,
    Cmp,
    Select,
    Cast,
    Call,
    Phi,
    Splat,
    StepVector,
    VLoad,
    VStore,
    ExtractLane,
)
"""The vector instructions a mixed cut takes (calls only on the widest
type; masks, and so compares, selects and masked instructions, too)."""


def _mixed_counts(vf: VectorFunction, parts: int, target: Target) -> dict[Type, int] | None:
    """Parts per element type for ``split_mixed``, or None."""
    if parts < 2 or vf.width % parts or target.scalable:
        return None
    insts = [i for i in vf.fn.instructions() if is_lanewise(i)]
    types = {t for i in insts for t in _vector_types(i)}
    types |= {a.type for a in vf.fn.args if isinstance(a.type, VectorType)}
    if any(
        not isinstance(inst, _MIXED_OK)
        or (isinstance(inst, ExtractLane) and not isinstance(inst.operands[1], Constant))
        for inst in insts
    ) or any(t.scalable or not isinstance(t.elem, (IntType, FloatType)) for t in types):
        return None  # pointers (IntType, FloatType exclude them; I1 is an IntType)
    bits: dict[Type, int] = {
        t.elem: t.elem.bits
        for t in types
        if isinstance(t.elem, (IntType, FloatType)) and t.elem != I1
    }
    if not bits:
        return None
    widest = max(bits.values())
    counts: dict[Type, int] = {e: parts * b // widest for e, b in bits.items()}
    if all(k == parts for k in counts.values()) or any(
        k < 1 or parts * bits[e] % widest or not _whole_register(target, e, vf.width // k)
        for e, k in counts.items()
    ):
        return None
    counts[I1] = parts  # masks in the widest type's lanes: they serve only it
    boundary = [*vf.fn.ret_types, *(a.type for a in vf.fn.args)]
    if any(isinstance(t, VectorType) and counts[t.elem] != parts for t in boundary):
        return None  # reductions and results: one accumulator per part of the widest
    for inst in insts:
        ks = {counts[t.elem] for t in _vector_types(inst)}
        if isinstance(inst, Call) and ks != {parts}:
            return None  # the emitter picks math variants by the widest type's lanes
        if len(ks) > 1 and not (isinstance(inst, Cast) and _casts_across(inst, counts, target)):
            return None
    return counts


def _vector_types(inst: Instruction) -> list[VectorType]:
    """The vector types ``inst`` makes and reads (its mask's too)."""
    mask = [inst.mask.type] if inst.mask is not None else []
    return [
        t for t in [inst.type, *(o.type for o in inst.operands), *mask] if isinstance(t, VectorType)
    ]


def _whole_register(target: Target, elem: Type, lanes: int) -> bool:
    t = target.vtype(elem, lanes)
    return t is not None and t.fill == lanes


def _casts_across(inst: Cast, counts: dict[Type, int], target: Target) -> bool:
    """Whether a cast between types cut into k and 2k parts has the
    target's ``part`` (cut in two) or ``concat`` (two joined) of the
    type with fewer parts."""
    src, dst = inst.operands[0].type, inst.type
    assert isinstance(src, VectorType) and isinstance(dst, VectorType)
    few, many = (src, dst) if counts[src.elem] < counts[dst.elem] else (dst, src)
    if counts[many.elem] != 2 * counts[few.elem]:
        return False
    lanes = many.lanes // counts[many.elem]
    whole, half = target.vtype(few.elem, 2 * lanes), target.vtype(few.elem, lanes)
    if whole is None or half is None:
        return False
    return target.has("part" if few is src else "concat", t=whole)


def register_parts(vf: VectorFunction, target: Target) -> int | None:
    """The fewest parts (a power of two dividing the width) for which the
    target has a register type for every vector of the function; None when
    no split gives one (the emitter keeps arrays of lanes).  Vectors of
    addresses do not count: they feed gathers and scatters, which mostly
    take base and index (s2s.codegen.choose_width counts them already)."""
    elems = {
        element
        for inst in vf.fn.instructions()
        for t in [inst.type, *(o.type for o in inst.operands)]
        if isinstance(t, VectorType) and (element := t.elem) != I1 and not element.is_ptr()
    }
    parts = 1
    while parts <= vf.width:
        n = vf.width // parts
        if all(target.vtype(e, n) is not None for e in elems):
            return parts
        parts *= 2
    return None


class _Split:
    cut_by_type = False
    """Whether element types take different numbers of parts (``_Mixed``)."""

    def __init__(self, vf: VectorFunction, parts: int) -> None:
        self.src, self.k = vf, parts
        self.n = vf.width // parts
        """The parts and the lanes of a part of the widest vectors
        (``kof``/``nof``: of the vectors of one type)."""
        self.out = Function(f"{vf.fn.name}.x{parts}")
        self.scalars: dict[Value, Value] = {}
        self.split: dict[Value, list[Value]] = {}
        self.blocks: dict[Block, Block] = {}
        self.offsets: dict[tuple[Block, Value, int], Value] = {}
        """Part addresses made in a block (they serve the rest of it)."""
        self.cur = Block()

    # -- values ---------------------------------------------------------------------
    def kof(self, t: Type) -> int:
        """The parts a vector of type ``t`` is cut into."""
        return self.k

    def nof(self, t: Type) -> int:
        """The lanes of each part of a vector of type ``t``."""
        return self.src.width // self.kof(t)

    def part_type(self, t: Type) -> VectorType:
        assert isinstance(t, VectorType)
        return VectorType(t.elem, self.nof(t), t.scalable)

    def part(self, v: Value, j: int) -> Value:
        if isinstance(v, Undef) and isinstance(v.type, VectorType):
            return Undef(self.part_type(v.type))
        return self.split[v][j]

    def scalar(self, v: Value) -> Value:
        if isinstance(v, (Constant, Undef)):
            return v
        return self.scalars[v]

    def operand(self, v: Value, j: int) -> Value:
        return self.part(v, j) if isinstance(v.type, VectorType) else self.scalar(v)

    def block(self, b: Block) -> Block:
        return self.blocks[b]

    def emit(self, inst: Instruction) -> Instruction:
        self.cur.append(inst)
        return inst

    def each_part(self, t: Type, make: Callable[[int], Instruction]) -> list[Value]:
        """One instruction per part of a vector of type ``t``."""
        return [self.emit(make(j)) for j in range(self.kof(t))]

    # -- the walk ---------------------------------------------------------------------
    def run(self) -> VectorFunction:
        forms: list[str] = []
        for a, form in zip(self.src.fn.args, self.src.arg_forms):
            if isinstance(a.type, VectorType):
                k = self.kof(a.type)
                self.split[a] = [
                    self.out.add_arg(self.part_type(a.type), f"{a.name}.{j}") for j in range(k)
                ]
                forms += [form] * k
            else:
                self.scalars[a] = self.out.add_arg(a.type, a.name)
                forms.append(form)
        for b in self.src.fn.blocks:
            self.blocks[b] = self.out.add_block(Block(b.name))
        phis: list[Phi] = []
        for b in _defs_first(self.src.fn):
            self.cur = self.blocks[b]
            for inst in b.instructions:
                if isinstance(inst, Phi):
                    phis.append(inst)
                    self.phi(inst)
                else:
                    self.instruction(inst)
        for phi in phis:
            self.phi_incoming(phi)
        self.out.ret_types = [pt for t in self.src.fn.ret_types for pt in self.split_types(t)]
        return VectorFunction(self.out, self.src.width, forms, self.k, self.cut_by_type)

    def split_types(self, t: Type) -> list[Type]:
        return [self.part_type(t)] * self.kof(t) if isinstance(t, VectorType) else [t]

    def phi(self, phi: Phi) -> None:
        if isinstance(phi.type, VectorType):
            t = self.part_type(phi.type)
            self.split[phi] = self.each_part(phi.type, lambda _j: Phi(t, phi.name))
        else:
            self.scalars[phi] = self.emit(Phi(phi.type, phi.name))

    def phi_incoming(self, phi: Phi) -> None:
        news = [self.scalars[phi]] if phi in self.scalars else self.split[phi]
        for j, new in enumerate(news):
            assert isinstance(new, Phi)
            for v, b in phi.incoming():
                new.add_incoming(self.operand(v, j), self.blocks[b])

    def instruction(self, inst: Instruction) -> None:
        vector = is_lanewise(inst)
        if inst.is_terminator:
            self.terminator(inst)
        elif isinstance(inst, Call) and inst.callee in HORIZONTAL and vector:
            self.horizontal(inst)
        elif not vector:
            self.scalars[inst] = self.emit(
                _with_mask(copy_instruction(inst, self.scalar, self.block), inst, self.scalar)
            )
        elif isinstance(inst, (ExtractLane, InsertLane)):
            self.lane_access(inst)
        elif isinstance(inst, Reduce):
            raise Unsupported("a reduction across registers is not in the vector IR yet")
        else:
            self.lanewise(inst)

    def terminator(self, inst: Instruction) -> None:
        if isinstance(inst, Ret):
            self.emit(Ret([v for o in inst.operands for v in self.all_parts(o)]))
        else:  # uniform control flow: scalar operands
            self.emit(copy_instruction(inst, self.scalar, self.block))

    def all_parts(self, v: Value) -> list[Value]:
        if isinstance(v.type, VectorType):
            return [self.part(v, j) for j in range(self.kof(v.type))]
        return [self.scalar(v)]

    def lanewise(self, inst: Instruction) -> None:
        if isinstance(inst, Splat):  # the same in every part
            splat = self.emit(
                Splat(self.scalar(inst.operands[0]), self.part_type(inst.type), inst.name)
            )
            self.split[inst] = [splat] * self.kof(inst.type)
            return
        t = inst.operands[0].type if isinstance(inst, VStore) else inst.type
        results = self.each_part(t, lambda j: self.part_of(inst, j))
        if isinstance(inst.type, VectorType):
            self.split[inst] = results
        elif inst.type != VOID:
            raise Unsupported(f"internal error: no split of '{inst.opcode}' to a scalar")

    def part_of(self, inst: Instruction, j: int) -> Instruction:
        """Part ``j`` of a lanewise or memory instruction."""
        if isinstance(inst, Cast):  # its operand may be cut otherwise
            new = self.cast_part(inst, j)
            if inst.mask is not None:
                new.set_mask(self.operand(inst.mask, j))
            return new
        ops = [self.operand(o, j) for o in inst.operands]
        if isinstance(inst, Reverse):  # the parts swap places too
            last = self.kof(inst.type) - 1
            return Reverse(self.operand(inst.operands[0], last - j), inst.name)
        if isinstance(inst, StepVector):
            new: Instruction = self.step_part(inst, j)
        elif isinstance(inst, VLoad):
            at = self.offset(ops[0], j, j * self.nof(inst.type))
            new = VLoad(at, self.part_type(inst.type), inst.name)
        elif isinstance(inst, VStore):
            new = VStore(ops[0], self.offset(ops[1], j, j * self.nof(inst.operands[0].type)))
        elif isinstance(inst, RecordLoad):
            at = self.offset(ops[0], j, j * self.n * inst.slots)
            new = RecordLoad(at, self.part_type(inst.type), inst.slot, inst.slots, inst.name)
        elif isinstance(inst, RowLoad):
            new = RowLoad(ops[0], self.part_type(inst.type), inst.slot, inst.slots, inst.name)
        elif isinstance(inst, RecordStore):
            new = RecordStore(ops[:-1], self.offset(ops[-1], j, j * self.n * inst.slots))
        elif isinstance(inst, Call):
            new = copy_call(inst, ops)
            new.type = self.part_type(inst.type) if isinstance(inst.type, VectorType) else inst.type
        else:
            by_position = iter(ops)  # one value may be a scalar and a vector operand
            new = copy_instruction(inst, lambda _op: next(by_position), self.block)
        if inst.mask is not None:
            new.set_mask(self.operand(inst.mask, j))
        return new

    def step_part(self, inst: StepVector, j: int) -> Instruction:
        t = self.part_type(inst.type)
        step = StepVector(t, inst.name)
        if j == 0:
            return step
        self.emit(step)
        first = self.emit(Splat(Constant(t.elem, j * self.nof(inst.type)), t))
        return BinOp("add", step, first, inst.name)

    def cast_part(self, inst: Cast, j: int) -> Instruction:
        """Part ``j`` of a cast (between vectors cut alike: ``Mixed``
        casts between other cuts)."""
        return Cast(self.operand(inst.operands[0], j), self.part_type(inst.type), inst.name)

    def offset(self, ptr: Value, j: int, elements: int) -> Value:
        """The address of part ``j`` of a contiguous access at ``ptr``:
        ``elements`` elements further."""
        if elements == 0:
            return ptr
        key = (self.cur, ptr, elements)
        if key not in self.offsets:
            step = Constant(I32, elements)
            self.offsets[key] = self.emit(Gep(ptr, step, f"{ptr.name}.p{j}"))
        return self.offsets[key]

    def lane_access(self, inst: ExtractLane | InsertLane) -> None:
        lane = inst.operands[1] if isinstance(inst, ExtractLane) else inst.operands[2]
        if not isinstance(lane, Constant):
            raise Unsupported("a lane picked at run time across registers")
        j, within = divmod(int(lane.value), self.nof(inst.operands[0].type))
        vec = self.part(inst.operands[0], j)
        if isinstance(inst, ExtractLane):
            new: Instruction = ExtractLane(vec, Constant(lane.type, within), inst.name)
            new.set_mask(None if inst.mask is None else self.scalar(inst.mask))
            self.scalars[inst] = self.emit(new)
            return
        value = self.scalar(inst.operands[1])
        parts = self.all_parts(inst.operands[0])
        parts[j] = self.emit(InsertLane(vec, value, Constant(lane.type, within), inst.name))
        self.split[inst] = parts

    def horizontal(self, inst: Call) -> None:
        """any / all / count of a mask: of each part, combined."""
        combine = {ANY: "or", ALL: "and", POPCOUNT: "add"}[inst.callee]
        acc: Value | None = None
        for j in range(self.kof(inst.operands[0].type)):
            call = Call(
                inst.callee, [self.part(inst.operands[0], j)], inst.type, inst.pure, inst.name
            )
            if inst.mask is not None:
                call.set_mask(self.operand(inst.mask, j))
            self.emit(call)
            acc = call if acc is None else self.emit(BinOp(combine, acc, call, inst.name))
        assert acc is not None
        self.scalars[inst] = acc


class _Mixed(_Split):
    """The cut of ``split_mixed``: parts per element type."""

    cut_by_type = True

    def __init__(self, vf: VectorFunction, parts: int, counts: dict[Type, int]) -> None:
        super().__init__(vf, parts)
        self.counts = counts

    def kof(self, t: Type) -> int:
        assert isinstance(t, VectorType)
        return self.counts[t.elem]

    def cast_part(self, inst: Cast, j: int) -> Instruction:
        src, dst = inst.operands[0], inst.type
        assert isinstance(src.type, VectorType) and isinstance(dst, VectorType)
        ks, kd = self.kof(src.type), self.kof(dst)
        if ks == kd:
            return super().cast_part(inst, j)
        if ks > kd:  # e.g. f64 -> i32: two parts cast, then joined
            n = self.nof(src.type)
            halves = [
                self.emit(Cast(self.part(src, 2 * j + h), VectorType(dst.elem, n))) for h in (0, 1)
            ]
            return Concat(halves, inst.name)
        n = self.nof(dst)  # e.g. i32 -> f64: each half of a part cast
        half = ExtractPart(self.part(src, j // 2), VectorType(src.type.elem, n), j % 2)
        return Cast(self.emit(half), self.part_type(dst), inst.name)


def _with_mask(
    copy: Instruction, inst: Instruction, scalar: Callable[[Value], Value]
) -> Instruction:
    if inst.mask is not None:
        copy.set_mask(scalar(inst.mask))
    return copy


def _defs_first(fn: Function) -> list[Block]:
    """The blocks in an order where every value is defined before the
    instructions that use it (phis aside): reverse post-order."""
    order = cfg_of(fn).rpo
    return order + [b for b in fn.blocks if b not in order]


def mask_lane_bits(fn: Function, target: Target, width: int) -> int:
    """The lane width of the region's masks: the widest vector element the
    target has a mask of ``width`` lanes for (addresses aside: they only
    feed gathers and scatters); masks of other widths are converted where
    used (s2s.codegen.emit_vector_ir)."""
    bits = {
        t.elem.bits
        for inst in fn.instructions()
        for t in [inst.type] + [o.type for o in inst.operands]
        if isinstance(t, VectorType) and isinstance(t.elem, (IntType, FloatType)) and t.elem != I1
    }
    usable = [b for b in bits if target.mask_type(b, width) is not None]
    return max(usable) if usable else max(bits, default=32)
