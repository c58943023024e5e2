"""The ordinary identifiers declared at a point of the main file.

A clause such as ``reduction(+: nosuch)`` names variables; a C compiler
rejects a name that is not declared where the pragma is, and so does
s2svec (``pragmas`` checks each clause variable and the identifiers of
clause expressions against ``names_at``).  Declarations count when they
precede the point and their scope encloses it:

    file scope   every declaration of an included header, and those of the
                 main file before the point (variables, functions, enum
                 constants, typedef names)
    function     the parameters of the function holding the point
    blocks       declarations of each enclosing ``{ }`` before the point,
                 and the init-declarations of enclosing ``for`` loops

Struct members, labels and tags are other name spaces and never count.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import clang.cindex as ci

from .lower_clang import children

CK = ci.CursorKind

_IGNORED = (CK.MACRO_DEFINITION, CK.MACRO_INSTANTIATION, CK.INCLUSION_DIRECTIVE)
_VARIABLES = (CK.VAR_DECL, CK.PARM_DECL)


@dataclass
class Names:
    """Identifiers declared at a point: variables, and everything else that
    may appear in an expression (functions, enum constants, typedef names)."""

    variables: set[str] = field(default_factory=set)
    others: set[str] = field(default_factory=set)
    function: ci.Cursor | None = None
    """The function holding the point (None at file scope)."""

    def __contains__(self, name: str) -> bool:
        return name in self.variables or name in self.others


class Scopes:
    """Answers ``names_at`` for one translation unit (file scope computed once)."""

    def __init__(self, tu: ci.TranslationUnit) -> None:
        self.tu = tu
        self.main = tu.spelling
        self._header = Names()
        self._main: list[tuple[int, str, bool]] = []  # (offset, name, is variable)
        self._offsets: list[int] = []
        self._top: list[ci.Cursor] = []
        self._kid_cache: dict[
            tuple[int, int, str], list[tuple[int, int, ci.Cursor, list[tuple[str, bool]]]]
        ] = {}
        for decl in children(tu.cursor):
            if decl.kind in _IGNORED:
                continue
            start = decl.extent.start
            in_main = start.file is not None and start.file.name == self.main
            if in_main:
                self._top.append(decl)
            for name, is_var in _declared(decl):
                if in_main:
                    self._main.append((start.offset, name, is_var))
                else:
                    (self._header.variables if is_var else self._header.others).add(name)
        self._main.sort(key=lambda item: item[0])
        self._offsets = [item[0] for item in self._main]
        # Extents as numbers: asking libclang for them per loop is slow.
        self._functions = [
            (d.extent.start.offset, d.extent.end.offset, d)
            for d in self._top
            if d.kind == CK.FUNCTION_DECL
        ]

    def names_at(self, offset: int) -> Names:
        """The identifiers declared at byte ``offset`` of the main file."""
        names = Names(set(self._header.variables), set(self._header.others))
        for _, name, is_var in self._main[: bisect.bisect_left(self._offsets, offset)]:
            (names.variables if is_var else names.others).add(name)
        for start, end, decl in self._functions:
            if start <= offset < end:
                names.function = decl
                self._locals(decl, offset, names)
                break
        return names

    def local_names_at(self, offset: int) -> set[str]:
        """The identifiers that parameters and block-scope declarations
        introduce at ``offset`` (they hide file-scope ones of that name)."""
        names = Names()
        for start, end, decl in self._functions:
            if start <= offset < end:
                self._locals(decl, offset, names)
                break
        return names.variables | names.others

    def _locals(self, fn: ci.Cursor, offset: int, names: Names) -> None:
        """Parameters, then the block-scope declarations enclosing ``offset``."""
        node = fn
        while True:
            inner = None
            for start, end, kid, declared in self._kids(node):
                if kid.kind == CK.PARM_DECL:
                    names.variables.add(kid.spelling)
                elif start <= offset < end:
                    inner = kid
                elif start < offset and node.kind != CK.FUNCTION_DECL:
                    for name, is_var in declared:
                        (names.variables if is_var else names.others).add(name)
            if inner is None or inner.kind in (CK.DECL_STMT,) + _VARIABLES:
                return
            node = inner

    def _kids(self, node: ci.Cursor) -> list[tuple[int, int, ci.Cursor, list[tuple[str, bool]]]]:
        """Children with their extents and declared names, computed once per
        node (a function with many simd loops asks about each)."""
        key = (node.extent.start.offset, node.extent.end.offset, node.kind.name)
        known = self._kid_cache.get(key)
        if known is None:
            known = [
                (k.extent.start.offset, k.extent.end.offset, k, _declared(k))
                for k in children(node)
            ]
            self._kid_cache[key] = known
        return known


def _declared(c: ci.Cursor) -> list[tuple[str, bool]]:
    """Ordinary identifiers a declaration (or declaration statement) introduces."""
    kind = c.kind
    if kind == CK.DECL_STMT:
        return [item for d in children(c) for item in _declared(d)]
    if kind in _VARIABLES:
        return [(c.spelling, True)]
    if kind in (CK.FUNCTION_DECL, CK.TYPEDEF_DECL):
        found = [(c.spelling, False)]
        if kind == CK.TYPEDEF_DECL:  # typedef enum { A, B } E;
            found += [item for d in children(c) for item in _declared(d)]
        return found
    if kind == CK.ENUM_DECL:
        return [(k.spelling, False) for k in children(c) if k.kind == CK.ENUM_CONSTANT_DECL]
    if kind in (CK.STRUCT_DECL, CK.UNION_DECL):  # enums declared inside a struct
        return [item for d in children(c) if d.kind == CK.ENUM_DECL for item in _declared(d)]
    return []


__all__ = ["Names", "Scopes"]
