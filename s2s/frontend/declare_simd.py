"""The ``declare simd`` functions of a file: signature, clauses, ABI variants.

Every ``#pragma omp declare simd`` on a declaration or definition of a
function (in the file or in a user header) adds that pragma's variants
(several pragmas: several sets; gcc drops a repeated one, so do we).  The
variants are defined where gcc 12 puts its clones, in the object that emits
the function (s2s.frontend.linkage), and s2svec writes them into the file:

    home              the function is                        its variants
    ----------------  -------------------------------------  ------------------------------
    after-definition  defined in the file, emitted there     after the definition (static
                                                               for a static function)
    end-of-file       defined in an included header,         at the end of the file
                        emitted in this object
    elsewhere         only declared, or an inline            another object's: simd loops
                        definition the compiler does not       call them by name
                        emit
    none              static in a header, and the file       none (no code here can call
                        never names it                         them)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import clang.cindex as ci

from ..diagnostics import Location, Unsupported
from ..ir.types import Type, VoidType
from ..vfabi import FAMILIES, NoVariants, Variant, param_kinds, variants
from .linkage import is_emitted
from .lower_types import TypeMapper

CK = ci.CursorKind


@dataclass
class SimdFunction:
    name: str
    location: Location
    """The first pragma."""
    ret: Type | None
    """None for void."""
    params: list[Type]
    param_names: list[str]
    variants: list[Variant] = field(default_factory=list)
    """For every family (x86 and AArch64), in gcc's order, no repeats."""
    definition: ci.Cursor | None = None
    """The definition the variants are made from, when they are s2svec's."""
    home: str = "elsewhere"
    """Where the variants are defined (see the module docstring)."""
    pragmas: list[Any] = field(default_factory=list)
    problem: Unsupported | None = None
    """Why the function gets no variants (the warning)."""

    def for_isa(self, letter: str) -> list[Variant]:
        return [v for v in self.variants if v.isa.letter == letter]


def signature(
    cursor: ci.Cursor, types: TypeMapper, loc: Location
) -> tuple[Type | None, list[Type], list[str]]:
    """IR types of the return value and the parameters (Unsupported when
    one has no IR type)."""
    rt = cursor.type.get_result()
    ret = None if rt.get_canonical().kind == ci.TypeKind.VOID else types.map(rt, loc)
    params = [p for p in cursor.get_children() if p.kind == CK.PARM_DECL]
    if cursor.type.kind == ci.TypeKind.FUNCTIONNOPROTO or cursor.type.is_function_variadic():
        raise Unsupported(
            "a function without a prototype or with '...' has no vector variants", loc
        )
    return ret, [types.map(p.type, loc) for p in params], [p.spelling for p in params]


def collect(
    pragmas: list[Any], main_text: bytes, plain_char_signed: bool = True
) -> dict[str, SimdFunction]:
    """The declare simd functions of the file by name (pragmas in source
    order; ``main_text``: the file's bytes)."""
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
        if fn.problem is None:
            _add_variants(fn, pragma)
    for fn in out.values():
        fn.home = home_of(fn.pragmas[0].target, main_text)
        fn.definition = definition_of(fn.pragmas[0].target, main_text)
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
            for v in variants(
                fn.name, fn.ret, fn.params, kinds, clauses.simdlen, clauses.inbranch, family
            ):
                if v.mangled not in seen:
                    seen.add(v.mangled)
                    fn.variants.append(v)
    except NoVariants as e:
        fn.problem = Unsupported(str(e), pragma.location)


AFTER_DEFINITION, END_OF_FILE, ELSEWHERE, NONE = (
    "after-definition",
    "end-of-file",
    "elsewhere",
    "none",
)
OWN_HOMES = (AFTER_DEFINITION, END_OF_FILE)
"""The homes where the variants are s2svec's to emit."""


def home_of(cursor: ci.Cursor, main_text: bytes) -> str:
    """Where the variants of the function ``cursor`` declares are defined
    (see the module docstring)."""
    d = cursor.get_definition()
    if d is None or not is_emitted(d):
        return ELSEWHERE
    if d.location.file is not None and d.location.file.name == d.translation_unit.spelling:
        return AFTER_DEFINITION
    if d.linkage == ci.LinkageKind.INTERNAL and not re.search(
        rb"\b" + d.spelling.encode() + rb"\b", main_text
    ):
        return NONE
    return END_OF_FILE


def definition_of(cursor: ci.Cursor, main_text: bytes) -> ci.Cursor | None:
    """The definition of the function ``cursor`` declares when its variants
    are s2svec's to emit, else None."""
    return cursor.get_definition() if home_of(cursor, main_text) in OWN_HOMES else None
