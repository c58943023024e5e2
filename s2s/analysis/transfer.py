"""Abstract transformers of the stride-alignment lattice (seed 001 Ch. 6.5, 10.4).

``transfer(inst, shape_of, width)`` computes the vector shape of one
instruction's result from the shapes of its operands.  It knows nothing about
control flow: phi nodes at divergent joins, divergent allocas and temporal
divergence are the business of ``divergence.py``.

Rules (numbers are referred to in the code):

  T1 constants: integer/pointer ``c`` -> (0, |c|) (so 0 -> (0, 0)); floats,
     bools and undef -> uniform.
  T2 add (s,a)+(s',a') = (s+s', gcd(a,a')); strided + varying a' = varying
     gcd(s,a,a'); varying + varying = varying gcd.  sub x y = add x (neg y).
  T3 mul by a constant c scales stride and alignment by c; uniform*uniform =
     (0, a*a'); otherwise varying with the product of the lane alignments.
  T4 shl by a constant c = mul by 2^c; and/or/xor with constants act on the
     low bits when the stride and alignment say those bits are known (10.4.5):
     ``x | c`` and ``x ^ c`` are ``x + c`` when c < 2^n and 2^n | gcd(s, a);
     ``x & (2^n-1)`` is uniform when 2^n | s; ``x & -2^n`` keeps stride s when 2^n | s.
  T5 div/shr by a constant c that divides stride and alignment (signed only,
     the division is then exact): (s/c, a/|c|).  rem by c dividing both -> (0, 0).
  T6 compares: uniform operands -> uniform; equal strides -> uniform (the
     difference is uniform; ordered predicates need signed or pointer
     operands); different strides -> uniform when the lines of Figure 10.13
     cannot cross within W lanes (needs ``width``).
  T7 casts: sign extension, truncation (stride modulo the new width,
     power-of-two alignments only) and pointer casts keep the shape;
     zero extension keeps a non-zero stride only for function arguments
     (loop variables never wrap inside one vector iteration: the code
     generator guarantees it); neither extension keeps one for lanes that
     may have wrapped: a truncation to 8 or 16 bits, or a ``linear``
     argument marked ``may_wrap`` (unsigned or narrow types wrap legally in
     C; a truncation to 32 bits is assumed not to wrap, like signed
     arithmetic below);
     int <-> float keeps only uniformity.
  T8 gep p, i = p + ext(i) * sizeof(elem) in bytes; fieldaddr adds the offset.
  T9 load: uniform address -> uniform, else varying (6.5.2).  Pure calls with
     uniform arguments -> uniform, other calls varying.
  T10 select: uniform condition -> join of the arms; varying condition ->
     the arm's shape when both arms are one value, else varying.
  T11 generic (DA-UARITH/DA-DARITH): uniform when all operands are uniform.
  T12 floats and i1 only distinguish uniform / varying (alignment 1).

Assumption (stated in T2/T5/T6/T7): signed integer arithmetic does not
overflow between the lanes of one vector iteration (C leaves signed overflow
undefined).  Unsigned arithmetic is modular: strides are kept modulo the
width of the type, alignments only as powers of two, and zero extension of a
strided unsigned value that may have wrapped becomes varying.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..ir.types import ArrayType, FloatType, IntType, PtrType, Type, VectorType
from ..ir.values import (
    HORIZONTAL,
    LANE,
    WIDTH,
    Alloca,
    Argument,
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
from .shapes import VectorShape

ShapeOf = Callable[[Value], VectorShape]

UNI = VectorShape.uniform()
VAR = VectorShape.varying()
BOT = VectorShape.bottom()


# ---------------------------------------------------------------------------
# helpers


def is_basic_type(t: Type) -> bool:
    """Types that use only uniform / varying (T12)."""
    return not (t.is_ptr() or (t.is_int() and not t.is_bool()))


def basic(shape: VectorShape) -> VectorShape:
    """Project onto the basic lattice (Section 10.2.1)."""
    if shape.is_bottom:
        return shape
    return UNI if shape.is_uniform else VAR


def constant_shape(v: Value) -> VectorShape:
    """T1."""
    if isinstance(v, Constant) and not is_basic_type(v.type):
        return VectorShape.uniform(abs(int(v.value)))
    return UNI


def const_int(v: Value) -> int | None:
    """The value of an integer or pointer constant, else None."""
    if isinstance(v, Constant) and not is_basic_type(v.type):
        return int(v.value)
    return None


def pow2_part(a: int) -> int:
    """Largest power of two dividing a (0 for 0)."""
    return a & -a if a else 0


def fit(shape: VectorShape, t: Type) -> VectorShape:
    """Interpret a shape in the native width of ``t`` (Section 10.1)."""
    if shape.is_bottom:
        return shape
    if is_basic_type(t):
        return basic(shape)
    if not isinstance(t, IntType) or t.bits >= 64:
        return shape
    stride = shape.stride
    if stride is not None:
        half = 1 << (t.bits - 1)
        stride = ((stride + half) % (1 << t.bits)) - half
    align = shape.alignment
    if not t.signed and align:
        # Modular values stay multiples of a only when a is a power of two.
        align = min(pow2_part(align), 1 << t.bits)
    if stride is None:
        return VectorShape.varying(align)
    return VectorShape(stride, align)


def is_signed_like(t: Type) -> bool:
    """Signed integers and pointers: arithmetic assumed not to wrap."""
    return t.is_ptr() or (isinstance(t, IntType) and t.signed)


# ---------------------------------------------------------------------------
# arithmetic on shapes (T2 - T5)


def add_shapes(x: VectorShape, y: VectorShape) -> VectorShape:
    """T2."""
    if x.is_bottom or y.is_bottom:
        return BOT
    if x.stride is not None and y.stride is not None:
        return VectorShape(x.stride + y.stride, math.gcd(x.alignment, y.alignment))
    return VectorShape.varying(math.gcd(x.lane_alignment(), y.lane_alignment()))


def neg_shape(x: VectorShape) -> VectorShape:
    if x.is_bottom or x.stride is None:
        return x
    return VectorShape(-x.stride, x.alignment)


def scale_shape(x: VectorShape, c: int) -> VectorShape:
    """T3 with a constant factor."""
    if x.is_bottom:
        return x
    if x.stride is None:
        return VectorShape.varying(abs(c) * x.alignment)
    return VectorShape(c * x.stride, abs(c) * x.alignment)


def mul_shapes(x: VectorShape, y: VectorShape, cx: int | None, cy: int | None) -> VectorShape:
    """T3."""
    if x.is_bottom or y.is_bottom:
        return BOT
    if cx is not None:
        return scale_shape(y, cx)
    if cy is not None:
        return scale_shape(x, cy)
    if x.is_uniform and y.is_uniform:
        return VectorShape.uniform(x.alignment * y.alignment)
    return VectorShape.varying(x.lane_alignment() * y.lane_alignment())


def _low_bits_known(x: VectorShape, n: int) -> bool:
    """The low n bits of every lane equal those of lane 0's base (2^n | s, 2^n | a)."""
    return x.stride is not None and (x.lane_alignment() % (1 << n) == 0)


def _or_xor_const(x: VectorShape, c: int) -> VectorShape | None:
    """T4: ``x | c`` / ``x ^ c`` behave like ``x + c`` when x's low bits are zero."""
    if c < 0:
        return None
    n = c.bit_length()
    if c == 0:
        return x
    if x.stride is not None and _low_bits_known(x, n):
        return add_shapes(x, VectorShape.uniform(c))
    if x.stride is None and x.alignment % (1 << n) == 0:
        return VectorShape.varying(math.gcd(x.alignment, c))
    return None


def _and_const(x: VectorShape, c: int) -> VectorShape | None:
    """T4: masks of low bits (2^n-1) and alignment masks (-2^n)."""
    if c >= 0 and (c + 1) & c == 0:  # c = 2^n - 1
        n = c.bit_length()
        if x.stride is not None and x.stride % (1 << n) == 0:
            if x.alignment % (1 << n) == 0:
                return VectorShape.uniform(0)  # every lane has those bits zero
            return VectorShape.uniform(math.gcd(x.alignment, 1 << n))
        if x.stride is None and x.alignment % (1 << n) == 0:
            return VectorShape.uniform(0)
        return None
    if c < 0 and (-c) & (-c - 1) == 0:  # c = -2^n
        p = -c
        if x.stride is not None and x.stride % p == 0:
            align = x.alignment if x.alignment % p == 0 else p
            return VectorShape(x.stride, align)
        if x.stride is None:
            return VectorShape.varying(x.alignment if x.alignment % p == 0 else p)
    return None


def _trailing_zero_pow(a: int, cap: int = 1 << 62) -> int:
    return pow2_part(a) if a else cap


def _bitop(op: str, x: VectorShape, y: VectorShape, cx: int | None, cy: int | None) -> VectorShape:
    if x.is_bottom or y.is_bottom:
        return BOT
    if cx is not None and cy is None:
        x, y, cx, cy = y, x, cy, cx
    if op == "and" and cy == 0:
        return VectorShape.uniform(0)
    if cy is not None:
        special = _and_const(x, cy) if op == "and" else _or_xor_const(x, cy)
        if special is not None:
            return special
    if x.is_uniform and y.is_uniform:
        return UNI
    tx = _trailing_zero_pow(x.lane_alignment())
    ty = _trailing_zero_pow(y.lane_alignment())
    # and keeps the zero low bits of either operand, or/xor only the common ones.
    return VectorShape.varying(min(max(tx, ty) if op == "and" else min(tx, ty), 1 << 62))


def _div_const(x: VectorShape, c: int) -> VectorShape | None:
    """T5 (exact division, signed)."""
    if c == 0:
        return None
    if x.stride is None:
        return VectorShape.varying(x.alignment // abs(c)) if x.alignment % c == 0 else None
    if x.stride % c == 0 and x.alignment % c == 0:
        return VectorShape(x.stride // c, x.alignment // abs(c))
    return None


def generic(shapes: list[VectorShape]) -> VectorShape:
    """T11."""
    if any(s.is_bottom for s in shapes):
        return BOT
    return UNI if all(s.is_uniform for s in shapes) else VAR


# ---------------------------------------------------------------------------
# instructions


def transfer(inst: Instruction, shape_of: ShapeOf, width: int | None = None) -> VectorShape:
    """The shape of ``inst``'s result from its operands' shapes (not for phis)."""
    ops = [shape_of(o) for o in inst.operands]
    if isinstance(inst, BinOp):
        result = _binop(inst, ops)
    elif isinstance(inst, UnOp):
        result = _unop(inst, ops[0])
    elif isinstance(inst, Cmp):
        result = _cmp(inst, ops[0], ops[1], width)
    elif isinstance(inst, Cast):
        result = _cast(inst, ops[0])
    elif isinstance(inst, Select):
        result = _select(inst, ops)
    elif isinstance(inst, Gep):
        result = _gep(inst, ops[0], ops[1])
    elif isinstance(inst, FieldAddr):
        result = add_shapes(ops[0], VectorShape.uniform(inst.offset))
    elif isinstance(inst, Load):
        result = generic(ops[:1])  # T9; the mask does not matter (masked concretization)
    elif isinstance(inst, Alloca):
        result = VectorShape.uniform(natural_alignment(inst.allocated))
    elif isinstance(inst, Call) and inst.callee == LANE:
        result = VectorShape(1, 0)  # 0, 1, ..., W - 1 (lane 0 is exactly 0)
    elif isinstance(inst, Call) and inst.callee == WIDTH:
        result = UNI
    elif isinstance(inst, Call) and inst.callee in HORIZONTAL:
        # one answer for all lanes (seed 001 Section 4.1: any/all are uniform)
        result = BOT if any(o.is_bottom for o in ops) else UNI
    elif isinstance(inst, Call):
        result = generic(ops) if inst.pure else (BOT if any(o.is_bottom for o in ops) else VAR)
    else:
        result = generic(ops)
    return fit(result, inst.type)


def natural_alignment(t: Type) -> int:
    """Alignment of the innermost scalar of a stack object (1 if unknown)."""
    while isinstance(t, (ArrayType, VectorType)):
        t = t.elem
    try:
        size = t.size
    except TypeError:
        return 1
    return size if size in (1, 2, 4, 8, 16) else 1


def _binop(inst: BinOp, ops: list[VectorShape]) -> VectorShape:
    x, y = ops
    t = inst.type
    if is_basic_type(t):
        return generic(ops)
    cx, cy = const_int(inst.operands[0]), const_int(inst.operands[1])
    op = inst.op
    if x.is_bottom or y.is_bottom:
        return BOT
    if op == "add":
        return add_shapes(x, y)
    if op == "sub":
        return add_shapes(x, neg_shape(y))
    if op == "mul":
        return mul_shapes(x, y, cx, cy)
    if op == "shl":
        if cy is not None and 0 <= cy < 64:
            return scale_shape(x, 1 << cy)
        if x.is_uniform and y.is_uniform:
            return VectorShape.uniform(x.alignment)
        return VectorShape.varying(x.lane_alignment())
    if op in ("and", "or", "xor"):
        return _bitop(op, x, y, cx, cy)
    if op in ("div", "shr") and cy is not None and is_signed_like(t):
        c = cy if op == "div" else (1 << cy if 0 <= cy < 63 else 0)
        exact = _div_const(x, c)
        if exact is not None:
            return exact
    if op == "rem" and cy:
        pow2_ok = is_signed_like(t) or pow2_part(abs(cy)) == abs(cy)
        if pow2_ok and x.lane_alignment() % cy == 0:
            return VectorShape.uniform(0)
    if op in ("min", "max") and is_signed_like(t) and x.stride is not None and x.stride == y.stride:
        # x - y is uniform, so every lane picks the same side.
        return x.join(y)
    if x.is_uniform and y.is_uniform:
        return UNI
    return VAR


def _unop(inst: UnOp, x: VectorShape) -> VectorShape:
    if is_basic_type(inst.type) or x.is_bottom:
        return basic(x)
    if inst.op == "neg":
        return neg_shape(x)
    return add_shapes(neg_shape(x), VectorShape.uniform(1))  # ~x == -x - 1


def _cmp(inst: Cmp, x: VectorShape, y: VectorShape, width: int | None) -> VectorShape:
    """T6."""
    if x.is_bottom or y.is_bottom:
        return BOT
    if x.is_uniform and y.is_uniform:
        return UNI
    t = inst.operands[0].type
    if is_basic_type(t) or x.stride is None or y.stride is None:
        return VAR
    pred = inst.pred
    if x.stride == y.stride:
        if pred in ("eq", "ne") or is_signed_like(t):
            return UNI
        return VAR
    if width is None or not is_signed_like(t) or pred in ("eq", "ne"):
        return VAR
    delta = x.stride - y.stride
    g = math.gcd(x.alignment, y.alignment)
    direction_ok = delta >= 0 if pred in ("ge", "lt") else delta <= 0
    if direction_ok and abs(delta) * (width - 1) < g:
        return UNI
    return VAR


def _cast(inst: Cast, x: VectorShape) -> VectorShape:
    """T7."""
    src, dst = inst.operands[0].type, inst.type
    if x.is_bottom:
        return x
    if is_basic_type(src) or is_basic_type(dst):
        return basic(x)
    widens = dst.is_ptr() or (isinstance(dst, IntType) and dst.bits > getattr(src, "bits", 64))
    if isinstance(src, IntType) and not src.signed and src.bits < 64 and widens:
        return zext_shape(inst.operands[0], x)
    if isinstance(src, IntType) and src.signed and widens and may_have_wrapped(inst.operands[0]):
        # sign extension of lanes that may have wrapped around (a truncation,
        # a linear variable of a narrow type): the wide lanes are not strided
        return (
            x if x.stride in (None, 0) else VectorShape.varying(pow2_part(x.lane_alignment()) or 1)
        )
    if isinstance(dst, IntType) and dst.bits < getattr(src, "bits", 64) and x.alignment:
        # Truncation is modular even for signed types: only power-of-two
        # alignments up to the new width survive (fit() then wraps the stride).
        align = min(pow2_part(x.alignment), 1 << dst.bits)
        x = VectorShape(x.stride, align) if x.stride is not None else VectorShape.varying(align)
    if wraps_to_signed(src, dst) and not fit(x, dst).is_uniform and x.stride is not None:
        # lanes may wrap between neighbours (2^31 - 1, then -2^31): the
        # analysis reads signed lanes as ordered integers (comparisons,
        # min/max, division, sign extension), so these are not strided
        return VectorShape.varying(pow2_part(x.lane_alignment()) or 1)
    return x


def wraps_to_signed(src: Type, dst: Type) -> bool:
    """A conversion that may wrap into a signed type (gcc and clang define it
    modulo 2^bits; it is not overflow): a truncation, or a same-width
    conversion from unsigned (``(int)i`` of a ``long`` or ``unsigned`` loop
    variable past 2^31)."""
    return (
        isinstance(src, IntType)
        and isinstance(dst, IntType)
        and dst.signed
        and (dst.bits < src.bits or (dst.bits == src.bits and not src.signed))
    )


def may_have_wrapped(value: Value) -> bool:
    """Whether the lanes of a strided value may have wrapped around its type,
    so that a sign extension of them is not strided: a parameter that says
    so (a ``linear`` variable of a narrow or unsigned type), or arithmetic
    in a narrow type.  Conversions that wrap into a signed type are not
    strided in the first place (``_cast``); signed arithmetic of 32 bits or
    more does not wrap (it would overflow: undefined)."""
    if isinstance(value, Argument):
        return value.may_wrap
    if isinstance(value, BinOp) and isinstance(value.type, IntType):
        return value.type.bits < 32  # arithmetic in a narrow type wraps
    return False


def zext_shape(value: Value, x: VectorShape) -> VectorShape:
    """Zero extension of an unsigned value (see the assumption in the docstring)."""
    if x.stride == 0 or (
        x.stride is not None and isinstance(value, Argument) and not value.may_wrap
    ):
        return x
    if x.stride is None:
        return x
    return VectorShape.varying(pow2_part(x.lane_alignment()) or 1)


def _select(inst: Select, ops: list[VectorShape]) -> VectorShape:
    """T10 (undef arms are ignored: they may take any value)."""
    c, a, b = ops
    va, vb = inst.operands[1], inst.operands[2]
    if isinstance(va, Undef):
        return b
    if isinstance(vb, Undef):
        return a
    if c.is_bottom:
        return BOT
    if c.is_uniform or same_value(va, vb):
        return a.join(b)
    # lanes pick different arms: varying, whatever the arms turn out to be
    # (an arm still at bottom may be a cycle through this select)
    known = [s.lane_alignment() for s in (a, b) if not s.is_bottom]
    return VectorShape.varying(math.gcd(*known) if known else 1)


def _gep(inst: Gep, base: VectorShape, index: VectorShape) -> VectorShape:
    """T8: offsets are in bytes."""
    if base.is_bottom or index.is_bottom:
        return BOT
    pointee = inst.operands[0].type
    assert isinstance(pointee, PtrType)
    try:
        size = pointee.pointee.size
    except TypeError:
        return generic([base, index])
    idx_value = inst.operands[1]
    idx_type = idx_value.type
    if isinstance(idx_type, IntType) and not idx_type.signed and idx_type.bits < 64:
        index = zext_shape(idx_value, index)
    return add_shapes(base, scale_shape(index, size))


def same_value(a: Value, b: Value) -> bool:
    """One SSA value, or two equal constants."""
    if a is b:
        return True
    return (
        isinstance(a, Constant)
        and isinstance(b, Constant)
        and a.type == b.type
        and a.value == b.value
        and not (isinstance(a.type, FloatType) and a.value != a.value)
    )
