"""Widening to the vector IR: a predicated region -> a function of W lanes.

The region reaches here after the pipeline (s2s/pipeline.py): its control
flow is uniform, masks are IR values, masked memory operations and calls
carry their mask.  Each value keeps the form its vector shape
(s2s.analysis.divergence) allows:

    uniform   the scalar instruction, as the scalar loop runs it
    strided   the scalar instruction on lane 0's values (integers and
              pointers); where a vector use needs all lanes,
              ``splat(lane 0) + stepvector * stride`` before that use
    varying   the lanewise instruction on vectors (scalar operands splat)

A value the analysis finds uniform or strided but that is computed from a
vector (``and %v, 0``) takes lane 0 of it.  Memory, by the access of
s2s.analysis.memory: ``contiguous`` -> ``vload``/``vstore`` at lane 0's
address; ``strided`` by minus one element with its lanes all on or all
off: ``vload`` / ``vstore`` at the last lane's address, its lanes reversed
(``reverse``); other ``strided``, ``gather``, ``scatter`` ->
``gather``/``scatter``
through the vector of addresses; ``uniform`` -> a scalar load (under
``any(mask)`` when lanes may be inactive), and a store of the last active
lane's value (sequential semantics: a scatter through the splat address
runs the lanes in order).  Calls with a vector operand or mask become calls
on vectors (uniform operands stay scalar; strided ones are marked with their
stride), run lane by lane in lane order unless the target has a vector form
or a declare simd variant fits (selection decides).  ``@s2s.lane()`` is
strided from 0, ``@s2s.width()`` is W; an interleaved stack object holds W
copies.

The function's parameters are the region's, scalar when the argument is
uniform or strided (its lane 0 value), vectors when varying; it returns
every result as a vector.

This is the first half of the vector IR code generation (issue 20): the
emitter that turns it into C is not written yet; tests run it with the
vector interpreter against the region run once per lane.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..analysis.cfg import cfg_of
from ..analysis.divergence import DivergenceInfo
from ..analysis.memory import MemoryAccess, MemoryAccesses, access_of
from ..analysis.records import RecordGroup
from ..analysis.rows import RowGroup
from ..diagnostics import Unsupported
from ..ir.builder import copy_call, copy_instruction
from ..ir.types import I1, I8, I32, I64, VOID, ArrayType, IntType, PtrType, Type, VectorType
from ..ir.values import (
    ANY,
    HORIZONTAL,
    LANE,
    POPCOUNT,
    WIDTH,
    Alloca,
    Argument,
    BinOp,
    Block,
    Call,
    Cast,
    Constant,
    FieldAddr,
    Function,
    Gep,
    Instruction,
    Load,
    Phi,
    Ret,
    Select,
    Store,
    Undef,
    Value,
)
from ..ir.vector import (
    ExtractLane,
    Gather,
    RecordLoad,
    RecordStore,
    Reverse,
    RowLoad,
    Scatter,
    Splat,
    StepVector,
    VLoad,
    VStore,
    is_lanewise,
)

MASK_FREE_MATH = {"sqrt", "fabs", "floor", "ceil", "trunc", "round", "fmin", "fmax", "fma"}
"""Math functions that run on every lane at no risk (exact, no slow path for
special inputs, no traps): their calls need no mask."""


@dataclass
class VectorFunction:
    """A region widened to the vector IR."""

    fn: Function
    width: int
    arg_forms: list[str]
    """Per parameter: ``scalar`` (uniform), ``lane0`` (strided: lane 0's
    value) or ``vector``."""
    parts: int = 1
    """Each vector of ``width`` lanes is held as this many values of
    ``width // parts`` lanes (s2s.codegen.legalize); with ``cut_by_type``,
    the vectors of the widest element type, the others in fewer."""
    cut_by_type: bool = False
    """Element types take different numbers of parts (legalize.split_mixed)."""


def widen_to_vector_ir(
    fn: Function,
    div: DivergenceInfo,
    width: int,
    mem: MemoryAccesses | None = None,
    records: Sequence[RecordGroup] = (),
    rows: Sequence[RowGroup] = (),
    max_vscale: int | None = None,
) -> VectorFunction:
    """The vector IR function of ``fn`` for ``width`` lanes; the accesses
    of ``records`` (groups of s2s.analysis.records the code generator moves
    as whole records) become record loads and stores, the loads of ``rows``
    (s2s.analysis.rows) row loads.  With ``max_vscale`` the vectors are
    scalable, ``vscale x width`` lanes (at most ``max_vscale`` times
    ``width``): the lane count is ``@s2s.width()``, known at run time."""
    return _Widening(fn, div, width, mem, records, rows, max_vscale).run()


class _Widening:
    def __init__(
        self,
        fn: Function,
        div: DivergenceInfo,
        width: int,
        mem: MemoryAccesses | None,
        records: Sequence[RecordGroup] = (),
        rows: Sequence[RowGroup] = (),
        max_vscale: int | None = None,
    ) -> None:
        self.src, self.div, self.W = fn, div, width
        self.scalable = max_vscale is not None
        self.max_lanes = width * (max_vscale or 1)
        """Lanes an object of one copy per lane is sized for."""
        self.mem = mem if mem is not None else MemoryAccesses()
        self.groups = {inst: g for g in records for inst, _ in g.members}
        self.fields: dict[RecordGroup, list[Value | None]] = {}
        """Per record group met so far: each slot's current vector."""
        self.rows = {inst: g for g in rows for inst, _ in g.members}
        self.row_slots: dict[RowGroup, dict[int, Value]] = {}
        """Per row group met so far: the vector of each slot its loads read."""
        self.out = Function(f"{fn.name}.v{width}")
        self.scalars: dict[Value, Value] = {}
        """Value -> its scalar form (uniform: the value; strided: lane 0)."""
        self.vectors: dict[Value, Value] = {}
        """Value -> its vector form."""
        self.made: dict[tuple[Block, Value], Value] = {}
        """Vector forms of uniform and strided values made in a block (they
        serve the rest of that block)."""
        self.addresses: dict[tuple[Block, Value], Value] = {}
        """Lane addresses ``base[index]`` of gathers and scatters made in a
        block (they serve the rest of it)."""
        self.blocks: dict[Block, Block] = {}
        self.cur: Block = Block()
        self.anchor: Instruction | None = None
        """Insert before this instruction of ``cur`` (None: at the end)."""

    # -- shapes ---------------------------------------------------------------------
    def kind(self, v: Value) -> str:
        """``u`` uniform, ``s`` strided (integers, pointers), ``v`` varying."""
        if isinstance(v, (Constant, Undef)):
            return "u"
        shape = self.div.shape_of(v)
        if shape.is_bottom or shape.is_uniform:
            return "u"
        if shape.is_strided and (v.type.is_ptr() or (v.type.is_int() and v.type != I1)):
            return "s"
        return "v"

    def vtype(self, t: Type) -> VectorType:
        return VectorType(t, self.W, self.scalable)

    def lanes_minus(self, k: int, t: Type) -> Value:
        """The lane count less ``k`` as a value of type ``t`` (a constant,
        or ``@s2s.width()`` of a scalable vector, known at run time)."""
        if not self.scalable:
            return Constant(t, self.W - k)
        width = self.emit(Call(WIDTH, [], t, pure=True, name="vl"))
        return width if k == 0 else self.emit(BinOp("sub", width, Constant(t, k), "vl.less"))

    # -- insertion ------------------------------------------------------------------
    def emit(self, inst: Instruction) -> Instruction:
        if self.anchor is None:
            self.cur.append(inst)
        else:
            self.cur.insert(self.cur.instructions.index(self.anchor), inst)
        return inst

    # -- forms ----------------------------------------------------------------------
    def scalar(self, v: Value) -> Value:
        """The scalar form of a uniform or strided value (lane 0 of a vector)."""
        if isinstance(v, (Constant, Undef)):
            return v
        if v in self.scalars:
            return self.scalars[v]
        if v in self.vectors:
            return self.emit(ExtractLane(self.vectors[v], Constant(I32, 0), f"{v.name}.0"))
        raise Unsupported(f"internal error: no scalar form of %{v.name}")

    def vec(self, v: Value) -> Value:
        """The vector form (made before the current insertion point if needed)."""
        if v in self.vectors:
            return self.vectors[v]
        key = (self.cur, v)
        if key not in self.made:
            base = self.scalar(v)
            self.made[key] = (
                self.emit(Splat(base, self.vtype(v.type), f"{v.name}.splat"))
                if self.kind(v) != "s"
                else self.strided_vector(v, base)
            )
        return self.made[key]

    def strided_vector(self, v: Value, lane0: Value) -> Value:
        stride = self.stride(v)
        t = v.type
        # lane offsets of an address: 32-bit indices, which gathers and
        # scatters take as they are (W * stride is far below 2^31)
        index_t = t if isinstance(t, IntType) else I32
        step = self.emit(StepVector(self.vtype(index_t), "step"))
        if isinstance(t, PtrType):
            size = t.pointee.size
            if stride % size == 0:
                offs = self.lanewise_mul(step, stride // size, index_t)
                return self.emit(Gep(lane0, offs, f"{v.name}.lanes"))
            raw = self.emit(Cast(lane0, PtrType(I8), f"{v.name}.bytes"))
            lanes = self.emit(Gep(raw, self.lanewise_mul(step, stride, index_t)))
            return self.emit(Cast(lanes, self.vtype(t), f"{v.name}.lanes"))
        offs = self.lanewise_mul(step, stride, index_t)
        return self.emit(
            BinOp("add", self.emit(Splat(lane0, self.vtype(t))), offs, f"{v.name}.lanes")
        )

    def lanewise_mul(self, step: Value, k: int, t: Type) -> Value:
        if k == 1:
            return step
        factor = self.emit(Splat(Constant(t, k), self.vtype(t)))
        return self.emit(BinOp("mul", step, factor, "offs"))

    def vmask(self, inst: Instruction) -> Value | None:
        """The instruction's mask as a vector mask (None: every lane)."""
        if inst.mask is None or _all_true(inst.mask):
            return None
        return self.vec(inst.mask)

    def masked_scalar(self, inst: Instruction, copy: Instruction) -> Value:
        """A uniform operation under the instruction's mask, run when some
        lane is active; its value is 0 when none is (as the C code's), so
        that a uniform branch on it is defined either way."""
        mask = self.any_mask(inst)
        copy.set_mask(mask)
        self.emit(copy)
        if mask is None or copy.type == VOID:
            return copy
        zero = Constant(copy.type, 0)
        return self.emit(Select(mask, copy, zero, f"{inst.name}.or0" if inst.name else ""))

    def any_mask(self, inst: Instruction) -> Value | None:
        """A scalar mask for a uniform operation under the instruction's
        mask: the mask itself when uniform, else ``any(mask)``."""
        if inst.mask is None or _all_true(inst.mask):
            return None
        if self.kind(inst.mask) == "u":
            return self.scalar(inst.mask)
        return self.emit(Call(ANY, [self.vec(inst.mask)], I1, pure=True, name="any"))

    # -- the walk -------------------------------------------------------------------
    def run(self) -> VectorFunction:
        forms = [self.add_arg(a) for a in self.src.args]
        order = cfg_of(self.src).rpo
        for b in self.src.blocks:
            if b in order:
                self.blocks[b] = self.out.add_block(Block(b.name))
        phis: list[Phi] = []
        for b in order:
            self.cur, self.anchor = self.blocks[b], None
            for inst in b.instructions:
                if isinstance(inst, Phi):
                    phis.append(inst)
                    self.phi(inst)
                else:
                    self.instruction(inst)
        for phi in phis:
            self.phi_incoming(phi)
        self.out.ret_types = [self.vtype(t) for t in self.src.ret_types]
        return VectorFunction(self.out, self.W, forms)

    def add_arg(self, a: Argument) -> str:
        kind = self.kind(a)
        if kind == "v":
            self.vectors[a] = self.out.add_arg(self.vtype(a.type), a.name)
            return "vector"
        self.scalars[a] = self.out.add_arg(a.type, a.name)
        return "scalar" if kind == "u" else "lane0"

    def phi(self, phi: Phi) -> None:
        if self.kind(phi) == "v":
            self.vectors[phi] = self.emit(Phi(self.vtype(phi.type), phi.name))
        else:
            self.scalars[phi] = self.emit(Phi(phi.type, phi.name))

    def phi_incoming(self, phi: Phi) -> None:
        new = self.vectors.get(phi) or self.scalars[phi]
        assert isinstance(new, Phi)
        for v, b in phi.incoming():
            if b not in self.blocks:
                continue
            pred = self.blocks[b]
            self.cur, self.anchor = pred, pred.terminator
            value = self.vec(v) if phi in self.vectors else self.scalar(v)
            new.add_incoming(value, pred)

    def instruction(self, inst: Instruction) -> None:
        if inst.is_terminator:
            return self.terminator(inst)
        if isinstance(inst, Load):
            return self.load(inst)
        if isinstance(inst, Store):
            return self.store(inst)
        if isinstance(inst, Alloca):
            return self.alloca(inst)
        if isinstance(inst, Call):
            return self.call(inst)
        if isinstance(inst, FieldAddr) and self.kind(inst) == "v":
            return self.field_address(inst)
        self.pure(inst)

    def field_address(self, inst: FieldAddr) -> None:
        """Each lane's field address: its record's address plus the field's
        offset in bytes."""
        records = self.vec(inst.operands[0])
        raw = self.emit(Cast(records, self.vtype(PtrType(I8)), f"{inst.name}.bytes"))
        offset = self.emit(Splat(Constant(I32, inst.offset), self.vtype(I32)))
        moved = self.emit(Gep(raw, offset))
        self.vectors[inst] = self.emit(Cast(moved, self.vtype(inst.type), inst.name))

    def pure(self, inst: Instruction) -> None:
        """Arithmetic, compares, selects, casts, addresses."""
        if self.kind(inst) != "v":
            copy = copy_instruction(inst, self.scalar, self.blocks.__getitem__)
            self.scalars[inst] = self.masked_scalar(inst, copy)
            return
        ops = iter([self.operand(inst, k, op) for k, op in enumerate(inst.operands)])
        # by position: one value may be a scalar and a vector operand at once
        copy = copy_instruction(inst, lambda _op: next(ops), self.blocks.__getitem__)
        if isinstance(inst, Cast):
            source = copy.operands[0]
            copy.drop_operands()
            copy = Cast(source, self.vtype(inst.type), inst.name)
        copy.set_mask(self.vmask(inst))
        self.vectors[inst] = self.emit(copy)

    def operand(self, inst: Instruction, k: int, op: Value) -> Value:
        """A lanewise instruction's operand: uniform select conditions and gep
        bases stay scalar, everything else is a vector."""
        if self.kind(op) == "u" and (
            (isinstance(inst, Select) and k == 0) or (isinstance(inst, Gep) and k == 0)
        ):
            return self.scalar(op)
        return self.vec(op)

    # -- memory ---------------------------------------------------------------------
    def access_kind(self, inst: Instruction) -> str:
        """The access's kind; a strided one walking downwards by one element
        (lane k at lane 0's address - k) is ``reverse`` where its lanes are
        all on or all off (a vload or vstore
        from the last lane's address, the lanes reversed), else a gather or
        scatter (its mask would need reversing too)."""
        access = self.access(inst)
        if access.kind == "strided" and access.is_reverse:
            uniform = inst.mask is None or _all_true(inst.mask) or self.kind(inst.mask) == "u"
            return "reverse" if uniform else "strided"
        return access.kind

    def last_lane_address(self, ptr: Value) -> Value:
        """The address of the last lane of a contiguous access walking
        downwards from lane 0's ``ptr``: the lowest one."""
        if self.scalable:
            back: Value = self.emit(
                BinOp("sub", Constant(I64, 1), self.lanes_minus(0, I64), "back")
            )
        else:
            back = Constant(I64, 1 - self.W)
        return self.emit(Gep(self.scalar(ptr), back, f"{ptr.name}.last" if ptr.name else "last"))

    def access(self, inst: Instruction) -> MemoryAccess:
        return self.mem.get(inst) or access_of(inst, self.div)

    def lane_addresses(self, inst: Instruction, ptr: Value) -> Value:
        """The vector of the lanes' addresses of a gather or scatter: from
        the access's ``base[index]`` where the memory analysis found one (a
        32-bit index stays 32-bit: the target's gathers take it as it is),
        else the address vector itself."""
        indexed = self.access(inst).indexed
        if indexed is None or (
            isinstance(ptr, Gep) and ptr.operands[1] is indexed.index and not indexed.parts
        ):
            return self.vec(ptr)  # the address is base[index] as it is
        key = (self.cur, ptr)
        if key not in self.addresses:
            index = self.summed_index(indexed.parts) if indexed.parts else self.vec(indexed.index)
            at = Gep(self.scalar(indexed.base), index, f"{ptr.name}.at")
            self.addresses[key] = self.emit(at)
        return self.addresses[key]

    def summed_index(self, parts: Sequence[Value]) -> Value:
        """The 64-bit sum of a gep chain's indices (memory.IndexedAddress)."""
        wide = self.vtype(I64)
        total: Value | None = None
        for part in parts:
            lanes = self.vec(part)
            if lanes.type != wide:
                lanes = self.emit(Cast(lanes, wide, f"{part.name}.wide"))
            total = lanes if total is None else self.emit(BinOp("add", total, lanes, "index"))
        assert total is not None
        return total

    def record_fields(self, group: RecordGroup) -> list[Value | None]:
        """The slot vectors of a record group: its records' fields, loaded
        at its first member when it reads them."""
        if group not in self.fields:
            fields: list[Value | None] = [None] * group.slots
            if group.needs_load:
                at = self.record_base(group)
                t = self.vtype(group.elem)
                for k in range(group.slots):
                    fields[k] = self.emit(RecordLoad(at, t, k, group.slots, f"field{k}"))
            self.fields[group] = fields
        return self.fields[group]

    def row_fields(self, group: RowGroup) -> dict[int, Value]:
        """The slot vectors of a row group, loaded at its first member."""
        if group not in self.row_slots:
            rows = self.row_starts(group)
            t = self.vtype(group.elem)
            mask = self.vmask(group.members[0][0])
            loaded: dict[int, Value] = {}
            for slot in sorted({s for _, s in group.members}):
                load = RowLoad(rows, t, slot, group.slots, f"row{slot}")
                load.set_mask(mask)
                loaded[slot] = self.emit(load)
            self.row_slots[group] = loaded
        return self.row_slots[group]

    def row_starts(self, group: RowGroup) -> Value:
        """Each lane's row address: ``first`` elements after
        ``&anchor[index]`` (pointer arithmetic: no index can overflow)."""
        base = group.anchor
        if group.index is None:
            at = self.vec(base)
        else:
            anchor = self.scalar(base) if self.kind(base) == "u" else self.vec(base)
            index = self.vec(group.index)
            if group.widen is not None:
                index = self.emit(Cast(index, self.vtype(group.widen), "row.index"))
            at = self.emit(Gep(anchor, index, "row.at"))
        if group.first == 0:
            return at
        offset = self.emit(Splat(Constant(I64, group.first), self.vtype(I64)))
        return self.emit(Gep(at, offset, "row"))

    def record_base(self, group: RecordGroup) -> Value:
        """Lane 0's record: ``group.start`` elements before the group's base."""
        at = self.emit(Cast(self.scalar(group.base), PtrType(group.elem), "records"))
        if group.start:
            at = self.emit(Gep(at, Constant(I64, -group.start), "records.first"))
        return at

    def record_store(self, inst: Store, group: RecordGroup) -> None:
        fields = self.record_fields(group)
        fields[group.slot_of(inst)] = self.vec(inst.operands[0])
        if inst is group.last_store:
            if None in fields:
                raise Unsupported("internal error: a record group stores unread slots")
            self.emit(RecordStore([f for f in fields if f is not None], self.record_base(group)))

    def load(self, inst: Load) -> None:
        row = self.rows.get(inst)
        if row is not None:
            self.vectors[inst] = self.row_fields(row)[row.slot_of(inst)]
            return
        group = self.groups.get(inst)
        if group is not None:
            field = self.record_fields(group)[group.slot_of(inst)]
            if field is None:
                raise Unsupported("internal error: a record group reads an unloaded slot")
            self.vectors[inst] = field
            return
        kind = self.access_kind(inst)
        ptr = inst.operands[0]
        if kind == "uniform":
            self.scalars[inst] = self.masked_scalar(inst, Load(self.scalar(ptr), inst.name))
            return
        if kind == "reverse":
            up = VLoad(self.last_lane_address(ptr), self.vtype(inst.type), f"{inst.name}.up")
            up.set_mask(self.vmask(inst))
            self.vectors[inst] = self.emit(Reverse(self.emit(up), inst.name))
            return
        if kind == "contiguous":
            new: Instruction = VLoad(self.scalar(ptr), self.vtype(inst.type), inst.name)
        else:
            new = Gather(self.lane_addresses(inst, ptr), inst.name)
        new.set_mask(self.vmask(inst))
        self.vectors[inst] = self.emit(new)

    def store(self, inst: Store) -> None:
        group = self.groups.get(inst)
        if group is not None:
            return self.record_store(inst, group)
        value, ptr = inst.operands
        kind = self.access_kind(inst)
        mask = self.vmask(inst)
        if kind == "uniform" and mask is None and self.kind(value) == "u":
            store = Store(self.scalar(value), self.scalar(ptr))
            store.set_mask(self.any_mask(inst))
            self.emit(store)
            return
        if kind == "uniform" and mask is None:
            last = ExtractLane(self.vec(value), self.lanes_minus(1, I32), "last")
            self.emit(Store(self.emit(last), self.scalar(ptr)))
            return
        if kind == "reverse":
            down = self.emit(Reverse(self.vec(value), f"{value.name}.down" if value.name else ""))
            new: Instruction = VStore(down, self.last_lane_address(ptr))
        elif kind == "contiguous":
            new = VStore(self.vec(value), self.scalar(ptr))
        else:
            new = Scatter(self.vec(value), self.lane_addresses(inst, ptr))
        new.set_mask(mask)
        self.emit(new)

    def alloca(self, inst: Alloca) -> None:
        if inst.interleaved or self.div.alloca_is_uniform(inst):
            copies = self.max_lanes if inst.interleaved else 1
            obj = self.emit(Alloca(ArrayType(inst.allocated, copies), inst.name))
            self.scalars[inst] = self.emit(Cast(obj, inst.type, inst.name))
            return
        obj = self.emit(Alloca(ArrayType(inst.allocated, self.max_lanes), inst.name))
        first = self.emit(Cast(obj, inst.type, inst.name))
        step = self.emit(StepVector(self.vtype(I64), "step"))
        self.vectors[inst] = self.emit(Gep(first, step, inst.name))

    # -- calls ----------------------------------------------------------------------
    def call(self, inst: Call) -> None:
        if inst.callee == LANE:
            self.scalars[inst] = Constant(inst.type, 0)
            return
        if inst.callee == WIDTH:
            self.scalars[inst] = self.lanes_minus(0, inst.type)
            return
        if inst.callee in HORIZONTAL:
            # a count is of lanes: of a vector always (a uniform value splat)
            mask = (
                self.vec(inst.operands[0])
                if self.kind(inst.operands[0]) != "u" or inst.callee == POPCOUNT
                else self.scalar(inst.operands[0])
            )
            # pure here: the lanes it reads are its operand and mask
            new = Call(inst.callee, [mask], inst.type, pure=True, name=inst.name)
            new.set_mask(self.vmask(inst) if mask.type != I1 else self.any_mask(inst))
            self.scalars[inst] = self.emit(new)
            return
        uniform_operands = all(self.kind(op) == "u" for op in inst.operands)
        if inst.pure and uniform_operands and self.kind(inst) != "v":
            # one call for all lanes, whichever are active: pure, it may run
            # when none is (a lane of a masked vector call could be inactive)
            copy = copy_instruction(inst, self.scalar, self.blocks.__getitem__)
            self.scalars[inst] = self.emit(copy)
            return
        lanewise = (
            not inst.pure  # every lane's iteration makes the call
            or not uniform_operands
            or (inst.mask is not None and self.kind(inst.mask) != "u")
            or self.kind(inst) == "v"
        )
        if not lanewise:
            copy = copy_instruction(inst, self.scalar, self.blocks.__getitem__)
            self.scalars[inst] = self.masked_scalar(inst, copy)
            return
        for t in [inst.type, *(op.type for op in inst.operands)]:
            if t != VOID and not (t.is_int() or t.is_float() or t.is_ptr()):
                raise Unsupported(f"a call of '{inst.callee}' on a {t} in the vector IR")
        ret = inst.type if inst.type == VOID else self.vtype(inst.type)
        new = copy_call(inst, [self.call_operand(op) for op in inst.operands])
        new.type = ret
        new.lane_strides = {
            k: self.stride(op) for k, op in enumerate(inst.operands) if self.kind(op) == "s"
        }
        exact = inst.pure and inst.callee.removesuffix("f") in MASK_FREE_MATH
        new.set_mask(None if exact else self.vmask(inst))
        if new.type == VOID and new.mask is None and not is_lanewise(new):
            # a mask of every lane says it runs once per lane
            new.set_mask(self.emit(Splat(Constant(I1, 1), self.vtype(I1), "every")))
        self.emit(new)
        if inst.type != VOID:
            self.vectors[inst] = new

    def call_operand(self, op: Value) -> Value:
        """A lanewise call's operand: a uniform one stays scalar (a declare
        simd variant may take it as it is; run lane by lane, every lane
        reads it), the others are vectors."""
        return self.scalar(op) if self.kind(op) == "u" else self.vec(op)

    def stride(self, v: Value) -> int:
        stride = self.div.shape_of(v).stride
        assert stride is not None
        return stride

    # -- control --------------------------------------------------------------------
    def terminator(self, inst: Instruction) -> None:
        if isinstance(inst, Ret):
            self.emit(Ret([self.vec(v) for v in inst.operands]))
            return
        for op in inst.operands:
            if self.kind(op) != "u":
                raise Unsupported("internal error: a divergent branch reached widening")
        self.emit(copy_instruction(inst, self.scalar, self.blocks.__getitem__))


def _all_true(mask: Value) -> bool:
    return isinstance(mask, Constant) and bool(mask.value)


__all__ = ["VectorFunction", "widen_to_vector_ir"]
