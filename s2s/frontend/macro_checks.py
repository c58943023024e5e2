"""Compile-time checks that the build sees a loop's macros as s2svec did.

Vector code is generated from the file as s2svec parsed it: a macro's value
is baked into it (``WEIGHT`` becomes the constant 0.5) and only one branch of
a preprocessor conditional inside the loop is translated.  When the build
uses other ``-D`` flags than s2svec did, the vector code would silently
disagree with the scalar code.  ``source_checks`` returns C lines, placed at
the top of each vector variant, that make such a build fail loudly:

* a macro whose expansion is an arithmetic constant: a bit-field whose
  width is negative unless the macro still has that type and value (works in
  every C dialect and compiler, also for floating values, which
  ``_Static_assert`` and ``#if`` cannot compare everywhere)::

      __extension__ (void)sizeof(struct { int s2svec_macro_WEIGHT_changed :
          (__builtin_types_compatible_p(__typeof__(WEIGHT), double)
           && (WEIGHT) == 0x1.0000000000000p-1) ? 1 : -1; });

* any other macro of the user's (function-like, expanding to a type, ...):
  ``#ifndef NAME`` / ``#error``;
* preprocessor conditionals inside the loop: their directives again, with an
  ``#error`` in every group s2svec skipped, so a build taking another group
  stops.

Macros of system headers and predefined macros are not checked: the parse
already used the target's predefined macros, and system headers are the
compiler's own.
"""

from __future__ import annotations

import bisect
import math
import re

import clang.cindex as ci

from ..diagnostics import Unsupported
from .lower_clang import evaluate, walk_preorder
from .parse import ParsedFile
from .pragmas import Pragma, is_function_like_macro, scan_directives, skipped_ranges

CK = ci.CursorKind
TK = ci.TypeKind

_OPENING = {"if", "ifdef", "ifndef"}
_GROUP = _OPENING | {"elif", "elifdef", "elifndef", "else"}
_REGENERATE = "regenerate it with the -D/-U flags of this build"
_ARITHMETIC = {
    TK.BOOL: "_Bool",
    TK.CHAR_U: "char",
    TK.UCHAR: "unsigned char",
    TK.USHORT: "unsigned short",
    TK.UINT: "unsigned int",
    TK.ULONG: "unsigned long",
    TK.ULONGLONG: "unsigned long long",
    TK.CHAR_S: "char",
    TK.SCHAR: "signed char",
    TK.SHORT: "short",
    TK.INT: "int",
    TK.LONG: "long",
    TK.LONGLONG: "long long",
    TK.FLOAT: "float",
    TK.DOUBLE: "double",
}


def source_checks(parsed: ParsedFile, pragma: Pragma, end: int) -> list[str]:
    """C lines checking the macros and conditionals of the loop that
    ``pragma`` annotates (its text ends at byte ``end``)."""
    start = pragma.end
    lines = _macro_checks(parsed, pragma.target, start, end)
    lines += _conditional_checks(parsed, start, end, pragma)
    if lines:
        lines.insert(
            0,
            "/* s2svec: the build must see the macros as they were when this code was generated */",
        )
    return lines


# -- macros ----------------------------------------------------------------------


def _macro_checks(parsed: ParsedFile, loop: ci.Cursor, start: int, end: int) -> list[str]:
    expressions = _expressions_by_extent(loop)
    lines: list[str] = []
    seen: set[str] = set()
    for use in _macro_uses(parsed, start, end):
        name = use.spelling
        if name in seen or not _is_users_macro(parsed, use):
            continue
        seen.add(name)
        expr = expressions.get((use.extent.start.offset, use.extent.end.offset))
        object_like = not _function_like(use.referenced)
        check = _value_check(name, expr) if expr is not None and object_like else None
        lines += (
            [check]
            if check
            else [
                f"#ifndef {name}",
                f'#error "s2svec: macro {name} is not defined; {_REGENERATE}"',
                "#endif",
            ]
        )
    return lines


def _macro_uses(parsed: ParsedFile, start: int, end: int) -> list[ci.Cursor]:
    uses = parsed.top_level.macro_uses
    first = bisect.bisect_left(uses, start, key=lambda u: u[0])
    last = bisect.bisect_left(uses, end, key=lambda u: u[0])
    return [cursor for _, cursor in uses[first:last]]


def _is_users_macro(parsed: ParsedFile, use: ci.Cursor) -> bool:
    """Defined in the user's files or by -D (not predefined, not a system header)."""
    definition = use.referenced
    if definition is None or definition.location.file is None:
        names = {d.partition("=")[0].strip() for d in parsed.defines}
        return use.spelling in names
    return not definition.location.is_in_system_header


def _expressions_by_extent(loop: ci.Cursor) -> dict[tuple[int, int], ci.Cursor]:
    """(start, end) offsets -> the outermost expression with that extent that
    is not an implicit conversion (every token of a macro's expansion has the
    extent of the macro's name, so the whole expansion is the outermost one)."""
    found: dict[tuple[int, int], ci.Cursor] = {}
    for cursor in walk_preorder(loop):
        if cursor.kind.is_expression() and cursor.kind != CK.UNEXPOSED_EXPR:
            found.setdefault((cursor.extent.start.offset, cursor.extent.end.offset), cursor)
    return found


def _value_check(name: str, expr: ci.Cursor) -> str | None:
    ctype = _ARITHMETIC.get(expr.type.get_canonical().kind)
    if ctype is None or not _constant(expr):
        return None
    value = evaluate(expr)
    if value is None:
        return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        literal = value.hex()
    else:
        literal = f"{value}ULL" if value >= 1 << 63 else f"{value}LL"
    field = "s2svec_macro_" + re.sub(r"\W", "_", name) + "_changed"
    return (
        f"__extension__ (void)sizeof(struct {{ int {field} : "
        f"(__builtin_types_compatible_p(__typeof__({name}), {ctype}) "
        f"&& ({name}) == {literal}) ? 1 : -1; }});"
    )


def _function_like(definition: ci.Cursor | None) -> bool:
    """``#define SQ(x) ...``: its expansions depend on arguments, only its
    existence is checked."""
    return definition is not None and is_function_like_macro(
        definition, list(definition.get_tokens())
    )


def _constant(expr: ci.Cursor) -> bool:
    """Only literals, enum constants and operators: clang's evaluator also
    folds variables with known initializers, which the build may not share."""
    for c in walk_preorder(expr):
        if c.kind == CK.CALL_EXPR:
            return False
        if c.kind == CK.DECL_REF_EXPR and (
            c.referenced is None or c.referenced.kind != CK.ENUM_CONSTANT_DECL
        ):
            return False
    return True


# -- conditionals -----------------------------------------------------------------


def _conditional_checks(parsed: ParsedFile, start: int, end: int, pragma: Pragma) -> list[str]:
    raw = parsed.raw
    directives = [
        (s, e, n)
        for s, e, n in scan_directives(raw)
        if start <= s < end and n in _GROUP | {"endif"}
    ]
    if not directives:
        return []
    _check_balanced(directives, pragma)
    skipped = skipped_ranges(parsed)
    lines: list[str] = []
    for s, e, name in directives:
        lines.append(raw[s:e].decode("utf-8", errors="replace"))
        group_start = e + 1
        if name in _GROUP and any(lo <= group_start < hi for lo, hi in skipped):
            lines.append(
                f'#error "s2svec: the vector code of the loop at line '
                f"{pragma.location.line} was generated without this branch; "
                f'{_REGENERATE}"'
            )
    return lines


def _check_balanced(directives: list[tuple[int, int, str]], pragma: Pragma) -> None:
    depth = 0
    for _, _, name in directives:
        if name in _OPENING:
            depth += 1
        elif name == "endif":
            depth -= 1
        elif depth == 0:
            depth = -1  # an #else or #elif of a conditional opened before the loop
        if depth < 0:
            break
    if depth != 0:
        raise Unsupported("a preprocessor conditional crosses the loop's boundary", pragma.location)
