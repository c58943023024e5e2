"""Run IR functions for W lanes: scalar per lane, or predicated in lock step.

Used by tests to check that a transform preserves meaning: run the scalar
region once per lane (``run_lanes``), run the transformed, linearized region
in lock step (``run_predicated``), and compare results and memory.

Memory
    ``Memory`` holds separately allocated objects at integer addresses, with
    unallocated guard gaps between them.  Loads and stores are typed
    (``struct.pack``, little-endian) and every access must lie inside one
    live object, otherwise ``InterpreterError`` -- this catches an inactive
    lane that touches memory it must not.

Values
    Integers are Python ints kept in the range of their type (signed types
    two's complement, unsigned and ``i1`` non-negative), floats are Python
    floats (``f32`` values rounded through ``struct`` 'f'), pointers are ints.
    ``UNDEF`` is the undefined value: ``undef`` constants and what a masked-off
    lane produces.  Arithmetic on it gives ``UNDEF`` (except ``and`` with 0,
    ``or`` with all ones, ``select`` on a defined condition); using it as an
    address, branch condition, mask, stored value or call argument is an error.

C semantics
    Integer ops wrap; ``div``/``rem`` truncate toward zero and trap on zero;
    shift counts outside ``[0, bits)`` trap; float compares are ordered except
    ``ne``; ``min``/``max`` on floats are ``fmin``/``fmax``; casts follow C
    (float -> int truncates and traps when out of range, -> ``i1`` is
    ``!= 0``); ``gep`` scales by the pointee size.

Predicated mode (P-LLVM, seed 001 Chapter 4, restricted to control-uniform
code, the state after partial linearization)
    All lanes execute the same block sequence; a ``condbr``/``switch`` must
    see the same condition on every lane that is active (its mask, if any,
    is true and its condition is defined), else "divergent branch in
    predicated mode"; with no lane active it takes its first successor (any
    way is right there).  Each value is a list of W lane values.  An instruction
    with a mask executes only on lanes whose mask is true; other lanes get
    ``UNDEF`` and, for stores and calls, no effect.  Phis select by the
    predecessor actually taken.  Unmasked arithmetic that traps on a lane
    (e.g. division by zero on a lane that is logically inactive) yields
    ``UNDEF`` there instead of stopping: only its use can be wrong.
    Horizontal operations are calls: ``s2s.any(i1)`` / ``s2s.all(i1)`` /
    ``s2s.popcount(i1)`` (over the lanes of the call's mask) and any extra ones
    passed in ``horizontal``.
"""

from __future__ import annotations

import bisect
import enum
import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from .types import FloatType, IntType, PtrType, Type
from .values import (
    LANE,
    WIDTH,
    Alloca,
    Argument,
    BinOp,
    Block,
    Br,
    Call,
    Cast,
    Cmp,
    CondBr,
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
    Switch,
    Undef,
    UnOp,
    Value,
)


class InterpreterError(Exception):
    """A run-time error of the interpreted program (or of the interpreter's rules)."""


class Trap(InterpreterError):
    """An arithmetic trap (division by zero, bad shift, bad conversion)."""


class _UndefType(enum.Enum):
    """The undefined value; its one member is ``UNDEF``."""

    UNDEF = "UNDEF"

    def __repr__(self) -> str:
        return "UNDEF"

    def __str__(self) -> str:
        return "UNDEF"


UNDEF: Final = _UndefType.UNDEF
"""The undefined lane value (masked-off load results, ``undef`` constants)."""

Scalar = int | float | _UndefType
DEFAULT_STEP_LIMIT = 1_000_000


# ---------------------------------------------------------------------------
# Value representation


def _wrap_int(v: int, t: IntType) -> int:
    if t.bits == 1:
        return v & 1
    v &= (1 << t.bits) - 1
    if t.signed and v >= 1 << (t.bits - 1):
        v -= 1 << t.bits
    return v


def round_f32(x: float) -> float:
    """Round a double to the nearest float (ties to even), exactly like C."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        # struct refuses exactly the values whose correct rounding is infinite.
        return math.copysign(math.inf, x)


def normalize(value: object, t: Type) -> Scalar:
    """Bring a Python value into the canonical representation of type ``t``."""
    if value is UNDEF:
        return UNDEF
    if not isinstance(value, (int, float)):
        raise InterpreterError(f"{value!r} is not a value of type {t}")
    if isinstance(t, IntType):
        return _wrap_int(int(value), t)
    if isinstance(t, FloatType):
        f = float(value)
        return round_f32(f) if t.bits == 32 else f
    if isinstance(t, PtrType):
        return int(value) & (2**64 - 1)
    raise InterpreterError(f"no run-time values of type {t}")


# ---------------------------------------------------------------------------
# Memory


_FORMATS = {
    (8, True): "b",
    (8, False): "B",
    (16, True): "h",
    (16, False): "H",
    (32, True): "i",
    (32, False): "I",
    (64, True): "q",
    (64, False): "Q",
}


def _format(t: Type) -> str:
    if isinstance(t, IntType):
        return "B" if t.bits == 1 else _FORMATS[(t.bits, t.signed)]
    if isinstance(t, FloatType):
        return "f" if t.bits == 32 else "d"
    if isinstance(t, PtrType):
        return "Q"
    raise InterpreterError(f"cannot load or store a value of type {t}")


@dataclass
class _Object:
    start: int
    data: bytearray
    name: str
    live: bool = True


class Memory:
    """Byte-addressable memory made of separately allocated objects."""

    BASE = 0x10000

    def __init__(self, guard: int = 64) -> None:
        self.guard = guard
        """Unallocated bytes between objects, so overruns hit no object."""
        self.objects: list[_Object] = []
        self.starts: list[int] = []
        self.next_free = self.BASE

    def alloc(self, size: int, align: int = 16, name: str = "") -> int:
        """A fresh zero-filled object of ``size`` bytes; returns its address."""
        start = -(-self.next_free // align) * align
        self.objects.append(_Object(start, bytearray(max(size, 0)), name))
        self.starts.append(start)
        self.next_free = start + max(size, 1) + self.guard
        return start

    def free(self, addr: int) -> None:
        obj, offset = self._object_at(addr, 0)
        if offset != 0:
            raise InterpreterError(f"free of {addr:#x}, not the start of an object")
        obj.live = False

    def alloc_array(self, t: Type, values: Sequence[object], name: str = "") -> int:
        """Allocate an array of ``t`` holding ``values``; returns its address."""
        addr = self.alloc(t.size * len(values), max(16, t.size), name)
        for i, v in enumerate(values):
            self.store(addr + i * t.size, t, v)
        return addr

    def read_array(self, addr: int, t: Type, count: int) -> list[Scalar]:
        return [self.load(addr + i * t.size, t) for i in range(count)]

    def snapshot(self) -> dict[int, bytes]:
        """The contents of every live object by address (to compare two runs)."""
        return {o.start: bytes(o.data) for o in self.objects if o.live}

    def load(self, addr: Scalar, t: Type) -> Scalar:
        obj, offset = self._object_at(addr, t.size)
        return normalize(struct.unpack_from("<" + _format(t), obj.data, offset)[0], t)

    def store(self, addr: Scalar, t: Type, value: object) -> None:
        obj, offset = self._object_at(addr, t.size)
        v = normalize(value, t)
        struct.pack_into("<" + _format(t), obj.data, offset, v)

    def _object_at(self, addr: object, size: int) -> tuple[_Object, int]:
        """The live object holding ``size`` bytes at ``addr``, and the offset there."""
        if not isinstance(addr, int):
            raise InterpreterError("access through an undefined address")
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0:
            obj = self.objects[i]
            if addr + size <= obj.start + len(obj.data):
                if not obj.live:
                    raise InterpreterError(f"access to freed object {obj.name or ''} at {addr:#x}")
                return obj, addr - obj.start
            where = f"{addr - obj.start} bytes into object '{obj.name}' of {len(obj.data)} bytes"
        else:
            where = "before any object"
        raise InterpreterError(f"out-of-bounds access of {size} bytes at {addr:#x} ({where})")


# ---------------------------------------------------------------------------
# Math library


def _c_pow(x: float, y: float) -> float:
    try:
        return math.pow(x, y)
    except ValueError:
        if x == 0.0:  # pole: 0 ** negative
            odd = y == math.floor(y) and int(y) % 2 == 1
            return math.copysign(math.inf, x) if odd else math.inf
        return math.nan  # negative base, non-integer exponent
    except OverflowError:
        odd = y == math.floor(y) and int(y) % 2 == 1
        return -math.inf if x < 0 and odd else math.inf


def _guard(
    f: Callable[..., float], *, neg_nan: bool = False, zero: float | None = None
) -> Callable[..., float]:
    """Wrap ``math`` functions so domain and range errors give C's results."""

    def call(*args: float) -> float:
        x = args[0]
        if any(math.isnan(a) for a in args):
            return math.nan
        if zero is not None and x == 0.0:
            return zero
        if neg_nan and x < 0:
            return math.nan
        try:
            return f(*args)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan

    return call


def _c_round(x: float) -> float:
    """C ``round``: halfway cases away from zero."""
    if math.isinf(x) or math.isnan(x):
        return x
    ax = abs(x)
    r = math.floor(ax)
    if ax - r >= 0.5:
        r += 1
    return math.copysign(float(r), x)


def _integral(f: Callable[[float], int]) -> Callable[[float], float]:
    def call(x: float) -> float:
        if math.isinf(x) or math.isnan(x):
            return x
        return math.copysign(float(f(x)), x)

    return call


def _fmin(a: float, b: float) -> float:
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return a if a <= b else b


def _fmax(a: float, b: float) -> float:
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    return a if a >= b else b


def _fma(a: float, b: float, c: float) -> float:
    """a*b+c with one rounding (exact rational arithmetic for finite inputs)."""
    if not all(math.isfinite(v) for v in (a, b, c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return a * b + c  # keeps the sign rules of zero results
    try:
        return float(exact)
    except OverflowError:
        return math.copysign(math.inf, exact)


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


MATH_FUNCTIONS: dict[str, Callable[..., float]] = {
    "sqrt": _guard(math.sqrt, neg_nan=True),
    "fabs": math.fabs,
    "fmin": _fmin,
    "fmax": _fmax,
    "floor": _integral(math.floor),
    "ceil": _integral(math.ceil),
    "trunc": _integral(math.trunc),
    "round": _c_round,
    "fma": _fma,
    "exp": _exp,
    "exp2": _guard(math.exp2),
    "log": _guard(math.log, neg_nan=True, zero=-math.inf),
    "log2": _guard(math.log2, neg_nan=True, zero=-math.inf),
    "log10": _guard(math.log10, neg_nan=True, zero=-math.inf),
    "pow": _c_pow,
    "sin": _guard(math.sin),
    "cos": _guard(math.cos),
    "tan": _guard(math.tan),
    "atan": math.atan,
    "atan2": math.atan2,
    "cbrt": math.cbrt,
    "erf": math.erf,
    "tanh": math.tanh,
}
"""C math functions by their double names; the ``f`` versions (``sqrtf``)
compute in double and round the result to float."""
MATH_FUNCTIONS.update({name + "f": f for name, f in list(MATH_FUNCTIONS.items())})

Horizontal = Callable[[list[list[Scalar]], list[bool]], Scalar]
"""A horizontal operation: (per-argument lane values, lanes it runs on) -> result
broadcast to all lanes."""


def _h_any(args: list[list[Scalar]], lanes: list[bool]) -> Scalar:
    return int(any(_defined_bool(v, "s2s.any") for v, on in zip(args[0], lanes) if on))


def _h_all(args: list[list[Scalar]], lanes: list[bool]) -> Scalar:
    return int(all(_defined_bool(v, "s2s.all") for v, on in zip(args[0], lanes) if on))


def _defined_bool(v: Scalar, what: str) -> bool:
    if v is UNDEF:
        raise InterpreterError(f"{what} of an undefined lane")
    return bool(v)


def _h_popcount(args: list[list[Scalar]], lanes: list[bool]) -> Scalar:
    return sum(_defined_bool(v, "s2s.popcount") for v, on in zip(args[0], lanes) if on)


HORIZONTAL: dict[str, Horizontal] = {
    "s2s.any": _h_any,
    "s2s.all": _h_all,
    "s2s.popcount": _h_popcount,
}


# ---------------------------------------------------------------------------
# Per-lane semantics of one instruction


class Lane:
    """Executes one non-phi, non-terminator instruction for one lane."""

    def __init__(
        self,
        memory: Memory,
        externals: dict[str, Callable[..., object]],
        allocas: list[int],
        width: int = 1,
    ) -> None:
        self.memory = memory
        self.externals = externals
        self.allocas = allocas
        self.index = 0
        """The lane executing (``@s2s.lane``)."""
        self.width = width
        """W (``@s2s.width``; an interleaved alloca holds W copies)."""

    def execute(self, inst: Instruction, ops: list[Scalar]) -> Scalar:
        if isinstance(inst, BinOp):
            return binop(inst.op, ops[0], ops[1], inst.type)
        if isinstance(inst, UnOp):
            return unop(inst.op, ops[0], inst.type)
        if isinstance(inst, Cmp):
            return compare(inst.pred, ops[0], ops[1])
        if isinstance(inst, Cast):
            return cast(ops[0], inst.operands[0].type, inst.type)
        if isinstance(inst, Select):
            return select(ops[0], ops[1], ops[2])
        if isinstance(inst, Gep):
            return address(ops[0], ops[1], inst.type)
        if isinstance(inst, FieldAddr):
            return address(ops[0], inst.offset, None)
        return self.execute_effect(inst, ops)

    def execute_effect(self, inst: Instruction, ops: list[Scalar]) -> Scalar:
        if isinstance(inst, Load):
            return self.memory.load(defined(ops[0], "load address"), inst.type)
        if isinstance(inst, Store):
            value = defined(ops[0], "stored value")
            self.memory.store(defined(ops[1], "store address"), inst.operands[0].type, value)
            return UNDEF
        if isinstance(inst, Alloca):
            size = inst.allocated.size * (self.width if inst.interleaved else 1)
            addr = self.memory.alloc(size, 16, inst.name or "alloca")
            self.allocas.append(addr)
            return addr
        if isinstance(inst, Call):
            return self.call(inst, ops)
        raise InterpreterError(f"cannot execute {type(inst).__name__}")

    def call(self, inst: Call, ops: list[Scalar]) -> Scalar:
        if inst.callee in self.externals:
            args = [defined(v, f"argument of @{inst.callee}") for v in ops]
            result = self.externals[inst.callee](*args)
        elif inst.callee in MATH_FUNCTIONS:
            numbers = [v for v in ops if v is not UNDEF]
            if len(numbers) != len(ops):
                return UNDEF
            result = MATH_FUNCTIONS[inst.callee](*[float(v) for v in numbers])
        elif inst.callee in HORIZONTAL:  # one lane: any(x) == all(x) == count(x) == x
            return ops[0] if ops[0] is UNDEF else normalize(int(bool(ops[0])), inst.type)
        elif inst.callee in (LANE, WIDTH):
            return normalize(self.index if inst.callee == LANE else self.width, inst.type)
        else:
            raise InterpreterError(f"call of unknown function @{inst.callee}")
        if inst.type.is_int() or inst.type.is_float() or inst.type.is_ptr():
            return normalize(result, inst.type)
        return UNDEF


def defined(v: Scalar, what: str) -> int | float:
    if v is UNDEF:
        raise InterpreterError(f"{what} is undefined")
    return v


def _all_ones(t: Type) -> int:
    assert isinstance(t, IntType)
    return _wrap_int(-1, t)


def binop(op: str, a: Scalar, b: Scalar, t: Type) -> Scalar:
    if a is UNDEF or b is UNDEF:
        other = b if a is UNDEF else a
        if op == "and" and other == 0:
            return 0
        if op == "or" and other is not UNDEF and other == _all_ones(t):
            return other
        return UNDEF
    if isinstance(t, FloatType):
        return _float_binop(op, float(a), float(b), t)
    if isinstance(t, IntType):
        return _wrap_int(_int_binop(op, int(a), int(b), t), t)
    raise InterpreterError(f"'{op}' on type {t}")


def _int_binop(op: str, a: int, b: int, t: IntType) -> int:
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op in ("div", "rem"):
        if b == 0:
            raise Trap(f"integer {'division' if op == 'div' else 'remainder'} by zero")
        q = abs(a) // abs(b)
        if (a < 0) != (b < 0):
            q = -q  # C truncates toward zero
        return q if op == "div" else a - b * q
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op == "xor":
        return a ^ b
    if op in ("shl", "shr"):
        if not 0 <= b < max(t.bits, 1):
            raise Trap(f"shift count {b} out of range for {t}")
        return a << b if op == "shl" else a >> b  # a >> b: arithmetic iff signed
    if op == "min":
        return min(a, b)
    if op == "max":
        return max(a, b)
    raise InterpreterError(f"unknown operator {op}")


def _float_binop(op: str, a: float, b: float, t: FloatType) -> float:
    if op == "add":
        r = a + b
    elif op == "sub":
        r = a - b
    elif op == "mul":
        r = a * b
    elif op == "div":
        r = _float_div(a, b)
    elif op == "rem":
        r = (
            math.nan
            if b == 0.0 or math.isinf(a) or math.isnan(a) or math.isnan(b)
            else math.fmod(a, b)
        )
    elif op == "min":
        r = _fmin(a, b)
    elif op == "max":
        r = _fmax(a, b)
    else:
        raise InterpreterError(f"'{op}' on type {t}")
    return round_f32(r) if t.bits == 32 else r


def _float_div(a: float, b: float) -> float:
    if b != 0.0:
        return a / b
    if a == 0.0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def unop(op: str, a: Scalar, t: Type) -> Scalar:
    if a is UNDEF:
        return UNDEF
    if isinstance(t, FloatType):
        if op != "neg":
            raise InterpreterError(f"'{op}' on type {t}")
        return -float(a)
    assert isinstance(t, IntType)
    return _wrap_int(-int(a) if op == "neg" else ~int(a), t)


def compare(pred: str, a: Scalar, b: Scalar) -> Scalar:
    if a is UNDEF or b is UNDEF:
        return UNDEF
    # Normalized values compare correctly: unsigned ones are non-negative and
    # Python's float compares are false on NaN except !=.
    x, y = a, b
    result = {
        "eq": x == y,
        "ne": x != y,
        "lt": x < y,
        "le": x <= y,
        "gt": x > y,
        "ge": x >= y,
    }[pred]
    return int(result)


def select(c: Scalar, a: Scalar, b: Scalar) -> Scalar:
    if c is UNDEF:
        return a if a == b and a is not UNDEF else UNDEF
    return a if c else b


def address(base: Scalar, index: Scalar, ptr_type: Type | None) -> Scalar:
    if base is UNDEF or index is UNDEF:
        return UNDEF
    scale = 1
    if ptr_type is not None:
        assert isinstance(ptr_type, PtrType)
        scale = ptr_type.pointee.size
    return (int(base) + int(index) * scale) & (2**64 - 1)


def cast(v: Scalar, src: Type, dst: Type) -> Scalar:
    if v is UNDEF:
        return UNDEF
    if isinstance(dst, IntType) and dst.bits == 1:
        return int(v != 0)  # C conversion to _Bool
    if isinstance(dst, (IntType, PtrType)):
        if isinstance(src, FloatType):
            return _float_to_int(float(v), dst)
        return normalize(v, dst)
    if isinstance(dst, FloatType):
        if isinstance(src, (IntType, PtrType)):
            return _int_to_float(int(v), dst)
        return normalize(v, dst)
    raise InterpreterError(f"cannot cast {src} to {dst}")


def _float_to_int(x: float, t: Type) -> int:
    if math.isnan(x) or math.isinf(x):
        raise Trap(f"conversion of {x} to {t}")
    v = math.trunc(x)
    bits = t.bits if isinstance(t, IntType) else 64
    signed = isinstance(t, IntType) and t.signed
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= v <= hi:
        raise Trap(f"conversion of {x} to {t} out of range")
    return v


def _int_to_float(v: int, t: FloatType) -> float:
    if t.bits == 64 or abs(v) < 2**53:
        return round_f32(float(v)) if t.bits == 32 else float(v)
    # Round a wide integer to float once: keep 30 high bits plus a sticky bit.
    shift = abs(v).bit_length() - 30
    m = abs(v) >> shift
    if abs(v) & ((1 << shift) - 1):
        m |= 1
    return round_f32(math.copysign(float(m) * 2.0**shift, v))


# ---------------------------------------------------------------------------
# Drivers


class Frame:
    """Common state of one run: step counting and the block walk."""

    def __init__(self, fn: Function, step_limit: int) -> None:
        if not fn.blocks:
            raise InterpreterError(f"@{fn.name} has no blocks")
        self.fn = fn
        self.steps = 0
        self.step_limit = step_limit

    def step(self) -> None:
        self.steps += 1
        if self.steps > self.step_limit:
            raise InterpreterError(
                f"step limit of {self.step_limit} instructions exceeded in @{self.fn.name}"
            )


def constant(v: Value) -> Scalar:
    if isinstance(v, Undef):
        return UNDEF
    assert isinstance(v, Constant)
    return normalize(v.value, v.type)


def _check_args(fn: Function, args: Sequence[object]) -> None:
    if len(args) != len(fn.args):
        raise InterpreterError(f"@{fn.name} takes {len(fn.args)} arguments, got {len(args)}")


def run_scalar(
    fn: Function,
    args: Sequence[object],
    memory: Memory,
    externals: dict[str, Callable[..., object]] | None = None,
    step_limit: int = DEFAULT_STEP_LIMIT,
    lane_index: int = 0,
    width: int = 1,
) -> list[Scalar]:
    """Run ``fn`` for one lane (lane ``lane_index`` of ``width``); returns the
    values of its ``ret``."""
    _check_args(fn, args)
    frame = Frame(fn, step_limit)
    env: dict[Value, Scalar] = {a: normalize(v, a.type) for a, v in zip(fn.args, args)}
    allocas: list[int] = []
    lane = Lane(memory, externals or {}, allocas, width)
    lane.index = lane_index

    def value(v: Value) -> Scalar:
        if isinstance(v, (Argument, Instruction)):
            if v not in env:
                raise InterpreterError(f"use of %{v.name} before it is computed")
            return env[v]
        return constant(v)

    block, prev = fn.entry, None
    try:
        while True:
            _enter_block_scalar(block, prev, env, value, frame)
            for inst in block.instructions[len(block.phis) :]:
                frame.step()
                if inst.is_terminator:
                    target = scalar_successor(inst, value)
                    if target is None:
                        return [value(v) for v in inst.operands]
                    block, prev = target, block
                    break
                if inst.mask is not None and not defined(value(inst.mask), "mask"):
                    env[inst] = UNDEF
                    continue
                env[inst] = lane.execute(inst, [value(o) for o in inst.operands])
            else:
                raise InterpreterError(f"block {block.name} has no terminator")
    finally:
        for addr in allocas:
            memory.free(addr)


def _enter_block_scalar(
    block: Block,
    prev: Block | None,
    env: dict[Value, Scalar],
    value: Callable[[Value], Scalar],
    frame: Frame,
) -> None:
    phis = block.phis
    if not phis:
        return
    if prev is None:
        raise InterpreterError(f"phi in the entry block {block.name}")
    # All phis read their inputs before any of them is written (parallel copy).
    incoming = [value(phi_input(phi, prev)) for phi in phis]
    for phi, v in zip(phis, incoming):
        frame.step()
        env[phi] = v


def phi_input(phi: Phi, prev: Block) -> Value:
    try:
        return phi.value_from(prev)
    except ValueError:
        raise InterpreterError(
            f"phi %{phi.name} has no value for predecessor {prev.name}"
        ) from None


def scalar_successor(term: Instruction, value: Callable[[Value], Scalar]) -> Block | None:
    if isinstance(term, Br):
        return term.target
    if isinstance(term, CondBr):
        return (
            term.if_true if defined(value(term.operands[0]), "branch condition") else term.if_false
        )
    if isinstance(term, Switch):
        key = defined(value(term.operands[0]), "switch value")
        for k, b in term.cases:
            if normalize(k, term.operands[0].type) == key:
                return b
        return term.default
    assert isinstance(term, Ret)
    return None


def run_lanes(
    fn: Function,
    lane_args: Sequence[Sequence[object]],
    memory: Memory,
    externals: dict[str, Callable[..., object]] | None = None,
    step_limit: int = DEFAULT_STEP_LIMIT,
) -> list[list[Scalar]]:
    """Run ``fn`` once per lane, lane 0 first, all on the same memory."""
    return [
        run_scalar(fn, args, memory, externals, step_limit, k, len(lane_args))
        for k, args in enumerate(lane_args)
    ]


def run_predicated(
    fn: Function,
    lane_args: Sequence[Sequence[object]],
    memory: Memory,
    externals: dict[str, Callable[..., object]] | None = None,
    step_limit: int = DEFAULT_STEP_LIMIT,
    horizontal: dict[str, Horizontal] | None = None,
) -> list[list[Scalar]]:
    """Run control-uniform ``fn`` for all lanes in lock step; per-lane results."""
    for args in lane_args:
        _check_args(fn, args)
    return _Predicated(
        fn, lane_args, memory, externals or {}, step_limit, {**HORIZONTAL, **(horizontal or {})}
    ).run()


class _Predicated:
    """Lock-step execution; every value is a list of W lane values."""

    def __init__(
        self,
        fn: Function,
        lane_args: Sequence[Sequence[object]],
        memory: Memory,
        externals: dict[str, Callable[..., object]],
        step_limit: int,
        horizontal: dict[str, Horizontal],
    ) -> None:
        self.fn = fn
        self.width = len(lane_args)
        self.frame = Frame(fn, step_limit)
        self.memory = memory
        self.allocas: list[int] = []
        self.lane = Lane(memory, externals, self.allocas, self.width)
        self.horizontal = horizontal
        self.env: dict[Value, list[Scalar]] = {
            a: [normalize(args[a.index], a.type) for args in lane_args] for a in fn.args
        }

    def value(self, v: Value) -> list[Scalar]:
        if isinstance(v, (Argument, Instruction)):
            if v not in self.env:
                raise InterpreterError(f"use of %{v.name} before it is computed")
            return self.env[v]
        return [constant(v)] * self.width

    def run(self) -> list[list[Scalar]]:
        block, prev = self.fn.entry, None
        try:
            while True:
                self.enter_block(block, prev)
                for inst in block.instructions[len(block.phis) :]:
                    self.frame.step()
                    if inst.is_terminator:
                        target = self.successor(inst)
                        if target is None:
                            lanes = [self.value(v) for v in inst.operands]
                            return [[vals[k] for vals in lanes] for k in range(self.width)]
                        block, prev = target, block
                        break
                    self.env[inst] = self.execute(inst)
                else:
                    raise InterpreterError(f"block {block.name} has no terminator")
        finally:
            for addr in self.allocas:
                self.memory.free(addr)

    def enter_block(self, block: Block, prev: Block | None) -> None:
        phis = block.phis
        if not phis:
            return
        if prev is None:
            raise InterpreterError(f"phi in the entry block {block.name}")
        incoming = [self.value(phi_input(phi, prev)) for phi in phis]
        for phi, v in zip(phis, incoming):
            self.frame.step()
            self.env[phi] = v

    def lanes_on(self, inst: Instruction) -> list[bool]:
        if inst.mask is None:
            return [True] * self.width
        return [bool(defined(m, f"mask of lane {k}")) for k, m in enumerate(self.value(inst.mask))]

    def execute(self, inst: Instruction) -> list[Scalar]:
        on = self.lanes_on(inst)
        ops = [self.value(o) for o in inst.operands]
        if isinstance(inst, Call) and inst.callee in self.horizontal:
            result = self.horizontal[inst.callee](ops, on)
            return [normalize(result, inst.type)] * self.width
        if isinstance(inst, Alloca) and inst.interleaved:
            return [self.lane.execute(inst, [])] * self.width  # one object for all lanes
        # Unmasked pure arithmetic runs on lanes that may be logically
        # inactive; a trap there only makes that lane's value undefined.
        poison_traps = inst.mask is None and not isinstance(inst, (Load, Store, Alloca, Call))
        out: list[Scalar] = []
        for k in range(self.width):
            if not on[k]:
                out.append(UNDEF)
                continue
            self.lane.index = k
            try:
                out.append(self.lane.execute(inst, [vals[k] for vals in ops]))
            except Trap:
                if not poison_traps:
                    raise
                out.append(UNDEF)
        return out

    def successor(self, term: Instruction) -> Block | None:
        if isinstance(term, (Br, Ret)):
            return term.target if isinstance(term, Br) else None
        assert isinstance(term, (CondBr, Switch))
        on = self.lanes_on(term)
        cond = self.value(term.operands[0])
        if not any(on):
            # a masked uniform branch with no active lane: a condition defined
            # for all lanes (``any``) decides, else any way is right
            if UNDEF in cond or len(set(cond)) != 1:
                return term.successors[0]
            on = [True] * self.width
        seen = {cond[k] for k in range(self.width) if on[k] and cond[k] is not UNDEF}
        if not seen:
            raise InterpreterError("branch condition undefined on every active lane")
        if len(seen) > 1:
            raise InterpreterError(f"divergent branch in predicated mode (lane values {cond})")
        uniform = seen.pop()
        return scalar_successor(term, lambda v: uniform)


__all__ = [
    "HORIZONTAL",
    "MATH_FUNCTIONS",
    "UNDEF",
    "InterpreterError",
    "Memory",
    "normalize",
    "round_f32",
    "run_lanes",
    "run_predicated",
    "run_scalar",
]
