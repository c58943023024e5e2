"""How the generated code names a struct type at the simd loop.

The vector code replaces the loop, so every struct type it declares a
pointer or an object of must be spelled by C text that is valid *at the
loop*.  clang's own spelling (``struct (unnamed at k.c:1:9)``) is not C, and
``struct anon1_9`` names a different, incomplete type.  The spellings, in
order of preference:

    struct S { ... };                       -> struct S
    typedef struct { ... } P;               -> P           (the typedef name)
    struct O { struct { ... } in[4]; };     -> __typeof__(((void)0, (((struct O *)0)->in)[0]))
    struct { ... } pts[64];                 -> __typeof__(((void)0, (pts)[0]))
    typedef struct { ... } *PP;             -> __typeof__(((void)0, ((*(PP *)0))[0]))
    void f(struct { ... } *p)               -> __typeof__(((void)0, (p)[0]))

An unnamed struct is named through the declaration that declares something
of its type (a member, a variable, a parameter or a typedef): ``__typeof__``
of an expression of the struct type, which is never evaluated.  The comma
with ``(void)0`` makes the expression an rvalue, so the type comes without
the qualifiers of the declaration (``const struct {...} *p``).

A declaration is usable only if it is visible at the loop: at file scope
(or in a header), or in a block of the loop's function that encloses the
loop, and not inside the loop itself.  A struct declared inside the simd
loop has no name there at all: ``Unsupported``.
"""

from __future__ import annotations

import weakref

import clang.cindex as ci

from ..diagnostics import Location, Unsupported
from .lower_clang import children, declaration, is_anonymous_record

CK = ci.CursorKind
TK = ci.TypeKind

_RECORDS = (CK.STRUCT_DECL, CK.UNION_DECL)
_OWNERS = (CK.VAR_DECL, CK.PARM_DECL, CK.TYPEDEF_DECL, CK.FIELD_DECL)
_INDIRECTIONS = (TK.POINTER, TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY)
_IGNORED = (CK.MACRO_DEFINITION, CK.MACRO_INSTANTIATION, CK.INCLUSION_DIRECTIVE)


def record_kind(decl: ci.Cursor) -> str:
    """``tag``, ``typedef`` (``typedef struct {...} P``) or ``unnamed``."""
    if is_anonymous_record(decl) or not _is_identifier(decl.spelling):
        return "unnamed"
    keyword = "union" if decl.kind == CK.UNION_DECL else "struct"
    canon = decl.type.get_canonical().spelling
    return "tag" if canon == f"{keyword} {decl.spelling}" else "typedef"


def describe_record(decl: ci.Cursor) -> str:
    """``struct S``, ``P`` or ``unnamed struct`` for messages."""
    keyword = "union" if decl.kind == CK.UNION_DECL else "struct"
    kind = record_kind(decl)
    if kind == "tag":
        return f"{keyword} {decl.spelling}"
    return decl.spelling if kind == "typedef" else f"unnamed {keyword}"


class RecordNamer:
    """Spells struct types for code placed at ``scope`` (the simd loop)."""

    def __init__(self, scope: ci.Cursor | None) -> None:
        self.scope = scope
        self._spellings: dict[tuple[str, int, str], str] = {}

    def spelling(self, decl: ci.Cursor, loc: Location | None) -> str:
        """C text naming the struct ``decl`` at the loop; Unsupported if none does."""
        key = _key(decl)
        known = self._spellings.get(key)
        if known is None:
            known = self._spell(decl, loc, set())
            self._spellings[key] = known
        return known

    def _spell(self, decl: ci.Cursor, loc: Location | None, seen: set[tuple[str, int, str]]) -> str:
        what = describe_record(decl)
        if _key(decl) in seen:
            raise Unsupported(f"{what} cannot be named at the simd loop", loc)
        seen.add(_key(decl))
        if self._inside_loop(decl):
            raise Unsupported(f"{what} declared inside the simd loop is not supported", loc)
        kind = record_kind(decl)
        if kind != "unnamed":
            if not self.visible(decl):
                raise Unsupported(f"{what} is not visible at the simd loop", loc)
            return what
        for owner in self._owners(decl):
            path = _path_to(owner.type, decl)
            if path is None:
                continue
            if owner.kind == CK.FIELD_DECL:
                parent = owner.semantic_parent
                if parent is None or parent.kind not in _RECORDS or parent.kind == CK.UNION_DECL:
                    continue
                root = f"(({self._spell(parent, loc, seen)} *)0)->{owner.spelling}"
            elif not self.visible(owner):
                continue
            elif owner.kind == CK.TYPEDEF_DECL:
                root = f"(*({owner.spelling} *)0)"
            else:
                root = owner.spelling
            expr = root
            for _ in range(path):
                expr = f"({expr})[0]"
            return f"__typeof__(((void)0, {expr}))"
        raise Unsupported(
            f"{what} cannot be named at the simd loop (declare it with a tag or a typedef name)",
            loc,
        )

    # -- where declarations are -----------------------------------------------------------
    def _inside_loop(self, decl: ci.Cursor) -> bool:
        scope = self.scope
        if scope is None or not _same_file(decl, scope):
            return False
        off = decl.extent.start.offset
        return scope.extent.start.offset <= off < scope.extent.end.offset

    def visible(self, decl: ci.Cursor) -> bool:
        """Whether a declaration can be referred to at the start of the loop."""
        scope = self.scope
        if scope is None or not _same_file(decl, scope):
            return True  # a header: included before the code that uses it
        off = decl.extent.start.offset
        here = scope.extent.start.offset
        if off >= here:
            return False
        for cursor in _containing(scope.translation_unit.cursor, off):
            # A block (or the function) the declaration is local to.
            local_to = cursor.kind == CK.FUNCTION_DECL or (
                cursor.kind.is_statement() and cursor.kind != CK.DECL_STMT
            )
            if local_to and not cursor.extent.start.offset <= here < cursor.extent.end.offset:
                return False
        return True

    def _owners(self, decl: ci.Cursor) -> list[ci.Cursor]:
        """Declarations that may declare something of the struct's type: those
        whose text contains its definition (``typedef struct {...} *PP;``),
        innermost first, then its siblings (``struct {...} v;`` is a struct
        and a variable side by side)."""
        parent = decl.lexical_parent
        if parent is not None and parent.kind in _RECORDS:
            return [f for f in children(parent) if f.kind == CK.FIELD_DECL]
        start = decl.extent.start
        fname = start.file.name if start.file else ""
        found: list[ci.Cursor] = []
        for siblings, containing in reversed(
            _levels(decl.translation_unit.cursor, start.offset, fname)
        ):
            found.extend(c for c in containing if c.kind in _OWNERS and not _same(c, decl))
            found.extend(c for c in siblings if c.kind in _OWNERS and c not in containing)
        return found


def _containing(root: ci.Cursor, off: int) -> list[ci.Cursor]:
    """The chain of cursors below ``root`` whose extents contain byte ``off``
    of the main file, outermost first."""
    return [containing[0] for _, containing in _levels(root, off, root.translation_unit.spelling)]


def _levels(root: ci.Cursor, off: int, fname: str) -> list[tuple[list[ci.Cursor], list[ci.Cursor]]]:
    """Per depth below the translation unit ``root``: the children of the
    node reached so far and those whose extents contain byte ``off`` of file
    ``fname`` (one only, except where a declaration holds a struct
    definition: ``struct {...} v;``); the walk goes on into the first
    containing child that is not a struct."""
    out: list[tuple[list[ci.Cursor], list[ci.Cursor]]] = []
    node, top = root, True
    while True:
        if top:
            kids = _top_level_of(root, fname)
        else:
            kids = [kid for kid in children(node) if kid.kind not in _IGNORED]
        containing = [k for k in kids if _contains(k, off)]
        if not containing:
            return out
        out.append((kids, containing))
        inner = [k for k in containing if k.kind not in _RECORDS] or containing
        if len(inner) == 1 and inner[0].kind in _RECORDS and inner[0].extent.start.offset == off:
            return out  # the struct itself
        node, top = inner[0], False


_TOP_LEVEL: weakref.WeakKeyDictionary[ci.TranslationUnit, tuple[str, list[ci.Cursor]]] = (
    weakref.WeakKeyDictionary()
)


def _top_level_of(root: ci.Cursor, fname: str) -> list[ci.Cursor]:
    """The declarations of file ``fname`` at the top of ``root``'s translation
    unit, listed once per file (every struct name asks, and the translation
    unit holds thousands of header declarations and macros)."""
    tu = root.translation_unit
    known = _TOP_LEVEL.get(tu)
    if known is None or known[0] != fname:
        kids = []
        for kid in children(root):
            if kid.kind in _IGNORED:
                continue
            start = kid.extent.start
            if start.file is not None and start.file.name == fname:
                kids.append(kid)
        known = _TOP_LEVEL[tu] = (fname, kids)
    return known[1]


def _path_to(t: ci.Type, decl: ci.Cursor) -> int | None:
    """How many ``[0]`` lead from a value of type ``t`` to the struct ``decl``
    (through pointers and arrays); None if they do not."""
    steps = 0
    canon = t.get_canonical()
    while True:
        kind = canon.kind
        if kind == TK.RECORD:
            return steps if _same(declaration(canon), decl) else None
        if kind == TK.POINTER:
            canon = canon.get_pointee().get_canonical()
        elif kind in _INDIRECTIONS:
            canon = canon.element_type.get_canonical()
        else:
            return None
        steps += 1


def _contains(c: ci.Cursor, off: int) -> bool:
    return c.extent.start.offset <= off < c.extent.end.offset


def _same(a: ci.Cursor, b: ci.Cursor) -> bool:
    return _key(a) == _key(b)


def _same_file(a: ci.Cursor, b: ci.Cursor) -> bool:
    fa, fb = a.extent.start.file, b.extent.start.file
    return fa is not None and fb is not None and fa.name == fb.name


def _key(c: ci.Cursor) -> tuple[str, int, str]:
    start = c.extent.start
    return (start.file.name if start.file else "", start.offset, c.kind.name)


def _is_identifier(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] == "_") and text.replace("_", "a").isalnum()


__all__ = ["RecordNamer", "describe_record", "record_kind"]
