"""IRBuilder: creates instructions at an insertion point.

One builder serves lowering and every transform.  The insertion point is a
block plus an index; ``at_end``, ``at_start``, ``before`` and ``after`` move
it.  Each creation method inserts the new instruction there and returns it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .types import Type, VectorType
from .values import (
    Alloca,
    BinOp,
    Block,
    Br,
    Call,
    Cast,
    Cmp,
    CondBr,
    Constant,
    FieldAddr,
    Gep,
    Instruction,
    Load,
    Phi,
    Ret,
    Select,
    Store,
    Switch,
    Undef,
    UnOp,
    Value,
)
from .vector import (
    VECTOR_INSTRUCTIONS,
    ExtractLane,
    Gather,
    InsertLane,
    Reduce,
    Scatter,
    Splat,
    StepVector,
    VLoad,
    VStore,
)

InstT = TypeVar("InstT", bound=Instruction)


class IRBuilder:
    def __init__(self, block: Block | None = None) -> None:
        self.block: Block | None = None
        self.index: int = 0
        self.at_block_end = False
        """Insert at the end whatever was added meanwhile (phis placed at the
        block's start while an operand was being built, by SSA construction)."""
        if block is not None:
            self.at_end(block)

    # -- positioning -------------------------------------------------------------
    def at_end(self, block: Block) -> IRBuilder:
        """Insert before the terminator if there is one, else at the very end."""
        self.block = block
        self.at_block_end = True
        return self

    def at_start(self, block: Block) -> IRBuilder:
        """Insert after the phis of ``block``."""
        self.block = block
        self.at_block_end = False
        self.index = len(block.phis)
        return self

    def before(self, inst: Instruction) -> IRBuilder:
        assert inst.block is not None
        self.block = inst.block
        self.at_block_end = False
        self.index = inst.block.instructions.index(inst)
        return self

    def after(self, inst: Instruction) -> IRBuilder:
        self.before(inst)
        self.index += 1
        return self

    def insert(self, inst: InstT) -> InstT:
        assert self.block is not None, "builder has no insertion point"
        if self.at_block_end:
            n = len(self.block.instructions)
            self.index = n - 1 if self.block.terminator is not None else n
        self.block.insert(self.index, inst)
        self.index += 1
        return inst

    # -- values ----------------------------------------------------------------------
    @staticmethod
    def const(type: Type, value: int | float) -> Constant:
        """A constant of the given type."""
        return Constant(type, value)

    @staticmethod
    def undef(type: Type) -> Undef:
        """An undefined value (reading an uninitialized variable)."""
        return Undef(type)

    # -- arithmetic ------------------------------------------------------------------
    def binop(self, op: str, a: Value, b: Value, name: str = "") -> BinOp:
        """``a op b`` with op one of BinOp.OPS."""
        return self.insert(BinOp(op, a, b, name))

    def add(self, a: Value, b: Value, name: str = "") -> BinOp:
        return self.binop("add", a, b, name)

    def sub(self, a: Value, b: Value, name: str = "") -> BinOp:
        return self.binop("sub", a, b, name)

    def mul(self, a: Value, b: Value, name: str = "") -> BinOp:
        return self.binop("mul", a, b, name)

    def unop(self, op: str, a: Value, name: str = "") -> UnOp:
        """``neg a`` or ``not a``."""
        return self.insert(UnOp(op, a, name))

    def cmp(self, pred: str, a: Value, b: Value, name: str = "") -> Cmp:
        """Compare a and b; an i1."""
        return self.insert(Cmp(pred, a, b, name))

    def cast(self, v: Value, to: Type, name: str = "") -> Value:
        """C conversion of v to type ``to``; no instruction when types agree."""
        if v.type == to:
            return v
        return self.insert(Cast(v, to, name))

    def select(self, c: Value, a: Value, b: Value, name: str = "") -> Select:
        """a where c holds, else b."""
        return self.insert(Select(c, a, b, name))

    # -- memory ------------------------------------------------------------------------
    def gep(self, base: Value, index: Value, name: str = "") -> Gep:
        """Address of element ``index`` relative to ``base``."""
        return self.insert(Gep(base, index, name))

    def field_addr(self, base: Value, field: str, result_type: Type, name: str = "") -> FieldAddr:
        """Address of member ``field`` of the struct ``base`` points to."""
        return self.insert(FieldAddr(base, field, result_type, name))

    def load(self, ptr: Value, name: str = "") -> Load:
        """Read *ptr."""
        return self.insert(Load(ptr, name))

    def store(self, value: Value, ptr: Value) -> Store:
        """Write value to *ptr."""
        return self.insert(Store(value, ptr))

    def alloca(self, allocated: Type, name: str = "") -> Alloca:
        """A private stack object of type ``allocated``."""
        return self.insert(Alloca(allocated, name))

    def call(
        self, callee: str, args: Sequence[Value], ret: Type, pure: bool = False, name: str = ""
    ) -> Call:
        """Call the C function ``callee``."""
        return self.insert(Call(callee, args, ret, pure, name))

    def phi(self, type: Type, name: str = "") -> Phi:
        """A phi at the start of the current block, with no incoming values yet."""
        assert self.block is not None
        phi = Phi(type, name)
        self.block.insert(len(self.block.phis), phi)
        if self.index >= len(self.block.phis) - 1:
            self.index += 1
        return phi

    # -- terminators -----------------------------------------------------------------
    def br(self, target: Block) -> Br:
        """Jump to target."""
        return self.insert(Br(target))

    def condbr(self, cond: Value, if_true: Block, if_false: Block) -> CondBr:
        """Branch on an i1."""
        return self.insert(CondBr(cond, if_true, if_false))

    def switch(
        self, value: Value, default: Block, cases: Sequence[tuple[int, Block]] = ()
    ) -> Switch:
        """Multi-way branch on an integer."""
        return self.insert(Switch(value, default, cases))

    def ret(self, values: Sequence[Value] = ()) -> Ret:
        """Return the given values."""
        return self.insert(Ret(values))


def copy_with_operands(t: Instruction, ops: Sequence[Value]) -> Instruction:
    """A new instruction doing what the pure instruction ``t`` does, on
    ``ops`` (not inserted anywhere)."""
    copy = _copy_pure(t, ops)
    copy.loc = t.loc
    return copy


def _copy_pure(t: Instruction, ops: Sequence[Value]) -> Instruction:
    if isinstance(t, BinOp):
        return BinOp(t.op, ops[0], ops[1], t.name)
    if isinstance(t, UnOp):
        return UnOp(t.op, ops[0], t.name)
    if isinstance(t, Cmp):
        return Cmp(t.pred, ops[0], ops[1], t.name)
    if isinstance(t, Cast):
        return Cast(ops[0], t.type, t.name)
    if isinstance(t, Select):
        return Select(ops[0], ops[1], ops[2], t.name)
    if isinstance(t, Gep):
        return Gep(ops[0], ops[1], t.name)
    if isinstance(t, FieldAddr):
        return FieldAddr(ops[0], t.field, t.type, t.name)
    assert isinstance(t, Call) and t.pure, t
    return copy_call(t, ops)


def copy_call(call: Call, ops: Sequence[Value]) -> Call:
    """A call of the same function on ``ops``, with its source location."""
    copy = Call(call.callee, ops, call.type, call.pure, call.name)
    copy.loc, copy.not_inlined, copy.wants_variant = call.loc, call.not_inlined, call.wants_variant
    copy.lane_strides = dict(call.lane_strides)
    return copy


def copy_instruction(
    inst: Instruction, value: Callable[[Value], Value], block: Callable[[Block], Block]
) -> Instruction:
    """A copy of any instruction (not inserted anywhere) whose operands are
    ``value(op)`` and, for phis and terminators, whose blocks are
    ``block(b)``: what copying a region of blocks needs."""
    copy = _copy(inst, [value(op) for op in inst.operands], block)
    copy.loc = inst.loc
    return copy


def _copy(inst: Instruction, ops: list[Value], block: Callable[[Block], Block]) -> Instruction:
    if isinstance(inst, Phi):
        phi = Phi(inst.type, inst.name)
        for op, b in zip(ops, inst.incoming_blocks):
            phi.add_incoming(op, block(b))
        return phi
    if isinstance(inst, Br):
        return Br(block(inst.target))
    if isinstance(inst, CondBr):
        return CondBr(ops[0], block(inst.if_true), block(inst.if_false))
    if isinstance(inst, Switch):
        return Switch(ops[0], block(inst.default), [(k, block(b)) for k, b in inst.cases])
    if isinstance(inst, Ret):
        return Ret(ops)
    if isinstance(inst, Load):
        return Load(ops[0], inst.name)
    if isinstance(inst, Store):
        return Store(ops[0], ops[1])
    if isinstance(inst, Call):
        return copy_call(inst, ops)
    if isinstance(inst, Alloca):
        return Alloca(inst.allocated, inst.name, inst.interleaved)
    if isinstance(inst, VECTOR_INSTRUCTIONS):
        return _copy_vector(inst, ops)
    return _copy_pure(inst, ops)


def _vector_type(t: Type) -> VectorType:
    assert isinstance(t, VectorType), t
    return t


def _copy_vector(inst: Instruction, ops: list[Value]) -> Instruction:
    if isinstance(inst, Splat):
        return Splat(ops[0], _vector_type(inst.type), inst.name)
    if isinstance(inst, StepVector):
        return StepVector(_vector_type(inst.type), inst.name)
    if isinstance(inst, ExtractLane):
        return ExtractLane(ops[0], ops[1], inst.name)
    if isinstance(inst, InsertLane):
        return InsertLane(ops[0], ops[1], ops[2], inst.name)
    if isinstance(inst, Reduce):
        return Reduce(inst.op, ops[0], inst.name)
    if isinstance(inst, VLoad):
        return VLoad(ops[0], _vector_type(inst.type), inst.name)
    if isinstance(inst, VStore):
        return VStore(ops[0], ops[1])
    if isinstance(inst, Gather):
        return Gather(ops[0], inst.name)
    assert isinstance(inst, Scatter)
    return Scatter(ops[0], ops[1])
