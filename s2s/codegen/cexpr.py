"""Scalar C text for IR types, constants and single instructions.

Used for uniform (scalar) code in the vector loop and for the per-lane
fallback, so both follow the IR semantics exactly: integer arithmetic wraps
in the width of its type (computed in the unsigned type, no signed-overflow
undefined behaviour), ``min``/``max`` are ``a < b ? a : b`` / ``a > b ? a : b``,
compares and conversions are C's.  Nothing here depends on the target.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..diagnostics import internal_error
from ..ir.types import (
    ArrayType,
    FloatType,
    IntType,
    PtrType,
    StructType,
    Type,
    VoidType,
    element_type,
)
from ..ir.values import (
    BinOp,
    Call,
    Cast,
    Cmp,
    Constant,
    FieldAddr,
    Gep,
    Instruction,
    Load,
    Select,
    Undef,
    UnOp,
    Value,
)
from ..transform import fold

_INT_C = {
    (8, True): "int8_t",
    (16, True): "int16_t",
    (32, True): "int32_t",
    (64, True): "int64_t",
    (8, False): "uint8_t",
    (16, False): "uint16_t",
    (32, False): "uint32_t",
    (64, False): "uint64_t",
}


def c_type(t: Type) -> str:
    """The C spelling of an IR type used as a cast (``double *``)."""
    return c_decl(t, "").strip()


def c_decl(t: Type, name: str) -> str:
    """A C declarator of ``name`` with IR type ``t`` (``double (*p)[8]``)."""
    sep = " " if name else ""
    if isinstance(t, IntType):
        return ("int" if t.bits == 1 else _INT_C[(t.bits, t.signed)]) + sep + name
    if isinstance(t, FloatType):
        return ("float" if t.bits == 32 else "double") + sep + name
    if isinstance(t, VoidType):
        return "void" + sep + name
    if isinstance(t, StructType):
        return (t.c_spelling or f"struct {t.name}") + sep + name
    if isinstance(t, PtrType):
        inner = "*" + name
        if isinstance(t.pointee, ArrayType):
            inner = f"({inner})"
        return (
            c_decl(t.pointee, inner)
            if not isinstance(t.pointee, (IntType, FloatType, VoidType, StructType, PtrType))
            else _ptr_decl(t.pointee, inner)
        )
    if isinstance(t, ArrayType):
        return c_decl(t.elem, f"{name}[{t.count}]")
    raise internal_error(f"the IR type '{t}' has no C spelling")


def _ptr_decl(pointee: Type, inner: str) -> str:
    base = c_decl(pointee, "")
    return f"{base} {inner}" if not base.endswith("*") else f"{base}{inner}"


def unsigned_of(t: IntType) -> str:
    """The unsigned C type arithmetic on t is done in (at least unsigned int)."""
    return _INT_C[(max(t.bits, 32), False)]


def literal(value: int | float, t: Type) -> str:
    """A C literal of type t with exactly this value."""
    if isinstance(t, FloatType):
        v = float(value)
        suffix = "f" if t.bits == 32 else ""
        if math.isnan(v):
            return f"({c_type(t)})NAN"
        if math.isinf(v):
            return f"({'-' if v < 0 else ''}({c_type(t)})INFINITY)"
        text = repr(v)
        return f"{text}{suffix}" if not text.startswith("-") else f"({text}{suffix})"
    if isinstance(t, IntType):
        v = int(value)
        if t.bits == 1:
            return "1" if v & 1 else "0"
        if t.signed:
            v = (v + (1 << (t.bits - 1))) % (1 << t.bits) - (1 << (t.bits - 1))
            if t.bits <= 32 and -(2**31) < v < 2**31:
                return str(v) if v >= 0 else f"({v})"
            if v == -(2**63):
                return "(-9223372036854775807LL - 1)"
            return f"{v}LL" if v >= 0 else f"({v}LL)"
        v %= 1 << t.bits
        return f"{v}u" if t.bits <= 32 else f"{v}ULL"
    if isinstance(t, PtrType):
        return f"(({c_type(t)})0)"
    raise internal_error(f"no C literal of the IR type '{t}'")


def value_literal(v: Value) -> str:
    """The C text of a constant or undef operand."""
    if isinstance(v, Constant):
        return literal(v.value, v.type)
    if isinstance(v, Undef):
        return literal(0, v.type)
    raise TypeError(v)


_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_BIN = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "rem": "%",
    "and": "&",
    "or": "|",
    "xor": "^",
}


def scalar_expr(inst: Instruction, ops: Sequence[str]) -> str:
    """C expression computing ``inst`` from its operands' C texts (of one
    lane, for a lanewise vector IR instruction)."""
    t = element_type(inst.type)
    if isinstance(inst, BinOp):
        return _binop(inst.op, t, ops[0], ops[1])
    if isinstance(inst, UnOp):
        return _unop(inst.op, t, ops[0])
    if isinstance(inst, Cmp):
        known = decided_comparison(inst)
        return known if known is not None else f"({ops[0]} {_CMP[inst.pred]} {ops[1]})"
    if isinstance(inst, Cast):
        return cast_expr(element_type(inst.operands[0].type), t, ops[0])
    if isinstance(inst, Select):
        return f"({ops[0]} ? {ops[1]} : {ops[2]})"
    if isinstance(inst, Gep):
        return f"({ops[0]} + {ops[1]})"
    if isinstance(inst, FieldAddr):
        return field_addr_expr(inst, ops[0])
    if isinstance(inst, Load):
        return f"(*{ops[0]})"
    if isinstance(inst, Call):
        return f"{inst.callee}({', '.join(ops)})"
    raise internal_error(f"the IR instruction '{inst.opcode}' has no scalar C form")


def decided_comparison(inst: Cmp) -> str | None:
    """The C value (``1``/``0``) of an integer comparison its operands' type
    decides (s2s.transform.fold), else None."""
    known = fold.decided_comparison(inst)
    return None if known is None else str(int(known))


def binop_expr(op: str, t: Type, a: str, b: str) -> str:
    """C expression of the binop ``op`` on values of type ``t``."""
    return _binop(op, t, a, b)


def _binop(op: str, t: Type, a: str, b: str) -> str:
    if op in ("min", "max"):
        rel = "<" if op == "min" else ">"
        return f"({a} {rel} {b} ? {a} : {b})"
    if isinstance(t, IntType) and t.bits == 1:
        return f"({a} {_BIN[op]} {b})"
    if isinstance(t, FloatType):
        return f"({a} {_BIN[op]} {b})"
    assert isinstance(t, IntType)
    ct = c_type(t)
    if op in ("add", "sub", "mul"):
        u = unsigned_of(t)
        return f"(({ct})(({u}){a} {_BIN[op]} ({u}){b}))"
    if op == "shl":
        return f"(({ct})(({unsigned_of(t)}){a} << {b}))"
    if op == "shr":
        return f"(({ct})({a} >> {b}))"
    return f"(({ct})({a} {_BIN[op]} {b}))"


def _unop(op: str, t: Type, a: str) -> str:
    if isinstance(t, IntType) and t.bits == 1:
        return f"(!{a})"
    if op == "neg":
        if isinstance(t, IntType):
            return f"(({c_type(t)})(0u - ({unsigned_of(t)}){a}))"
        return f"(-{a})"
    return f"(({c_type(t)})~{a})"


def cast_expr(src: Type, dst: Type, a: str) -> str:
    """C conversion of ``a`` (of IR type src) to IR type dst."""
    if isinstance(dst, IntType) and dst.bits == 1:
        return f"({a} != 0)"
    if isinstance(src, PtrType) and isinstance(dst, IntType):
        return f"(({c_type(dst)})(uintptr_t){a})"
    if isinstance(dst, PtrType) and isinstance(src, IntType):
        return f"(({c_type(dst)})(uintptr_t){a})"
    return f"(({c_type(dst)}){a})"


def field_addr_expr(inst: FieldAddr, base: str) -> str:
    """Address of the member, typed as the instruction's result."""
    rt = inst.type
    assert isinstance(rt, PtrType)
    return f"(({c_type(rt)})((char *){base} + {inst.offset}))"
