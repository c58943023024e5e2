"""Mapping of C types (libclang) to IR types, and the C conversion rules.

    char, signed char -> i8      unsigned char -> u8     _Bool -> i8 (0/1)
    short -> i16   int -> i32   long, long long -> i64   (unsigned: u16 u32 u64)
    float -> f32   double -> f64
    _Complex float, _Complex double -> struct.complex.f32, struct.complex.f64
                 (in memory: the real part, then the imaginary part)
    T* -> ptr<T>   T[N] -> [N x T]   struct S -> struct.S (offsets from clang)
    enum -> its underlying integer type; typedefs resolve to the canonical type

Plain ``char`` is signed on x86 but unsigned on AArch64, and libclang parses
for the host (x86).  By default it maps to i8; ``TypeMapper(plain_char_signed=
False)`` maps it to u8 for targets where char is unsigned, and
``saw_plain_char`` tells whether a region depends on the choice at all
(constants clang folds, like ``(char)200``, keep the x86 reading).

Struct types get the C spelling the generated code uses at the loop from
``record_names`` (the tag, the typedef name, or ``__typeof__`` of a member or
variable for unnamed structs); the members of an anonymous struct member are
members of the enclosing struct.

A complex value is two SSA values in the lowering (lower_complex.py); its
struct type only describes complex objects in memory (``double complex *p``,
arrays of complex, struct members), so the IR stays real.

Rejected with Unsupported: long double, _Complex long double, integer
_Complex (a GNU extension), __int128, half floats
(``_Float16``), unions (also anonymous union members), bit-fields,
variable-length arrays, function pointers, volatile, structs declared inside
the simd loop.
"""

from __future__ import annotations

import clang.cindex as ci

from ..diagnostics import Location, Unsupported
from ..ir.types import (
    COMPLEX_F32,
    COMPLEX_F64,
    F32,
    F64,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    VOID,
    ArrayType,
    FloatType,
    IntType,
    PtrType,
    StructField,
    StructType,
    Type,
)
from .lower_clang import declaration, is_anonymous_record
from .record_names import RecordNamer, describe_record, record_kind

TK = ci.TypeKind

_SCALARS: dict[TK, Type] = {
    TK.BOOL: I8,
    TK.CHAR_S: I8,
    TK.CHAR_U: I8,
    TK.SCHAR: I8,
    TK.UCHAR: U8,
    TK.SHORT: I16,
    TK.USHORT: U16,
    TK.INT: I32,
    TK.UINT: U32,
    TK.LONG: I64,
    TK.ULONG: U64,
    TK.LONGLONG: I64,
    TK.ULONGLONG: U64,
    TK.FLOAT: F32,
    TK.DOUBLE: F64,
    TK.VOID: VOID,
}

_NAMED_UNSUPPORTED: dict[TK, str] = {
    TK.LONGDOUBLE: "long double",
    TK.INT128: "__int128",
    TK.UINT128: "unsigned __int128",
    TK.HALF: "half float",
    TK.ATOMIC: "_Atomic",
    TK.FLOAT128: "__float128",
    TK.VARIABLEARRAY: "variable-length array",
    TK.DEPENDENTSIZEDARRAY: "variable-length array",
    TK.FUNCTIONPROTO: "function pointer",
    TK.FUNCTIONNOPROTO: "function pointer",
    TK.VECTOR: "vector type",
    TK.EXTVECTOR: "vector type",
    TK.FLOAT16: "_Float16",
    TK.BFLOAT16: "__bf16",
    TK.IBM128: "__ibm128",
    TK.SHORTACCUM: "fixed-point type",
    TK.ACCUM: "fixed-point type",
    TK.LONGACCUM: "fixed-point type",
    TK.USHORTACCUM: "fixed-point type",
    TK.UACCUM: "fixed-point type",
    TK.ULONGACCUM: "fixed-point type",
}


class TypeMapper:
    """Maps clang types to IR types; struct types are created once per declaration."""

    def __init__(self, plain_char_signed: bool = True, scope: ci.Cursor | None = None) -> None:
        self.structs: dict[tuple[str, int], StructType] = {}
        """Per struct declaration (file, offset)."""
        self.plain_char = I8 if plain_char_signed else U8
        """The IR type of plain ``char``."""
        self.saw_plain_char = False
        """Whether any plain ``char`` type was mapped."""
        self.namer = RecordNamer(scope)
        """Spells struct types at ``scope`` (the simd loop) for the generated code."""

    def map(self, t: ci.Type, loc: Location | None = None) -> Type:
        """The IR type of a C type (typedefs resolved)."""
        if t.is_volatile_qualified():
            raise Unsupported("volatile object in simd loop", loc)
        canon = t.get_canonical()
        if canon.is_volatile_qualified():
            raise Unsupported("volatile object in simd loop", loc)
        kind = canon.kind
        if kind in (TK.CHAR_S, TK.CHAR_U):
            self.saw_plain_char = True
            return self.plain_char
        if kind in _SCALARS:
            return _SCALARS[kind]
        if kind in _NAMED_UNSUPPORTED:
            raise Unsupported(f"{_NAMED_UNSUPPORTED[kind]} in simd loop", loc)
        if kind == TK.ENUM:
            return self.map(declaration(canon).enum_type, loc)
        if kind == TK.COMPLEX:
            return self._complex(canon, loc)
        if kind == TK.POINTER:
            return PtrType(self.map(canon.get_pointee(), loc))
        if kind == TK.CONSTANTARRAY:
            return ArrayType(self.map(canon.element_type, loc), canon.element_count)
        if kind == TK.INCOMPLETEARRAY:
            # Only meaningful decayed (extern arrays, flexible members): the
            # callers turn it into a pointer.
            return PtrType(self.map(canon.element_type, loc))
        if kind == TK.RECORD:
            return self._record(t, canon, loc)
        raise Unsupported(f"type '{t.spelling}' in simd loop", loc)

    def _complex(self, canon: ci.Type, loc: Location | None) -> StructType:
        part = canon.element_type.get_canonical()
        if part.kind not in (TK.FLOAT, TK.DOUBLE):
            raise Unsupported(f"'{canon.spelling}' in simd loop", loc)
        return COMPLEX_F32 if part.kind == TK.FLOAT else COMPLEX_F64

    def _record(self, t: ci.Type, canon: ci.Type, loc: Location | None) -> StructType:
        decl = declaration(canon)
        what = describe_record(decl)
        if decl.kind == ci.CursorKind.UNION_DECL:
            named = what if what.startswith("unnamed") else f"union '{what}'"
            raise Unsupported(f"{named} in simd loop", loc)
        key = _decl_key(decl)
        if key in self.structs:
            return self.structs[key]
        where = decl.location
        if where.file is None:  # compiler-internal: __builtin_va_list's struct
            name = "va_list" if "va_list" in decl.spelling else f"'{what}'"
            raise Unsupported(f"{name} in simd loop", loc)
        if where.is_in_system_header:
            # Its layout is the one of the parsing host (x86-64); jmp_buf and
            # friends differ on AArch64, and the offsets are compiled in.
            raise Unsupported(
                f"'{what}' from a system header in simd loop (its layout "
                "may differ between targets)",
                loc,
            )
        if canon.get_size() < 0:
            raise Unsupported(f"incomplete type '{what}' in simd loop", loc)
        spelling = self.namer.spelling(decl, loc)
        # Register first so self-referential structs (linked lists) terminate.
        st = StructType(self._ir_name(decl), (), canon.get_size(), spelling)
        self.structs[key] = st
        try:
            fields = self._fields(canon, canon, what, loc)
        except Unsupported:
            del self.structs[key]
            raise
        # StructType is frozen: set the fields of the registered object in place
        # so that recursive references see the same object.
        object.__setattr__(st, "fields", tuple(fields))
        return st

    def _fields(
        self, record: ci.Type, outer: ci.Type, what: str, loc: Location | None
    ) -> list[StructField]:
        """The members of ``record``; those of an anonymous struct member
        (``struct S { int tag; struct { float x, y; }; }``) are members of
        ``outer`` itself, at their offsets in it."""
        fields: list[StructField] = []
        for f in record.get_fields():
            if f.is_bitfield():
                raise Unsupported(f"bit-field '{f.spelling}' of '{what}' in simd loop", loc)
            ftype = f.type.get_canonical()
            inner = ftype.get_declaration() if ftype.kind == TK.RECORD else None
            if inner is not None and is_anonymous_record(inner):
                if inner.kind == ci.CursorKind.UNION_DECL:
                    raise Unsupported(f"anonymous union member of '{what}' in simd loop", loc)
                fields += self._fields(ftype, outer, what, loc)
                continue
            # A flexible array member is an array in place (of unknown length),
            # not a pointer: ``f->d`` is the address ``(char *)f + offset``.
            ir = (
                ArrayType(self.map(ftype.element_type, loc), 0)
                if ftype.kind == TK.INCOMPLETEARRAY
                else self.map(f.type, loc)
            )
            fields.append(StructField(f.spelling, ir, outer.get_offset(f.spelling) // 8))
        return fields

    def _ir_name(self, decl: ci.Cursor) -> str:
        """The tag or typedef name, else ``anon<line>_<col>``; unique in the region
        (a local ``struct S`` may shadow another)."""
        base = (
            decl.spelling
            if record_kind(decl) != "unnamed"
            else f"anon{decl.location.line}_{decl.location.column}"
        )
        taken = {s.name for s in self.structs.values()}
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}.{n}"
        return name


def is_complex_ctype(t: ci.Type) -> bool:
    return t.get_canonical().kind == TK.COMPLEX


def _decl_key(decl: ci.Cursor) -> tuple[str, int]:
    start = decl.extent.start
    return (start.file.name if start.file else "", start.offset)


def is_bool_ctype(t: ci.Type) -> bool:
    return t.get_canonical().kind == TK.BOOL


def is_function_pointer(t: ci.Type) -> bool:
    """A pointer to a function (``double (*f)(double)``)."""
    canon = t.get_canonical()
    return canon.kind == TK.POINTER and canon.get_pointee().get_canonical().kind in (
        TK.FUNCTIONPROTO,
        TK.FUNCTIONNOPROTO,
    )


def is_struct_ctype(t: ci.Type) -> bool:
    return t.get_canonical().kind == TK.RECORD


def is_array_ctype(t: ci.Type) -> bool:
    return t.get_canonical().kind in (
        TK.CONSTANTARRAY,
        TK.INCOMPLETEARRAY,
        TK.VARIABLEARRAY,
        TK.DEPENDENTSIZEDARRAY,
    )


def promote(t: Type) -> Type:
    """C integer promotion: narrower than int -> int."""
    if isinstance(t, IntType) and t.bits < 32:
        return I32
    return t


def usual_arithmetic(a: Type, b: Type) -> Type:
    """The common type of the usual arithmetic conversions (LP64)."""
    if isinstance(a, FloatType) or isinstance(b, FloatType):
        bits = max(x.bits for x in (a, b) if isinstance(x, FloatType))
        return FloatType(bits)
    pa, pb = promote(a), promote(b)
    assert isinstance(pa, IntType) and isinstance(pb, IntType), (a, b)
    if pa == pb:
        return pa
    if pa.signed == pb.signed:
        return pa if pa.bits >= pb.bits else pb
    uns, sig = (pa, pb) if not pa.signed else (pb, pa)
    if uns.bits >= sig.bits:
        return uns
    return sig  # a wider signed type holds every value of the unsigned one


def pointer_c_type(t: ci.Type) -> str:
    """The C spelling of a pointer to the element type of array ``t`` (its decay).

    ``t`` may be sugar for an array (``typedef int V[4]``); typedefs are looked
    through until the array type itself."""
    t = _array_sugar(t)
    if t.kind not in (
        TK.CONSTANTARRAY,
        TK.INCOMPLETEARRAY,
        TK.VARIABLEARRAY,
        TK.DEPENDENTSIZEDARRAY,
    ):
        return f"{t.spelling} *"
    elem = t.element_type
    dims = ""
    while elem.get_canonical().kind == TK.CONSTANTARRAY:
        elem = _array_sugar(elem)
        if elem.kind != TK.CONSTANTARRAY:
            break
        dims += f"[{elem.element_count}]"
        elem = elem.element_type
    base = elem.spelling
    return f"{base} (*){dims}" if dims else f"{base} *"


def _array_sugar(t: ci.Type) -> ci.Type:
    """Peel typedefs, ``struct``-style elaboration and attributes off an array type."""
    for _ in range(64):  # typedef chains are finite; bound the walk anyway
        if t.kind == TK.ELABORATED:
            t = t.get_named_type()
        elif t.kind == TK.TYPEDEF:
            t = declaration(t).underlying_typedef_type
        else:
            return t
    return t.get_canonical()
