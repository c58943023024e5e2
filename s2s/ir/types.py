"""IR types: frozen values that print as the textual IR spells them.

Signedness lives in the integer type (``i32`` vs ``u32``) so that every
operation that cares (division, shifts right, compares, widening casts)
reads it from its operand type, and C emission can declare variables with
the right C type.  ``i1`` is the boolean type of compares and masks.

    i1 i8 i16 i32 i64 u8 u16 u32 u64   integers
    f32 f64                            IEEE floats
    ptr<T>                             pointer to T
    struct.NAME                        a C struct (fields, size, offsets)
    struct.complex.f32, .f64           a C complex object in memory (``re``, ``im``)
    [N x T]                            array (only as alloca / struct field)
    <N x T>, <vscale x N x T>          vector of N (or vscale times N) lanes of an
                                       integer, float or pointer T; <N x i1> is a mask
    void

Vector types belong to the vector IR the code generator makes from the
predicated scalar IR (s2s/ir/vector.py): lanewise binops, compares, selects
and casts take them as LLVM's do; a scalable vector's lane count is a
multiple of N known only at run time (SVE, RISC-V V).
"""

from __future__ import annotations

from dataclasses import dataclass, field


class Type:
    """Base class of all IR types."""

    def is_int(self) -> bool:
        return isinstance(self, IntType)

    def is_float(self) -> bool:
        return isinstance(self, FloatType)

    def is_ptr(self) -> bool:
        return isinstance(self, PtrType)

    def is_bool(self) -> bool:
        return isinstance(self, IntType) and self.bits == 1

    def is_vector(self) -> bool:
        return isinstance(self, VectorType)

    @property
    def size(self) -> int:
        """Size in bytes as the C compiler of an LP64 target lays it out."""
        raise TypeError(f"type {self} has no size")


@dataclass(frozen=True)
class IntType(Type):
    bits: int
    """Width in bits: 1 (bool), 8, 16, 32 or 64."""
    signed: bool = True
    """Signed (two's complement) or unsigned arithmetic."""

    def __str__(self) -> str:
        if self.bits == 1:
            return "i1"
        return f"{'i' if self.signed else 'u'}{self.bits}"

    @property
    def size(self) -> int:
        return max(1, self.bits // 8)


@dataclass(frozen=True)
class FloatType(Type):
    bits: int
    """32 (float) or 64 (double)."""

    def __str__(self) -> str:
        return f"f{self.bits}"

    @property
    def size(self) -> int:
        return self.bits // 8


@dataclass(frozen=True)
class PtrType(Type):
    pointee: Type
    """The type the pointer points to (element type for address arithmetic)."""

    def __str__(self) -> str:
        return f"ptr<{self.pointee}>"

    @property
    def size(self) -> int:
        return 8


@dataclass(frozen=True)
class ArrayType(Type):
    elem: Type
    count: int

    def __str__(self) -> str:
        return f"[{self.count} x {self.elem}]"

    @property
    def size(self) -> int:
        return self.count * self.elem.size


@dataclass(frozen=True)
class StructField:
    name: str
    type: Type
    offset: int
    """Byte offset of the field inside the struct."""


@dataclass(frozen=True, eq=False)
class StructType(Type):
    """A C struct.  Compared by name: two structs with one name are one type."""

    name: str
    """C spelling without the keyword, e.g. ``vec3`` for ``struct vec3``."""
    fields: tuple[StructField, ...] = field(default=(), repr=False)
    byte_size: int = 0
    c_spelling: str = ""
    """How C names the type (``struct vec3`` or a typedef name)."""

    def __str__(self) -> str:
        return f"struct.{self.name}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StructType) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("struct", self.name))

    @property
    def size(self) -> int:
        return self.byte_size

    def field_named(self, name: str) -> StructField:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self} has no field {name}")


@dataclass(frozen=True)
class VectorType(Type):
    """``<N x T>``: N lanes of T; ``<vscale x N x T>``: vscale times N lanes,
    vscale a run-time constant >= 1 of the machine."""

    elem: Type
    """An integer, float or pointer type (``i1`` for masks)."""
    lanes: int
    """The lane count, or its factor when ``scalable``."""
    scalable: bool = False

    def __str__(self) -> str:
        return f"<{'vscale x ' if self.scalable else ''}{self.lanes} x {self.elem}>"

    @property
    def size(self) -> int:
        if self.scalable:
            raise TypeError(f"type {self} has no size known before run time")
        return self.lanes * self.elem.size

    def of(self, elem: Type) -> VectorType:
        """The vector of ``elem`` with these lanes."""
        return VectorType(elem, self.lanes, self.scalable)

    def same_lanes(self, other: Type) -> bool:
        return isinstance(other, VectorType) and (other.lanes, other.scalable) == (
            self.lanes,
            self.scalable,
        )


def element_type(t: Type) -> Type:
    """The lane type of a vector type; a scalar type is its own."""
    return t.elem if isinstance(t, VectorType) else t


def mask_type(t: Type) -> Type:
    """The type of a compare of values of type ``t``: ``i1``, or the mask
    ``<N x i1>`` of a vector type's lanes."""
    return t.of(I1) if isinstance(t, VectorType) else I1


def lanes_agree(a: Type, b: Type) -> bool:
    """Both scalars, or vectors of the same lanes."""
    if isinstance(a, VectorType):
        return a.same_lanes(b)
    return not isinstance(b, VectorType)


@dataclass(frozen=True)
class VoidType(Type):
    def __str__(self) -> str:
        return "void"


# The types everybody uses, by their textual names.
I1 = IntType(1)
I8, I16, I32, I64 = IntType(8), IntType(16), IntType(32), IntType(64)
U8, U16, U32, U64 = (IntType(8, False), IntType(16, False), IntType(32, False), IntType(64, False))
F32, F64 = FloatType(32), FloatType(64)
VOID = VoidType()


def _complex_struct(part: FloatType) -> StructType:
    """The layout of a C complex object: C11 6.2.5p13, an array of two parts.
    Only objects in memory have it; a complex value is two values."""
    spelling = "_Complex float" if part == F32 else "_Complex double"
    return StructType(
        f"complex.{part}",
        (StructField("re", part, 0), StructField("im", part, part.size)),
        2 * part.size,
        spelling,
    )


COMPLEX_F32 = _complex_struct(F32)
COMPLEX_F64 = _complex_struct(F64)
COMPLEX_SPELLINGS = {t.name: t.c_spelling for t in (COMPLEX_F32, COMPLEX_F64)}
"""The C spelling of each complex struct, by its IR name."""


def complex_part(t: Type) -> FloatType | None:
    """The type of the parts of a complex IR type (None: not complex)."""
    if t == COMPLEX_F32:
        return F32
    if t == COMPLEX_F64:
        return F64
    return None


def complex_of(part: Type) -> StructType:
    """The complex type whose parts have type ``part`` (f32 or f64)."""
    return COMPLEX_F32 if part == F32 else COMPLEX_F64


SCALAR_TYPES: dict[str, Type] = {
    str(t): t for t in (I1, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, VOID)
}


def ptr(t: Type) -> PtrType:
    return PtrType(t)
