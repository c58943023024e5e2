"""Mapping of C types (libclang) to IR types, and the C conversion rules.

    char, signed char -> i8      unsigned char -> u8     _Bool -> i8 (0/1)
    short -> i16   int -> i32   long, long long -> i64   (unsigned: u16 u32 u64)
    float -> f32   double -> f64
    T* -> ptr<T>   T[N] -> [N x T]   struct S -> struct.S (offsets from clang)
    enum -> its underlying integer type; typedefs resolve to the canonical type

Plain ``char`` is signed on x86 but unsigned on AArch64, and libclang parses
for the host (x86).  By default it maps to i8; ``TypeMapper(plain_char_signed=
False)`` maps it to u8 for targets where char is unsigned, and
``saw_plain_char`` tells whether a region depends on the choice at all
(constants clang folds, like ``(char)200``, keep the x86 reading).

Rejected with Unsupported: long double, _Complex, __int128, half floats,
unions, bit-fields, variable-length arrays, function pointers, volatile.
"""
from __future__ import annotations

from typing import Optional

import clang.cindex as ci

from ..diagnostics import Location, Unsupported
from ..ir.types import (F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, VOID, ArrayType,
                        FloatType, IntType, PtrType, StructField, StructType, Type)

TK = ci.TypeKind

_SCALARS: dict[TK, Type] = {
    TK.BOOL: I8, TK.CHAR_S: I8, TK.CHAR_U: I8, TK.SCHAR: I8, TK.UCHAR: U8,
    TK.SHORT: I16, TK.USHORT: U16, TK.INT: I32, TK.UINT: U32,
    TK.LONG: I64, TK.ULONG: U64, TK.LONGLONG: I64, TK.ULONGLONG: U64,
    TK.FLOAT: F32, TK.DOUBLE: F64, TK.VOID: VOID,
}

_NAMED_UNSUPPORTED: dict[TK, str] = {
    TK.LONGDOUBLE: "long double", TK.COMPLEX: "_Complex", TK.INT128: "__int128",
    TK.UINT128: "unsigned __int128", TK.HALF: "half float", TK.ATOMIC: "_Atomic",
    TK.FLOAT128: "__float128", TK.VARIABLEARRAY: "variable-length array",
    TK.DEPENDENTSIZEDARRAY: "variable-length array",
    TK.FUNCTIONPROTO: "function pointer", TK.FUNCTIONNOPROTO: "function pointer",
    TK.VECTOR: "vector type", TK.EXTVECTOR: "vector type",
}


class TypeMapper:
    """Maps clang types to IR types; struct types are created once per name."""

    def __init__(self, plain_char_signed: bool = True) -> None:
        self.structs: dict[str, StructType] = {}
        self.plain_char = I8 if plain_char_signed else U8
        """The IR type of plain ``char``."""
        self.saw_plain_char = False
        """Whether any plain ``char`` type was mapped."""

    def map(self, t: ci.Type, loc: Optional[Location] = None) -> Type:
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
            return self.map(canon.get_declaration().enum_type, loc)
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

    def _record(self, t: ci.Type, canon: ci.Type, loc: Optional[Location]) -> StructType:
        decl = canon.get_declaration()
        if decl.kind == ci.CursorKind.UNION_DECL:
            raise Unsupported(f"union '{t.spelling}' in simd loop", loc)
        name, spelling = _struct_names(t, decl)
        if name in self.structs:
            return self.structs[name]
        if canon.get_size() < 0:
            raise Unsupported(f"incomplete type '{t.spelling}' in simd loop", loc)
        # Register first so self-referential structs (linked lists) terminate.
        st = StructType(name, (), canon.get_size(), spelling)
        self.structs[name] = st
        fields = []
        for f in canon.get_fields():
            if f.is_bitfield():
                del self.structs[name]
                raise Unsupported(f"bit-field '{f.spelling}' of '{t.spelling}' in simd loop", loc)
            if not f.spelling:
                del self.structs[name]
                raise Unsupported(f"anonymous member of '{t.spelling}' in simd loop", loc)
            ftype = f.type.get_canonical()
            ir = (PtrType(self.map(ftype.element_type, loc)) if ftype.kind == TK.INCOMPLETEARRAY
                  else self.map(f.type, loc))
            fields.append(StructField(f.spelling, ir, canon.get_offset(f.spelling) // 8))
        # StructType is frozen: set the fields of the registered object in place
        # so that recursive references see the same object.
        object.__setattr__(st, "fields", tuple(fields))
        return st


def _struct_names(t: ci.Type, decl: ci.Cursor) -> tuple[str, str]:
    """(IR name, C spelling) of a struct: the tag, else the typedef name."""
    if decl.spelling and _has_tag(decl) and "(" not in decl.spelling:
        return decl.spelling, f"struct {decl.spelling}"
    sugar = t
    while sugar.kind == TK.ELABORATED:
        sugar = sugar.get_named_type()
    if sugar.kind == TK.TYPEDEF:
        name = sugar.get_declaration().spelling
        return name, name
    loc = decl.location
    return f"anon{loc.line}_{loc.column}", ""


def _has_tag(decl: ci.Cursor) -> bool:
    """``struct tag {...}`` rather than ``typedef struct {...} name`` (clang
    gives the latter the typedef name as its spelling)."""
    toks = [t.spelling for t in decl.get_tokens()][:2]
    return len(toks) < 2 or toks[1] != "{"


def is_bool_ctype(t: ci.Type) -> bool:
    return t.get_canonical().kind == TK.BOOL


def is_struct_ctype(t: ci.Type) -> bool:
    return t.get_canonical().kind == TK.RECORD


def is_array_ctype(t: ci.Type) -> bool:
    return t.get_canonical().kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY,
                                      TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY)


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
    """The C spelling of a pointer to the element type of array ``t`` (its decay)."""
    elem = t.element_type
    dims = ""
    while elem.get_canonical().kind == TK.CONSTANTARRAY and elem.kind in (
            TK.CONSTANTARRAY, TK.ELABORATED, TK.TYPEDEF):
        if elem.kind != TK.CONSTANTARRAY:
            break
        dims += f"[{elem.element_count}]"
        elem = elem.element_type
    base = elem.spelling
    return f"{base} (*){dims}" if dims else f"{base} *"
