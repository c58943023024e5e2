"""C scalar types of the fuzz generator and UB-free expression forms over them.

Every helper returns C text whose value has exactly the requested type and
whose evaluation is defined for all operand values: signed arithmetic that
could overflow is done in an unsigned type and converted back (an
implementation-defined conversion, the same under gcc and clang on x86-64
and AArch64), shift counts are masked below the promoted width and left
shifts are unsigned, divisors are made non-zero and never -1 next to the
minimum, and float-to-integer conversions are range-checked first.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CType:
    """One arithmetic type; `signed` is None for plain char (ABI-dependent)."""

    name: str
    tag: str
    bits: int
    signed: bool | None
    floating: bool = False

    @property
    def min_macro(self) -> str:
        return {"char": "CHAR_MIN"}.get(self.tag, f"{self.name[:-2].upper()}_MIN")

    @property
    def max_macro(self) -> str:
        return {"char": "CHAR_MAX"}.get(self.tag, f"{self.name[:-2].upper()}_MAX")

    @property
    def arith(self) -> str:
        """The unsigned type wrapping arithmetic on this type is done in: at
        least 32 bits, so uint16_t * uint16_t is not promoted to int."""
        return "uint64_t" if self.bits == 64 else "uint32_t"

    @property
    def promoted_bits(self) -> int:
        return 64 if self.bits == 64 else 32

    @property
    def min_value(self) -> int:
        if self.signed is False:
            return 0
        return -(1 << (self.bits - 1))

    @property
    def max_value(self) -> int:
        if self.signed is False:
            return (1 << self.bits) - 1
        return (1 << (self.bits - 1)) - 1

    def literal(self, value: int | float) -> str:
        """A constant of this type (cast, so the expression's type is exact)."""
        if self.floating:
            text = repr(float(value))
            if "e" not in text and "." not in text and "inf" not in text and "nan" not in text:
                text += ".0"
            return f"{text}f" if self.bits == 32 else text
        v = int(value)
        if self.tag != "char" and v == self.min_value and self.signed:
            return f"(({self.name}){self.min_macro})"
        if self.bits == 64:
            suffix = "ull" if (self.signed is False or v > (1 << 63) - 1) else "ll"
            if v < 0:
                return f"(({self.name})(-{-v - 1}ll - 1))"
            return f"(({self.name}){v}{suffix})"
        if v < 0:
            return f"(({self.name})({v}))"
        return f"(({self.name}){v}{'u' if self.signed is False else ''})"


I8 = CType("int8_t", "i8", 8, True)
U8 = CType("uint8_t", "u8", 8, False)
I16 = CType("int16_t", "i16", 16, True)
U16 = CType("uint16_t", "u16", 16, False)
I32 = CType("int32_t", "i32", 32, True)
U32 = CType("uint32_t", "u32", 32, False)
I64 = CType("int64_t", "i64", 64, True)
U64 = CType("uint64_t", "u64", 64, False)
F32 = CType("float", "f32", 32, True, floating=True)
F64 = CType("double", "f64", 64, True, floating=True)
CHAR = CType("char", "char", 8, None)

INT_TYPES = (I8, U8, I16, U16, I32, U32, I64, U64)
ELEMENT_TYPES = INT_TYPES + (F32, F64)
BY_TAG = {t.tag: t for t in ELEMENT_TYPES + (CHAR,)}


def cast(t: CType, text: str) -> str:
    return f"(({t.name})({text}))"


# ---------------------------------------------------------------------------
# Integer operations (operands are C text of type t, free of side effects)


def int_arith(t: CType, op: str, a: str, b: str, natural: bool) -> str:
    """a op b for op in + - *, wrapping, of type t.

    `natural` asks for the plain C form where it cannot overflow: 8/16-bit
    operands promoted to int (except uint16_t * uint16_t), and unsigned
    32/64-bit arithmetic, which wraps by definition.
    """
    if natural and t.bits <= 16 and not (t.signed is False and t.bits == 16 and op == "*"):
        return cast(t, f"{a} {op} {b}")
    if natural and t.signed is False and t.bits >= 32:
        return f"({a} {op} {b})"
    return cast(t, f"({t.arith})({a}) {op} ({t.arith})({b})")


def int_neg(t: CType, a: str) -> str:
    return cast(t, f"({t.arith})0 - ({t.arith})({a})")


def int_bitwise(t: CType, op: str, a: str, b: str) -> str:
    return cast(t, f"{a} {op} {b}")


def int_shift(t: CType, op: str, a: str, count: str) -> str:
    """a << count (in the unsigned type: no shift of a negative value) or
    a >> count (arithmetic for signed, implementation-defined but not UB);
    count is masked below the width of the promoted left operand."""
    mask = t.promoted_bits - 1
    if op == "<<":
        return cast(t, f"({t.arith})({a}) << (({count}) & {mask})")
    return cast(t, f"({a}) >> (({count}) & {mask})")


def int_div(t: CType, op: str, a: str, b: str, form: str) -> str:
    """a / b or a % b without division by zero or MIN / -1.

    form: "guard" (the division only runs when it is defined, else a), "safe"
    (the divisor is made 1..8), or a non-zero constant other than -1.
    """
    if form == "guard":
        bad = f"({b}) == 0"
        if t.signed is not False:
            bad += f" || (({a}) == {t.min_macro} && ({b}) == -1)"
        return f"(({bad}) ? ({a}) : {cast(t, f'({a}) {op} ({b})')})"
    if form == "safe":
        return cast(t, f"({a}) {op} ((({b}) & 7) + 1)")
    return cast(t, f"({a}) {op} {form}")


def float_to_int(src: CType, dst: CType, x: str) -> str:
    """(dst)x where x is in range, else 0: exclusive bounds that are exact
    in float and double (powers of two, or their neighbours for 8/16 bits)."""
    if dst.signed is False:
        lo, cmp, hi = -1, ">", 1 << dst.bits
    elif dst.signed is None:  # plain char: the range valid for both signednesses
        lo, cmp, hi = -1, ">", 128
    elif dst.bits < 32:
        lo, cmp, hi = -(1 << (dst.bits - 1)) - 1, ">", 1 << (dst.bits - 1)
    else:  # -2^31 - 1 is not a float: compare >= -2^31
        lo, cmp, hi = -(1 << (dst.bits - 1)), ">=", 1 << (dst.bits - 1)
    lo_t, hi_t = src.literal(float(lo)), src.literal(float(hi))
    return f"((({x}) {cmp} {lo_t} && ({x}) < {hi_t}) ? ({dst.name})({x}) : ({dst.name})0)"
