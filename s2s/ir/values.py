"""SSA values, instructions, blocks and functions of the s2svec IR.

The IR is an SSA control-flow graph close to the LLVM dialect of seed 001
(Figure 2.1): typed values, one instruction class per kind of operation,
phi nodes at block starts and one terminator at each block end.

Identity: functions, blocks and instructions compare by identity.  Every
instruction keeps its operands in ``operands``; the use lists (``Value.users``)
change only through ``Instruction.set_operand`` / ``replace_all_uses_with``,
so they stay exact.

Predication: any instruction may carry a lane mask (``Instruction.mask``, an
``i1`` value).  ``None`` means "all lanes active in the block"; after
linearization, memory operations and calls carry the mask of their block so
that inactive lanes never touch memory (P-LLVM semantics, seed 001 Ch. 4).

Semantics follow C: integer ops wrap in the width of their type (signed
overflow is not relied upon), ``div``/``rem``/``shr``/compares take their
signedness from the operand type, float compares are ordered except ``ne``
(C's ``!=`` is true on NaN).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..diagnostics import Location
from .types import VOID, PtrType, StructType, Type, VectorType, element_type, mask_type


class Value:
    """Anything an instruction can use: constants, arguments, instructions."""

    def __init__(self, type: Type, name: str = "") -> None:
        self.type: Type = type
        """The IR type of the value."""
        self.name: str = name
        """A name hint for printing; the printer makes it unique."""
        self.users: list[Instruction] = []
        """Instructions using this value, once per use."""

    def replace_all_uses_with(self, new: Value) -> None:
        for user in list(self.users):
            user.replace_operand(self, new)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name or id(self):} : {self.type}>"


class Constant(Value):
    """An integer, float or null-pointer constant."""

    def __init__(self, type: Type, value: int | float) -> None:
        super().__init__(type, "")
        self.value: int | float = value


class Undef(Value):
    """A value that may be anything (uninitialized variable)."""


class Argument(Value):
    """A parameter of a function (for a loop region: a live-in or carried value)."""

    def __init__(self, type: Type, name: str, index: int) -> None:
        super().__init__(type, name)
        self.index: int = index
        self.may_wrap: bool = False
        """True when consecutive lanes of this (strided) parameter may wrap
        around its type: a ``linear`` variable of an unsigned or narrow
        type, whose C updates wrap legally.  The shapes then keep no stride
        across a widening cast.  The loop variable never wraps (the code
        generator runs no iteration when it would)."""


# ---------------------------------------------------------------------------
# Instructions


class Instruction(Value):
    """Base of all instructions.  ``opcode`` is the textual mnemonic."""

    opcode: str = "?"

    def __init__(self, type: Type, operands: Sequence[Value], name: str = "") -> None:
        super().__init__(type, name)
        self.operands: list[Value] = []
        """Operands in order; change only through ``set_operand``."""
        self.block: Block | None = None
        """The block holding this instruction (None while detached)."""
        self.mask: Value | None = None
        """Lane predicate (i1); None means every lane active in the block."""
        self.loc: Location | None = None
        """Where in the source the instruction comes from (a diagnostics
        Location, set by lowering on branches, calls, loads and stores;
        copies keep it): the report counts the source's accesses and calls,
        not their copies."""
        for op in operands:
            self.operands.append(op)
            op.users.append(self)

    @property
    def parent(self) -> Block:
        """The block holding the instruction (an IRError while it is detached)."""
        if self.block is None:
            raise IRError(f"a '{self.opcode}' instruction in no block")
        return self.block

    # -- use-list maintenance ------------------------------------------------
    def set_operand(self, index: int, new: Value) -> None:
        old = self.operands[index]
        old.users.remove(self)
        self.operands[index] = new
        new.users.append(self)

    def replace_operand(self, old: Value, new: Value) -> None:
        for i, op in enumerate(self.operands):
            if op is old:
                self.set_operand(i, new)
        if self.mask is old:
            self.set_mask(new)

    def set_mask(self, mask: Value | None) -> None:
        if self.mask is not None:
            self.mask.users.remove(self)
        self.mask = mask
        if mask is not None:
            mask.users.append(self)

    def drop_operands(self) -> None:
        """Forget all operands (before deleting the instruction)."""
        for op in self.operands:
            op.users.remove(self)
        self.operands = []
        self.set_mask(None)

    def erase(self) -> None:
        """Remove from its block and drop operands; it must have no users."""
        assert not self.users, f"erasing a '{self.opcode}' instruction that still has users"
        if self.block is not None:
            self.block.instructions.remove(self)
            self.block = None
        self.drop_operands()

    @property
    def is_terminator(self) -> bool:
        return False

    @property
    def has_side_effects(self) -> bool:
        return False


class BinOp(Instruction):
    """``op a, b``: add sub mul div rem and or xor shl shr min max (C semantics)."""

    OPS = ("add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "min", "max")

    def __init__(self, op: str, a: Value, b: Value, name: str = "") -> None:
        assert op in self.OPS, op
        super().__init__(a.type, [a, b], name)
        self.opcode = op

    @property
    def op(self) -> str:
        """The operation (the opcode)."""
        return self.opcode


class UnOp(Instruction):
    """``neg a`` (arithmetic negation) or ``not a`` (bitwise complement)."""

    OPS = ("neg", "not")

    def __init__(self, op: str, a: Value, name: str = "") -> None:
        assert op in self.OPS, op
        super().__init__(a.type, [a], name)
        self.opcode = op

    @property
    def op(self) -> str:
        """The operation (the opcode)."""
        return self.opcode


class Cmp(Instruction):
    """``cmp pred a, b`` -> i1, with pred in eq ne lt le gt ge."""

    opcode = "cmp"
    PREDS = ("eq", "ne", "lt", "le", "gt", "ge")

    def __init__(self, pred: str, a: Value, b: Value, name: str = "") -> None:
        assert pred in self.PREDS, pred
        super().__init__(mask_type(a.type), [a, b], name)
        self.pred: str = pred


class Cast(Instruction):
    """``cast v to T``: the C conversion of v to type T (also pointer decay)."""

    opcode = "cast"

    def __init__(self, v: Value, to: Type, name: str = "") -> None:
        super().__init__(to, [v], name)


class Select(Instruction):
    """``select c, a, b``: a where c is true, else b (no short-circuit)."""

    opcode = "select"

    def __init__(self, c: Value, a: Value, b: Value, name: str = "") -> None:
        super().__init__(a.type, [c, a, b], name)


class Gep(Instruction):
    """``gep p, i``: address of element i of the array p points into (in
    the vector IR, lanewise when p or i is a vector: a vector of pointers)."""

    opcode = "gep"

    def __init__(self, base: Value, index: Value, name: str = "") -> None:
        assert isinstance(element_type(base.type), PtrType), base.type
        super().__init__(gep_type(base.type, index.type), [base, index], name)


def gep_type(base: Type, index: Type) -> Type:
    """The result type of ``gep base, index``: the base's pointer type, or the
    vector of it when either operand is a vector."""
    lanes = base if isinstance(base, VectorType) else index
    return lanes.of(element_type(base)) if isinstance(lanes, VectorType) else base


class FieldAddr(Instruction):
    """``fieldaddr p, name``: address of a struct member (arrays decay)."""

    opcode = "fieldaddr"

    def __init__(self, base: Value, field: str, result_type: Type, name: str = "") -> None:
        assert isinstance(base.type, PtrType) and isinstance(base.type.pointee, StructType)
        super().__init__(result_type, [base], name)
        self.field: str = field

    @property
    def offset(self) -> int:
        base = self.operands[0].type
        assert isinstance(base, PtrType) and isinstance(base.pointee, StructType)
        return base.pointee.field_named(self.field).offset


def address_base(ptr: Value) -> Value:
    """The pointer an address is computed from, through ``gep``, ``fieldaddr``
    and casts (an ``alloca``, a parameter, a loaded pointer ...): addresses
    with different stack objects as bases never meet."""
    while isinstance(ptr, (Gep, Cast, FieldAddr)):
        ptr = ptr.operands[0]
    return ptr


class Load(Instruction):
    """``load p``: read the value p points to."""

    opcode = "load"

    def __init__(self, ptr: Value, name: str = "") -> None:
        assert isinstance(ptr.type, PtrType), ptr.type
        super().__init__(ptr.type.pointee, [ptr], name)


class Store(Instruction):
    """``store v, p``: write v where p points."""

    opcode = "store"

    def __init__(self, value: Value, ptr: Value) -> None:
        super().__init__(VOID, [value, ptr])

    @property
    def has_side_effects(self) -> bool:
        return True


class Alloca(Instruction):
    """``alloca T``: a stack object private to one execution (per lane).

    ``alloca T interleaved`` (T a scalar or an array of scalars E) is one
    object shared by all lanes holding every lane's copy of T, element by
    element: element j of lane k is element ``j * W + k`` (``@s2s.width``,
    ``@s2s.lane``), so lanes that touch the same element touch neighbours
    (transform.per_lane_storage)."""

    opcode = "alloca"

    def __init__(self, allocated: Type, name: str = "", interleaved: bool = False) -> None:
        super().__init__(PtrType(allocated), [], name)
        self.allocated: Type = allocated
        self.interleaved = interleaved


ANY = "s2s.any"
"""``call i1 @s2s.any(%mask)``: some active lane has the mask set (uniform)."""
ALL = "s2s.all"
"""``call i1 @s2s.all(%mask)``: every active lane has it set (uniform)."""
POPCOUNT = "s2s.popcount"
"""``call i32 @s2s.popcount(%mask)``: how many active lanes have it set (uniform)."""
HORIZONTAL = (ANY, ALL, POPCOUNT)
"""Calls that combine the lanes active at the call (its mask) into one value."""
LANE = "s2s.lane"
"""``call i64 @s2s.lane()``: the lane's number, 0 to W - 1 (stride 1)."""
WIDTH = "s2s.width"
"""``call i64 @s2s.width()``: W, the number of lanes (uniform)."""


class Call(Instruction):
    """``call @f(args)``: a call of a C function by name."""

    opcode = "call"

    def __init__(
        self, callee: str, args: Sequence[Value], ret: Type, pure: bool = False, name: str = ""
    ) -> None:
        super().__init__(ret, list(args), name)
        self.callee: str = callee
        """The C name of the called function."""
        self.pure: bool = pure
        """True when the call reads no memory and writes none (math functions)."""
        self.loc = None
        """Where the call is in the source (a diagnostics Location, set by
        lowering): the report says at each call how it went."""
        self.wants_variant: bool = False
        """Set by transform.inline on a call it leaves for an internal vector
        variant of the callee (s2s.internal_variants)."""
        self.not_inlined: str = ""
        """Why a call of a function whose body the translation unit holds
        cannot be inlined (set by lowering and by transform.inline; the
        report gives it for calls that are serialized)."""
        self.lane_strides: dict[int, int] = {}
        """Vector IR: operand position -> stride, for the vector operands
        whose lanes the divergence analysis proves linear (lane k holds
        lane 0's value + k * stride; bytes for addresses): a declare simd
        variant may take such an operand as lane 0's value."""

    @property
    def has_side_effects(self) -> bool:
        return not self.pure


class Phi(Instruction):
    """``phi [v1, b1], [v2, b2] ...``: the value coming from each predecessor."""

    opcode = "phi"

    def __init__(self, type: Type, name: str = "") -> None:
        super().__init__(type, [], name)
        self.incoming_blocks: list[Block] = []

    def add_incoming(self, value: Value, block: Block) -> None:
        self.operands.append(value)
        value.users.append(self)
        self.incoming_blocks.append(block)

    def incoming(self) -> Iterator[tuple[Value, Block]]:
        return zip(list(self.operands), list(self.incoming_blocks))

    def value_from(self, block: Block) -> Value:
        return self.operands[self.incoming_blocks.index(block)]

    def replace_incoming_block(self, old: Block, new: Block) -> None:
        """The values that came from ``old`` come from ``new`` now."""
        self.incoming_blocks = [new if b is old else b for b in self.incoming_blocks]

    def remove_incoming(self, block: Block) -> None:
        i = self.incoming_blocks.index(block)
        self.operands[i].users.remove(self)
        del self.operands[i]
        del self.incoming_blocks[i]

    def drop_operands(self) -> None:
        super().drop_operands()
        self.incoming_blocks = []


class Terminator(Instruction):
    """Base of the instructions that end a block."""

    @property
    def is_terminator(self) -> bool:
        return True

    @property
    def successors(self) -> list[Block]:
        return []

    def replace_successor(self, old: Block, new: Block) -> None:
        raise NotImplementedError(type(self).__name__)


class Br(Terminator):
    """``br target``."""

    opcode = "br"

    def __init__(self, target: Block) -> None:
        super().__init__(VOID, [])
        self.target: Block = target

    @property
    def successors(self) -> list[Block]:
        return [self.target]

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.target is old:
            self.target = new


class CondBr(Terminator):
    """``condbr c, if_true, if_false``."""

    opcode = "condbr"

    def __init__(self, cond: Value, if_true: Block, if_false: Block) -> None:
        super().__init__(VOID, [cond])
        self.if_true: Block = if_true
        self.if_false: Block = if_false
        self.loc = None
        """Where the condition is in the source (a diagnostics Location, set
        by lowering): the report names the branches transforms changed."""

    @property
    def successors(self) -> list[Block]:
        return [self.if_true, self.if_false]

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.if_true is old:
            self.if_true = new
        if self.if_false is old:
            self.if_false = new


class Switch(Terminator):
    """``switch v, default [k1: b1, k2: b2 ...]``."""

    opcode = "switch"

    def __init__(
        self, value: Value, default: Block, cases: Sequence[tuple[int, Block]] = ()
    ) -> None:
        super().__init__(VOID, [value])
        self.default: Block = default
        self.cases: list[tuple[int, Block]] = list(cases)

    @property
    def successors(self) -> list[Block]:
        seen: list[Block] = []
        for b in [self.default] + [b for _, b in self.cases]:
            if b not in seen:
                seen.append(b)
        return seen

    def replace_successor(self, old: Block, new: Block) -> None:
        if self.default is old:
            self.default = new
        self.cases = [(k, new if b is old else b) for k, b in self.cases]


class Ret(Terminator):
    """``ret v1, v2 ...``: leave the function (a region returns its carried values)."""

    opcode = "ret"

    def __init__(self, values: Sequence[Value] = ()) -> None:
        super().__init__(VOID, list(values))


# ---------------------------------------------------------------------------
# Blocks and functions


class Block:
    """A basic block: phis first, then ordinary instructions, then one terminator."""

    def __init__(self, name: str = "") -> None:
        self.name: str = name
        """Label hint; the printer makes it unique."""
        self.instructions: list[Instruction] = []
        self.function: Function | None = None
        self.rarely_entered: bool = False
        """A hint from the transform that made the block: few vectors have a
        lane that enters it (BOSCC gives it an all-false skip whatever it
        weighs)."""
        self.usually_entered: bool = False
        """The opposite hint: nearly every vector has a lane that enters it
        (an all-false skip would never be taken: BOSCC gives it none, whatever
        it weighs)."""

    @property
    def terminator(self) -> Terminator | None:
        if self.instructions and isinstance(self.instructions[-1], Terminator):
            return self.instructions[-1]
        return None

    def replace_successor(self, old: Block, new: Block) -> None:
        """Send the block's edges to ``old`` to ``new`` (it must be terminated)."""
        term = self.terminator
        if term is None:
            raise IRError(f"block {self.name} has no terminator")
        term.replace_successor(old, new)

    @property
    def successors(self) -> list[Block]:
        term = self.terminator
        return term.successors if term is not None else []

    @property
    def phis(self) -> list[Phi]:
        return [i for i in self.instructions if isinstance(i, Phi)]

    def insert(self, index: int, inst: Instruction) -> None:
        inst.block = self
        self.instructions.insert(index, inst)

    def append(self, inst: Instruction) -> None:
        self.insert(len(self.instructions), inst)

    def __repr__(self) -> str:
        return f"<Block {self.name or id(self)}>"


class Function:
    """A function, or a loop region seen as a function of its live-ins."""

    def __init__(
        self, name: str, args: Sequence[Argument] = (), ret_types: Sequence[Type] = ()
    ) -> None:
        self.name: str = name
        self.args: list[Argument] = list(args)
        """Parameters; for a loop region the induction variable comes first."""
        self.ret_types: list[Type] = list(ret_types)
        """Types of the values ``ret`` hands back (region: carried values)."""
        self.blocks: list[Block] = []
        """Blocks in layout order; the first is the entry."""

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def add_block(self, block: Block) -> Block:
        block.function = self
        self.blocks.append(block)
        return block

    def remove_block(self, block: Block) -> None:
        self.blocks.remove(block)
        block.function = None

    def add_arg(self, type: Type, name: str) -> Argument:
        arg = Argument(type, name, len(self.args))
        self.args.append(arg)
        return arg

    def predecessors(self) -> dict[Block, list[Block]]:
        """Map each block to its predecessors, in layout order, without repeats."""
        preds: dict[Block, list[Block]] = {b: [] for b in self.blocks}
        for b in self.blocks:
            for s in b.successors:
                if b not in preds[s]:
                    preds[s].append(b)
        return preds

    def instructions(self) -> Iterator[Instruction]:
        for b in self.blocks:
            yield from b.instructions

    def __repr__(self) -> str:
        return f"<Function {self.name}>"


@dataclass(eq=False)
class IRError(Exception):
    """Raised by the verifier and the textual parser.

    Not frozen: Python assigns ``__traceback__`` when an exception passes a
    ``contextlib`` context manager (and pytest does so too), which a frozen
    dataclass turns into ``FrozenInstanceError``.
    """

    message: str

    def __str__(self) -> str:
        return self.message
