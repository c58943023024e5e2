"""The ``declare simd`` functions of a file: signature, clauses, ABI variants.

Every ``#pragma omp declare simd`` on a declaration or definition of a
function adds that pragma's variants (several pragmas: several sets; gcc
drops a repeated one, so do we).  The definition, when the file has it,
gets the variants emitted after it; a declaration alone makes its variants
callable from simd loops (they are defined in another object).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import clang.cindex as ci

from ..codegen.vfabi import FAMILIES, NoVariants, Variant, param_kinds, variants
from ..diagnostics import Location, Unsupported
from ..ir.types import Type, VoidType
from .lower_types import TypeMapper

CK = ci.CursorKind


@dataclass
class SimdFunction:
    name: str
    location: Location
    """The first pragma."""
    ret: Optional[Type]
    """None for void."""
    params: list[Type]
    param_names: list[str]
    variants: list[Variant] = field(default_factory=list)
    """For every family (x86 and AArch64), in gcc's order, no repeats."""
    definition: Optional[ci.Cursor] = None
    pragmas: list[Any] = field(default_factory=list)
    problem: Optional[Unsupported] = None
    """Why the function gets no variants (the warning)."""

    def for_isa(self, letter: str) -> list[Variant]:
        return [v for v in self.variants if v.isa.letter == letter]


def signature(cursor: ci.Cursor, types: TypeMapper, loc: Location
              ) -> tuple[Optional[Type], list[Type], list[str]]:
    """IR types of the return value and the parameters (Unsupported when
    one has no IR type)."""
    rt = cursor.type.get_result()
    ret = None if rt.get_canonical().kind == ci.TypeKind.VOID else types.map(rt, loc)
    params = [p for p in cursor.get_children() if p.kind == CK.PARM_DECL]
    if cursor.type.kind == ci.TypeKind.FUNCTIONNOPROTO or cursor.type.is_function_variadic():
        raise Unsupported("a function without a prototype or with '...' has no vector "
                          "variants", loc)
    return ret, [types.map(p.type, loc) for p in params], [p.spelling for p in params]


def collect(pragmas: list[Any], plain_char_signed: bool = True) -> dict[str, SimdFunction]:
    """The declare simd functions of the file by name (pragmas in source order)."""
    out: dict[str, SimdFunction] = {}
    for pragma in pragmas:
        if pragma.clauses.directive != "declare simd":
            continue
        cursor = pragma.target
        name = cursor.spelling
        fn = out.get(name)
        if fn is None:
            fn = out[name] = _new(cursor, pragma, plain_char_signed)
        fn.pragmas.append(pragma)
        if cursor.is_definition():
            fn.definition = cursor
        if fn.problem is None:
            _add_variants(fn, pragma)
    for fn in out.values():
        if fn.definition is None and fn.pragmas:
            fn.definition = definition_of(fn.pragmas[0].target)
    return out


def _new(cursor: ci.Cursor, pragma: Any, signed: bool) -> SimdFunction:
    loc = pragma.location
    try:
        ret, params, names = signature(cursor, TypeMapper(signed, scope=cursor), loc)
    except Unsupported as e:
        return SimdFunction(cursor.spelling, loc, None, [], [], problem=e)
    if isinstance(ret, VoidType):
        ret = None
    return SimdFunction(cursor.spelling, loc, ret, params, names)


def _add_variants(fn: SimdFunction, pragma: Any) -> None:
    clauses = pragma.clauses
    if pragma.unsupported is not None:
        fn.problem = pragma.unsupported
        return
    try:
        kinds = param_kinds(fn.param_names, fn.params, clauses)
        seen = {v.mangled for v in fn.variants}
        for family in FAMILIES:
            for v in variants(fn.name, fn.ret, fn.params, kinds, clauses.simdlen,
                              clauses.inbranch, family):
                if v.mangled not in seen:
                    seen.add(v.mangled)
                    fn.variants.append(v)
    except NoVariants as e:
        fn.problem = Unsupported(str(e), pragma.location)


def definition_of(cursor: ci.Cursor) -> Optional[ci.Cursor]:
    d = cursor.get_definition()
    if d is None or d.location.file is None or cursor.location.file is None \
            or d.location.file.name != cursor.location.file.name:
        return None
    return d
