"""Find the ``#pragma omp`` SIMD directives of a file and what they annotate.

The file is parsed without OpenMP, so the pragmas are not in the AST. They are
found by scanning the main file's text for preprocessing directives (a ``#``
that is the first token of a line, outside comments and string literals,
with backslash continuations followed); lines in ``#if``-skipped code are
ignored, as are pragmas in included headers. Each SIMD pragma is attached to
the statement or declaration whose first token follows it:

    #pragma omp simd ...           -> the FOR_STMT that follows
    #pragma omp declare simd ...   -> the FUNCTION_DECL that follows
    #pragma omp declare simd ...      (consecutive declare simd lines all
                                       attach to the same function)
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Iterator, Optional

import clang.cindex as ci

from s2s.diagnostics import Location, UserError
from s2s.frontend.clauses import ClauseSet, parse_pragma_line
from s2s.frontend.lower_clang import walk_preorder
from s2s.frontend.parse import ParsedFile


@dataclass
class Pragma:
    """One SIMD pragma and the cursor it annotates."""

    clauses: ClauseSet
    location: Location
    """Where the pragma's ``#`` is."""
    start: int
    """Byte offset of the ``#``."""
    end: int
    """Byte offset just past the pragma's last line (continuations
    included, newline excluded)."""
    target: ci.Cursor
    """The FOR_STMT (loop directives) or FUNCTION_DECL (declare simd)."""


def find_pragmas(parsed: ParsedFile) -> list[Pragma]:
    """All SIMD pragmas of the main file, in source order."""
    skipped = _skipped_ranges(parsed)
    macros = _MacroTable(parsed)
    found: list[tuple[int, int, ClauseSet]] = []
    for start, end in scan_pragma_lines(parsed.raw):
        if any(lo <= start < hi for lo, hi in skipped):
            continue
        clauses = _parse_line(parsed, start, end, macros)
        if clauses is not None:
            found.append((start, end, clauses))
    cursors = _cursor_starts(parsed)
    scan_text = parsed.raw.decode("latin-1")
    declare_ends = {s: e for s, e, c in found if c.directive == "declare simd"}
    pragmas: list[Pragma] = []
    for start, end, clauses in found:
        offset = _next_token(scan_text, end)
        if clauses.directive == "declare simd":
            # Consecutive declare simd lines all annotate the same function.
            while offset in declare_ends:
                offset = _next_token(scan_text, declare_ends[offset])
        target = _target(offset, cursors, clauses)
        pragmas.append(Pragma(clauses, clauses.location, start, end, target))
    return pragmas


def _parse_line(
    parsed: ParsedFile, start: int, end: int, macros: "_MacroTable"
) -> Optional[ClauseSet]:
    return parse_pragma_line(
        parsed.source(start, end), parsed.location(start), lambda name: macros.lookup(name, start)
    )


# --------------------------------------------------------------------------
# Scanning the text for directive lines

def scan_pragma_lines(raw: bytes) -> list[tuple[int, int]]:
    """Byte ranges ``[start, end)`` of every ``#pragma`` directive line."""
    text = raw.decode("latin-1")  # one char per byte: indices are byte offsets
    found: list[tuple[int, int]] = []
    i, at_line_start = 0, True
    while i < len(text):
        ch = text[i]
        if _splice_length(text, i):
            i += _splice_length(text, i)
        elif ch == "\n":
            i, at_line_start = i + 1, True
        elif ch in " \t\f\v\r":
            i += 1
        elif text.startswith("/*", i) or text.startswith("//", i):
            i = _skip_comment(text, i)  # a comment is whitespace
        elif ch == "#" and at_line_start:
            end = _directive_end(text, i)
            if _directive_name(text, i + 1) == "pragma":
                found.append((i, end))
            i, at_line_start = end, False
        elif ch in "\"'":
            i, at_line_start = _skip_literal(text, i), False
        else:
            i, at_line_start = i + 1, False
    return found


def _splice_length(text: str, i: int) -> int:
    """Length of a backslash-newline at ``i`` (0 if there is none)."""
    if text[i] != "\\":
        return 0
    if text.startswith("\n", i + 1):
        return 2
    if text.startswith("\r\n", i + 1):
        return 3
    return 0


def _skip_comment(text: str, i: int) -> int:
    """Index after the comment at ``i`` (a line comment stops before its newline)."""
    if text.startswith("/*", i):
        close = text.find("*/", i + 2)
        return len(text) if close < 0 else close + 2
    while i < len(text) and text[i] != "\n":
        i += _splice_length(text, i) or 1
    return i


def _skip_literal(text: str, i: int) -> int:
    quote, i = text[i], i + 1
    while i < len(text) and text[i] != quote:
        if text[i] == "\n":
            return i  # unterminated: the compiler has already complained
        i += (_splice_length(text, i) or 2) if text[i] == "\\" else 1
    return min(i + 1, len(text))


def _directive_end(text: str, i: int) -> int:
    """End of the directive starting at ``i``: its newline, or a ``\\r`` before it."""
    while i < len(text) and text[i] != "\n":
        if _splice_length(text, i):
            i += _splice_length(text, i)
        elif text.startswith("/*", i) or text.startswith("//", i):
            i = _skip_comment(text, i)
        elif text[i] in "\"'":
            i = _skip_literal(text, i)
        else:
            i += 1
    return i - 1 if i > 0 and text[i - 1] == "\r" and i < len(text) else i


def _directive_name(text: str, i: int) -> str:
    while i < len(text):
        if _splice_length(text, i):
            i += _splice_length(text, i)
        elif text[i] in " \t\f\v":
            i += 1
        elif text.startswith("/*", i):
            i = _skip_comment(text, i)
        else:
            break
    name = []
    while i < len(text):
        if _splice_length(text, i):
            i += _splice_length(text, i)
        elif text[i].isalnum() or text[i] == "_":
            name.append(text[i])
            i += 1
        else:
            break
    return "".join(name)


def _next_token(text: str, i: int) -> int:
    """Offset of the first token at or after ``i`` (skipping whitespace, comments)."""
    while i < len(text):
        if _splice_length(text, i):
            i += _splice_length(text, i)
        elif text[i].isspace():
            i += 1
        elif text.startswith("/*", i) or text.startswith("//", i):
            i = _skip_comment(text, i)
        else:
            return i
    return i


# --------------------------------------------------------------------------
# Attaching pragmas to cursors

_IGNORED_KINDS = {
    ci.CursorKind.MACRO_DEFINITION,
    ci.CursorKind.MACRO_INSTANTIATION,
    ci.CursorKind.INCLUSION_DIRECTIVE,
}


def _cursor_starts(parsed: ParsedFile) -> dict[int, ci.Cursor]:
    """Main-file start offset -> the outermost cursor starting there."""
    starts: dict[int, ci.Cursor] = {}
    for top in parsed.tu.cursor.get_children():
        if top.kind in _IGNORED_KINDS or not parsed.is_main_file(top):
            continue
        for cursor in walk_preorder(top):
            if parsed.is_main_file(cursor):
                # Pre-order: the first cursor seen at an offset is the outermost.
                starts.setdefault(cursor.extent.start.offset, cursor)
    return starts


def _target(offset: int, cursors: dict[int, ci.Cursor], clauses: ClauseSet) -> ci.Cursor:
    """The cursor whose first token is at ``offset``, checked against the directive."""
    if clauses.directive == "declare simd":
        cursor = cursors.get(offset)
        if cursor is not None and cursor.kind == ci.CursorKind.DECL_STMT:
            # A function declared inside a function body.
            inner = list(cursor.get_children())
            cursor = inner[0] if len(inner) == 1 else cursor
        if cursor is None or cursor.kind != ci.CursorKind.FUNCTION_DECL:
            raise UserError(
                "'#pragma omp declare simd' must be followed by a function declaration",
                clauses.location,
            )
        return cursor
    cursor = cursors.get(offset)
    if cursor is None or cursor.kind != ci.CursorKind.FOR_STMT:
        raise UserError(
            f"'#pragma omp {clauses.directive}' must be followed by a for loop", clauses.location
        )
    _check_collapse(cursor, clauses)
    return cursor


def _check_collapse(loop: ci.Cursor, clauses: ClauseSet) -> None:
    """``collapse(n)`` needs n perfectly nested for loops."""
    for _ in range(clauses.collapse - 1):
        body = list(loop.get_children())[-1]
        if body.kind == ci.CursorKind.COMPOUND_STMT:
            inner = list(body.get_children())
            body = inner[0] if len(inner) == 1 else body
        if body.kind != ci.CursorKind.FOR_STMT:
            n = clauses.collapse
            raise UserError(
                f"'collapse({n})' requires {n} perfectly nested for loops", clauses.location
            )
        loop = body


# --------------------------------------------------------------------------
# Skipped (#if 0) ranges and macros, for the clause parser

class _SourceRangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


def _skipped_ranges(parsed: ParsedFile) -> list[tuple[int, int]]:
    """Byte ranges of the main file that the preprocessor skipped."""
    lib = ci.conf.lib
    get = getattr(lib, "clang_getSkippedRanges", None)
    main = parsed.tu.get_file(parsed.tu.spelling)
    if get is None or main is None:
        return []
    get.restype = ctypes.POINTER(_SourceRangeList)
    get.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    found = get(parsed.tu.obj, main.obj)
    if not found:
        return []
    contents = found.contents
    ranges = [
        (contents.ranges[k].start.offset, contents.ranges[k].end.offset)
        for k in range(contents.count)
    ]
    lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_SourceRangeList)]
    lib.clang_disposeSourceRangeList(found)
    return ranges


class _MacroTable:
    """Object-like macros visible at a main-file offset.

    Predefined, ``-D`` and header macros count as defined before the file's
    first line; macros of the main file from their ``#define`` on (the last
    definition before the pragma wins; ``#undef`` is not tracked).
    """

    def __init__(self, parsed: ParsedFile) -> None:
        self.parsed = parsed
        self.by_name: Optional[dict[str, list[tuple[int, ci.Cursor]]]] = None
        self.defines: dict[str, str] = {}
        for define in parsed.defines:
            name, _, value = define.partition("=")
            self.defines[name.strip()] = value if "=" in define else "1"

    def lookup(self, name: str, offset: int) -> Optional[str]:
        candidates = [(pos, c) for pos, c in self._index().get(name, []) if pos < offset]
        if candidates:
            return _macro_body(max(candidates, key=lambda item: item[0])[1])
        return self.defines.get(name)

    def _index(self) -> dict[str, list[tuple[int, ci.Cursor]]]:
        if self.by_name is None:
            self.by_name = {}
            for cursor in _macro_definitions(self.parsed):
                pos = cursor.extent.start.offset if self.parsed.is_main_file(cursor) else -1
                self.by_name.setdefault(cursor.spelling, []).append((pos, cursor))
        return self.by_name


def _macro_definitions(parsed: ParsedFile) -> Iterator[ci.Cursor]:
    for cursor in parsed.tu.cursor.get_children():
        if cursor.kind == ci.CursorKind.MACRO_DEFINITION:
            yield cursor


def _macro_body(cursor: ci.Cursor) -> Optional[str]:
    tokens = list(cursor.get_tokens())
    if _is_function_like(cursor, tokens):
        return None
    return " ".join(t.spelling for t in tokens[1:])


def _is_function_like(cursor: ci.Cursor, tokens: list[ci.Token]) -> bool:
    check = getattr(ci.conf.lib, "clang_Cursor_isMacroFunctionLike", None)
    if check is not None:
        check.argtypes = [ci.Cursor]
        check.restype = ctypes.c_uint
        return bool(check(cursor))
    # '(' right after the name, with no space, makes a function-like macro.
    if len(tokens) < 2 or tokens[1].spelling != "(":
        return False
    return tokens[1].extent.start.offset == tokens[0].extent.end.offset
