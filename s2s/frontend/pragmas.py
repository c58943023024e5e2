"""Find the ``#pragma omp`` SIMD directives of a file and what they annotate.

The file is parsed without OpenMP, so the pragmas are not in the AST. They are
found by scanning the main file's text for preprocessing directives (a ``#``
that is the first token of a line, outside comments and string literals,
with backslash continuations followed); lines in ``#if``-skipped code are
ignored.  Of the included files only the user's headers are read, and only
for ``declare simd`` pragmas on file-scope declarations
(``find_header_declare_simd``: a header commonly declares, with the pragma,
a function this file defines or calls; loops of headers are not rewritten).
Each SIMD pragma is attached to the statement or declaration whose first
token follows it:

    #pragma omp simd ...           -> the FOR_STMT that follows
    #pragma omp declare simd ...   -> the FUNCTION_DECL that follows
    #pragma omp declare simd ...      (consecutive declare simd lines all
                                       attach to the same function)

What is an error and what only keeps a loop scalar (``Pragma.unsupported``,
raised by ``lower_loop``, a warning; exit status 0):

    error (exit 1)                        loop left scalar, with a warning
    ------------------------------------  ------------------------------------------
    malformed or contradictory clauses    clauses s2svec does not implement
      (clauses.py); a misplaced or          (inscan on for simd, allocate...)
      malformed ``scan`` (scan.py)
    a clause variable or an identifier    a statement other than ``for``
      of a clause expression that is      a SIMD construct s2svec does not handle
      not declared at the pragma            (loop; target ... simd when the build
                                            offloads)
    no statement after the pragma         OpenMP inside, around or called from the
    declare simd without a function;       loop (omp_context.py)
      its clause names not parameters

Warnings that do not belong to a loop (``_Pragma("omp simd")``, simdlen
beyond every vector) go to ``ParsedFile.warnings``.
"""

from __future__ import annotations

import bisect
import ctypes
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field

import clang.cindex as ci

from s2s.diagnostics import Location, Unsupported, UserError
from s2s.frontend.clauses import (
    directive_words,
    expand_object_macros,
    is_simd_loop_construct,
    parse_pragma,
    tokenize,
)
from s2s.frontend.lower_clang import children
from s2s.frontend.omp_context import InnerConstruct, OmpContext, OmpLine
from s2s.frontend.parse import ParsedFile
from s2s.frontend.pragma_operator import OperatorUse, operator_uses, unread_warning
from s2s.frontend.scan import ScanDirective, check_scans, is_scan, missing_scan
from s2s.frontend.scope import Names, Scopes
from s2s.ir.clauses import ClauseSet


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
    """The FOR_STMT (loop directives; another statement when ``unsupported``
    says so) or FUNCTION_DECL (declare simd)."""
    unsupported: Unsupported | None = None
    """Why the loop stays scalar although the input is valid (see the module
    docstring); ``lower_loop`` raises it."""
    inner: list[InnerConstruct] = field(default_factory=lambda: list[InnerConstruct]())
    """The ``atomic`` and ``ordered simd`` constructs in the loop
    (s2s/frontend/lower_omp.py)."""
    atomic_default: str = ""
    """The file's ``requires atomic_default_mem_order``, if any."""
    scan: ScanDirective | None = None
    """The ``#pragma omp scan`` of a loop with inscan reductions (scan.py)."""
    team_region: tuple[int, int] | None = None
    """The statement of the innermost ``parallel``, ``teams`` or ``target``
    construct around the loop in its function (None: there is none, the
    construct binds to its caller's region)."""


def find_pragmas(parsed: ParsedFile, offload: str | None = None) -> list[Pragma]:
    """All SIMD pragmas of the main file, in source order (also the loops of
    SIMD constructs s2svec does not handle, with ``unsupported`` set);
    ``offload``: the compiler flag that makes the build offload target
    regions, if any (omp_context)."""
    skipped = skipped_ranges(parsed)
    macros = _MacroTable(parsed)
    text = parsed.raw.decode("latin-1")  # one char per byte: indices are byte offsets
    scan = _scan_raw(parsed.raw)
    lines: list[OmpLine] = []
    for start, end in scan.pragmas:
        if _in_ranges(start, skipped):
            continue
        line = _omp_line(parsed, start, end, macros)
        if line is not None:
            line.next = _next_token(text, end)
            lines.append(line)
    uses = pragma_operator_uses(parsed, skipped)
    operator_lines = [_operator_line(parsed, use, text, macros) for use in uses]
    lines += operator_lines
    cursors = _cursor_starts(parsed, {line.next for line in lines})
    unread = _unread_operators(parsed, text, uses, operator_lines, cursors)
    lines.sort(key=lambda line: line.start)
    context = OmpContext(parsed.tu, lines, cursors, offload)
    by_start = {line.start: line for line in lines}
    scopes: Scopes | None = None
    pragmas: list[Pragma] = []
    for line in lines:
        clauses = line.clauses
        if line.start in unread:
            continue
        if clauses is None:
            if is_simd_loop_construct(line.words):
                pragma = _unhandled_construct(line, cursors)
                if pragma is not None:
                    pragmas.append(pragma)
            continue
        parsed.warnings.extend(clauses.notes)
        scopes = scopes or Scopes(parsed.tu)
        if clauses.directive == "declare simd":
            offset = line.next
            while offset in by_start and by_start[offset].words == ["declare", "simd"]:
                offset = by_start[offset].next  # consecutive lines: one function
            function = _function_at(offset, cursors, clauses)
            _check_parameters(clauses, function)
            # a linear step may name a parameter of the function that follows
            _check_expressions(
                clauses,
                scopes.names_at(line.start),
                macros,
                line.start,
                set(_parameter_names(function)),
            )
            # vector variants of a function the device compiles too would
            # put the host's intrinsics into device code
            device = context.device_reason(function, clauses.location)
            pragmas.append(
                Pragma(
                    clauses,
                    clauses.location,
                    line.start,
                    line.end,
                    function,
                    (clauses.unsupported[0] if clauses.unsupported else None) or device,
                )
            )
            continue
        target = cursors.get(line.next)
        if target is None or not (target.kind.is_statement() or target.kind.is_expression()):
            raise UserError(
                f"'#pragma omp {clauses.directive}' must be followed by a for loop",
                clauses.location,
            )
        names = scopes.names_at(line.start)
        _check_variables(clauses, names, macros, line.start)
        _check_expressions(clauses, names, macros, line.start)
        unsupported: Unsupported | None = None
        if target.kind != ci.CursorKind.FOR_STMT:
            unsupported = Unsupported(
                f"'#pragma omp {clauses.directive}' must be followed by a for loop, not "
                f"{_describe_statement(target)}",
                clauses.location,
            )
        elif not _is_for(text, line.next):
            macro = text[line.next : _identifier_end(text, line.next)] or "?"
            unsupported = Unsupported(
                f"a loop written with the macro '{macro}' is not supported (write the for "
                "statement itself after the pragma)",
                parsed.location(line.next),
            )
        else:
            _check_collapse(target, clauses)
            unsupported = (
                (clauses.unsupported[0] if clauses.unsupported else None)
                or context.reason(line, target)
                or context.user_reductions_for(clauses, line.start)
            )
            if clauses.kept.startswith("teams ") and context.in_target(target) is not None:
                clauses.teams_in_target = True
                unsupported = unsupported or _split_teams_problem(clauses)
        pragma = Pragma(clauses, clauses.location, line.start, line.end, target, unsupported)
        if target.kind == ci.CursorKind.FOR_STMT:
            pragma.inner = context.inner(line, target)
            pragma.team_region = context.team_region(target)
            pragma.atomic_default = context.atomic_default
        pragmas.append(pragma)
    scans = check_scans(
        [line for line in lines if is_scan(line) and not line.operator],
        [
            (target.extent.start.offset, target.extent.end.offset, line, target)
            for line in lines
            if any(t.text == "inscan" for t in line.tokens)
            and (target := cursors.get(line.next)) is not None
            and target.kind == ci.CursorKind.FOR_STMT
        ],
    )
    for pragma in pragmas:
        pragma.scan = scans.get(pragma.start)
        if pragma.scan is None and any(r.inscan for r in pragma.clauses.reductions):
            pragma.unsupported = pragma.unsupported or missing_scan(pragma.clauses)
    parsed.warnings.extend(w for w in unread.values() if w is not None)
    parsed.warnings.sort(
        key=lambda w: (w.location.line, w.location.column) if w.location else (0, 0)
    )
    return pragmas


def pragma_operator_uses(
    parsed: ParsedFile, skipped: list[tuple[int, int]] | None = None
) -> list[OperatorUse]:
    """The OpenMP ``_Pragma`` uses of the main file's code (pragma_operator),
    found once per parse (macro_loops asks before find_pragmas does)."""
    found: list[OperatorUse] | None = parsed.tu.__dict__.get("_s2s_operator_uses")
    if found is None:
        skipped = skipped_ranges(parsed) if skipped is None else skipped
        text = parsed.raw.decode("latin-1")
        scan = _scan_raw(parsed.raw)
        ops = [off for off in scan.operators if not _in_ranges(off, skipped)]
        defines = [(s, text[s:e]) for s, e in scan.defines if not _in_ranges(s, skipped)]
        found = operator_uses(parsed.tu, text, ops, defines)
        parsed.tu.__dict__["_s2s_operator_uses"] = found
    return found


def included_simd_loop_lines(parsed: ParsedFile, raw: bytes) -> bool:
    """Whether an included file's text has a simd loop directive, its
    macros expanded as compilers do (``#pragma omp F S``, libgomp's
    for-2.h: each test that includes it defines F)."""
    macros = _MacroTable(parsed)
    text = raw.decode("latin-1")
    for start, end in _scan_raw(raw).pragmas:
        tokens = tokenize(text[start:end], Location("", 1, 1))
        if [t.text for t in tokens[:3]] != ["#", "pragma", "omp"]:
            continue
        rest = expand_object_macros(tokens[3:], lambda name: macros.lookup(name, 1 << 62))
        words = directive_words(rest)
        if words[:2] == ["declare", "simd"] or "simd" not in words:
            continue
        if words[-1:] == ["simd"] and words[:1] != ["ordered"]:
            return True
    return False


def code_operators(text: str) -> list[int]:
    """Offsets of the ``_Pragma`` operators in a text's code (not in
    comments, literals or directives); the text has one char per byte."""
    return _scan(text).operators


def find_header_declare_simd(parsed: ParsedFile) -> list[Pragma]:
    """The ``declare simd`` pragmas of the user's headers (not system
    headers), in the order the headers were first included; each header is
    read once, with the code its include guards and ``#if``s skip left out.
    ``Pragma.start`` and ``end`` are offsets in the header."""
    macros = _MacroTable(parsed)
    pragmas: list[Pragma] = []
    seen: set[str] = set()
    for inclusion in parsed.tu.get_includes():
        header = inclusion.include
        if header is None or header.name in seen or _is_system_header(parsed.tu, header):
            continue
        seen.add(header.name)
        pragmas += _declare_simd_in_header(parsed, header, macros)
    return pragmas


def _is_system_header(tu: ci.TranslationUnit, header: ci.File) -> bool:
    return bool(ci.SourceLocation.from_offset(tu, header, 0).is_in_system_header)


def _declare_simd_in_header(
    parsed: ParsedFile, header: ci.File, macros: _MacroTable
) -> list[Pragma]:
    try:
        with open(header.name, "rb") as handle:
            raw = handle.read()
    except OSError:
        return []
    text = raw.decode("latin-1")  # one char per byte: indices are byte offsets
    skipped = skipped_ranges(parsed, header)
    pragmas: list[Pragma] = []
    for start, end in _scan_raw(raw).pragmas:
        if _in_ranges(start, skipped):
            continue
        where = Location(
            header.name, raw.count(b"\n", 0, start) + 1, start - raw.rfind(b"\n", 0, start)
        )
        tokens = tokenize(text[start:end], where)
        words = [t.text for t in tokens[:5]]
        if words != ["#", "pragma", "omp", "declare", "simd"]:
            continue
        clauses = parse_pragma(tokens[3:], where, lambda name: macros.lookup(name, 0))
        offset = _next_token(text, end)
        while text.startswith("#", offset) and _is_declare_simd(text, offset):
            offset = _next_token(text, _directive_end(text, offset))
        function = _file_scope_function(parsed.tu, header, offset)
        if clauses is None or function is None:
            continue  # gcc complains about the header itself
        _check_parameters(clauses, function)
        pragmas.append(
            Pragma(
                clauses,
                where,
                start,
                end,
                function,
                clauses.unsupported[0] if clauses.unsupported else None,
            )
        )
    return pragmas


def _is_declare_simd(text: str, offset: int) -> bool:
    """The directive at ``offset`` is another ``#pragma omp declare simd``."""
    words = [
        t.text
        for t in tokenize(text[offset : _directive_end(text, offset)], Location("", 1, 1))[:5]
    ]
    return words == ["#", "pragma", "omp", "declare", "simd"]


def _file_scope_function(tu: ci.TranslationUnit, file: ci.File, offset: int) -> ci.Cursor | None:
    """The file-scope function declaration starting at ``offset`` of ``file``
    (looked for among the file-scope cursors when a macro starts it, as in
    ``TYPE foo(TYPE a)``: the cursor at the offset is the macro's use)."""
    cursor = ci.Cursor.from_location(tu, ci.SourceLocation.from_offset(tu, file, offset))
    if cursor is not None and cursor.kind == ci.CursorKind.MACRO_INSTANTIATION:
        cursor = next(
            (
                c
                for c in tu.cursor.get_children()
                if c.kind == ci.CursorKind.FUNCTION_DECL
                and c.extent.start.file is not None
                and c.extent.start.file.name == file.name
                and c.extent.start.offset == offset
            ),
            None,
        )
    if (
        cursor is None
        or cursor.kind != ci.CursorKind.FUNCTION_DECL
        or cursor.extent.start.offset != offset
        or cursor.semantic_parent is None
        or cursor.semantic_parent.kind != ci.CursorKind.TRANSLATION_UNIT
    ):
        return None
    return cursor


def _omp_line(parsed: ParsedFile, start: int, end: int, macros: _MacroTable) -> OmpLine | None:
    """The ``#pragma omp`` line at ``[start, end)``, its SIMD clauses parsed;
    None for other pragmas."""
    where = parsed.location(start)
    tokens = tokenize(parsed.source(start, end), where)
    if [t.text for t in tokens[:3]] != ["#", "pragma", "omp"]:
        return None
    rest = expand_object_macros(tokens[3:], lambda name: macros.lookup(name, start))
    clauses = parse_pragma(rest, where, lambda name: macros.lookup(name, start))
    return OmpLine(start, end, where, directive_words(rest), rest, clauses)


def _operator_line(parsed: ParsedFile, use: OperatorUse, text: str, macros: _MacroTable) -> OmpLine:
    """The OpenMP directive of a ``_Pragma`` use, as ``_omp_line`` reads a
    ``#pragma omp`` line (token columns are the use's, roughly)."""
    quote = text.find('"', use.start, use.end)
    where = parsed.location(use.start)
    rest = tokenize(use.directive, parsed.location(quote + 1) if quote >= 0 else where)[1:]
    clauses = parse_pragma(rest, where, lambda name: macros.lookup(name, use.start))
    line = OmpLine(use.start, use.end, where, directive_words(rest), rest, clauses)
    line.next = _next_token(text, use.end)
    line.operator = use.spelled
    return line


def _unread_operators(
    parsed: ParsedFile,
    text: str,
    uses: list[OperatorUse],
    lines: list[OmpLine],
    cursors: dict[int, ci.Cursor],
) -> dict[int, Unsupported | None]:
    """The ``_Pragma`` uses of SIMD loop directives that are not read as
    pragmas, by start offset, each with its warning (None: a directive
    whose uses stay silent): a use is read where it is the only pragma of
    its expansion, starts its line and a ``for`` statement follows (the
    output's ``#if`` chain replaces whole lines); ``declare simd`` uses are
    never read."""
    unread: dict[int, Unsupported | None] = {}
    for use, line in zip(uses, lines, strict=True):
        simd_loop = line.is_loop_directive or is_simd_loop_construct(line.words)
        target = cursors.get(line.next)
        if simd_loop and use.start in parsed.unexpanded:
            why = parsed.unexpanded[use.start]
        elif simd_loop and not use.alone:
            why = "its expansion holds more than that one pragma"
        elif simd_loop and text[_line_start_offset(text, use.start) : use.start].strip():
            why = "s2svec reads a _Pragma that starts its line"
        elif simd_loop and (
            target is None or target.kind != ci.CursorKind.FOR_STMT or not _is_for(text, line.next)
        ):
            why = "s2svec reads a _Pragma that a for statement follows"
        elif simd_loop:
            continue
        else:
            why = "_Pragma forms of this directive are not read"
        unread[use.start] = unread_warning(use, why, parsed.location(use.start))
    return unread


def _line_start_offset(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _is_for(text: str, offset: int) -> bool:
    return text.startswith("for", offset) and not _is_ident_char(text[offset + 3 : offset + 4])


def _unhandled_construct(line: OmpLine, cursors: dict[int, ci.Cursor]) -> Pragma | None:
    """A SIMD loop construct s2svec does not handle, on a for loop: the loop
    is a region that stays scalar (with a warning and a report entry)."""
    target = cursors.get(line.next)
    if target is None or target.kind != ci.CursorKind.FOR_STMT:
        return None
    clauses = ClauseSet(line.name, line.location)
    reason = Unsupported(f"'#pragma omp {line.name}' is not supported", line.location)
    return Pragma(clauses, line.location, line.start, line.end, target, reason)


def _split_teams_problem(clauses: ClauseSet) -> Unsupported | None:
    """A teams construct nested in a target region is written apart from its
    distribute part (``ClauseSet.teams_in_target``): an ``allocate`` clause
    would have to follow its variable to one of them."""
    if any(name == "allocate" for name, _ in clauses.other_clauses):
        return Unsupported(
            f"'allocate' on '#pragma omp {clauses.directive}' in a target region is not "
            "supported (its teams construct is written apart from distribute)",
            clauses.location,
        )
    return None


def _describe_statement(c: ci.Cursor) -> str:
    names = {
        ci.CursorKind.WHILE_STMT: "a while loop",
        ci.CursorKind.DO_STMT: "a do loop",
        ci.CursorKind.COMPOUND_STMT: "a block",
        ci.CursorKind.IF_STMT: "an if statement",
        ci.CursorKind.SWITCH_STMT: "a switch statement",
        ci.CursorKind.DECL_STMT: "a declaration",
        ci.CursorKind.NULL_STMT: "an empty statement",
        ci.CursorKind.LABEL_STMT: "a label",
    }
    if c.kind.is_expression():
        return "an expression"
    return names.get(c.kind, "another statement")


# --------------------------------------------------------------------------
# Clause variables and expressions must be declared at the pragma

_KEYWORDS = frozenset(
    """
    sizeof _Alignof __alignof__ alignof _Generic __builtin_offsetof __extension__ char short
    int long signed unsigned float double void _Bool bool const volatile restrict struct
    union enum __typeof__ typeof __int128 _Complex __real__ __imag__ __restrict __restrict__
    __func__ __FUNCTION__ __PRETTY_FUNCTION__ __LINE__ __FILE__ __COUNTER__ __DATE__
    __TIME__ __BASE_FILE__ __INCLUDE_LEVEL__ __has_builtin __has_attribute
    """.split()
)


def _check_variables(clauses: ClauseSet, names: Names, macros: _MacroTable, offset: int) -> None:
    """Every clause variable must be a variable declared where the pragma is."""
    for ref in clauses.variables:
        if ref.name in names.variables or macros.is_defined(ref.name, offset):
            continue
        if ref.name in names.others:
            raise UserError(
                f"'{ref.name}' in '{ref.clause}' clause is not a variable", ref.location
            )
        raise UserError(
            f"use of undeclared identifier '{ref.name}' in '{ref.clause}' clause", ref.location
        )


def _check_expressions(
    clauses: ClauseSet,
    names: Names,
    macros: _MacroTable,
    offset: int,
    parameters: frozenset[str] | set[str] = frozenset(),
) -> None:
    """The identifiers of ``if`` conditions and linear steps must be declared
    (or be macros, keywords or builtins); member names after ``.``/``->``
    and tags after ``struct`` are other name spaces."""
    params = set(_parameter_names(names.function)) if names.function is not None else set()
    params |= parameters
    for clause, tokens in clauses.expressions:
        for k, tok in enumerate(tokens):
            word = tok.text
            if (
                not (word[:1].isalpha() or word[:1] == "_")
                or word in _KEYWORDS
                or word.startswith("__builtin_")
            ):
                continue
            before = tokens[k - 1].text if k else ""
            after = tokens[k + 1].text if k + 1 < len(tokens) else ""
            if before in (".", "->", "struct", "union", "enum"):
                continue  # a member or a tag: other name spaces
            if word in ("L", "u", "U", "u8") and after[:1] in ("'", '"'):
                continue  # the prefix of a character or string literal
            if word in names or word in params or macros.is_defined(word, offset):
                continue
            raise UserError(
                f"use of undeclared identifier '{word}' in '{clause}' clause", tok.location
            )


def _check_parameters(clauses: ClauseSet, function: ci.Cursor) -> None:
    """declare simd clauses name parameters of the function."""
    params = set(_parameter_names(function))
    for ref in clauses.variables:
        if ref.name not in params:
            raise UserError(
                f"'{ref.name}' in '{ref.clause}' clause is not a parameter of "
                f"'{function.spelling}'",
                ref.location,
            )


def _parameter_names(function: ci.Cursor) -> list[str]:
    return [a.spelling for a in function.get_children() if a.kind == ci.CursorKind.PARM_DECL]


# --------------------------------------------------------------------------
# Scanning the text for directive lines


@dataclass
class _Scan:
    pragmas: list[tuple[int, int]]
    """``#pragma`` lines."""
    defines: list[tuple[int, int]]
    """``#define`` lines."""
    operators: list[int]
    """``_Pragma`` outside comments, literals and directives."""
    directives: list[tuple[int, int, str]]
    """Every directive line and its name."""


def scan_pragma_lines(raw: bytes) -> list[tuple[int, int]]:
    """Byte ranges ``[start, end)`` of every ``#pragma`` directive line."""
    return _scan_raw(raw).pragmas


def scan_directives(raw: bytes) -> list[tuple[int, int, str]]:
    """``(start, end, name)`` of every preprocessing directive line: the
    byte range ``[start, end)`` and the directive's name (``if``, ``pragma``)."""
    return _scan_raw(raw).directives


@functools.lru_cache(maxsize=8)
def _scan_raw(raw: bytes) -> _Scan:
    """``_scan`` once per file: every view and every loop asks (read only)."""
    return _scan(raw.decode("latin-1"))


def _scan(text: str) -> _Scan:
    """Directive lines and ``_Pragma`` operators of a text (one char per byte)."""
    found = _Scan([], [], [], [])
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
            name = _directive_name(text, i + 1)
            found.directives.append((i, end, name))
            if name == "pragma":
                found.pragmas.append((i, end))
            elif name == "define":
                found.defines.append((i, end))
            i, at_line_start = end, False
        elif ch in "\"'":
            i, at_line_start = _skip_literal(text, i), False
        elif (
            ch == "_"
            and text.startswith("_Pragma", i)
            and not _is_ident_char(text[i - 1 : i])
            and not _is_ident_char(text[i + 7 : i + 8])
        ):
            found.operators.append(i)
            i, at_line_start = i + 7, False
        elif _is_ident_char(ch):
            j = i + 1  # skip the identifier: _Pragma must start one
            while j < len(text) and _is_ident_char(text[j]):
                j += 1
            i, at_line_start = j, False
        else:
            i, at_line_start = i + 1, False
    return found


def _identifier_end(text: str, i: int) -> int:
    while i < len(text) and _is_ident_char(text[i]):
        i += 1
    return i


def _is_ident_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _in_ranges(offset: int, ranges: list[tuple[int, int]]) -> bool:
    return any(lo <= offset < hi for lo, hi in ranges)


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


def _cursor_starts(parsed: ParsedFile, wanted: set[int]) -> dict[int, ci.Cursor]:
    """Main-file start offset -> the outermost cursor starting there, for the
    ``wanted`` offsets (only the subtrees that contain one are walked)."""
    starts = _direct_cursors(parsed, wanted)
    wanted = wanted - starts.keys()
    if not wanted:
        return starts
    offsets = sorted(wanted)

    def holds_wanted(c: ci.Cursor) -> bool:
        k = bisect.bisect_left(offsets, c.extent.start.offset)
        return k < len(offsets) and offsets[k] <= c.extent.end.offset

    stack = [
        top
        for top in reversed(children(parsed.tu.cursor))
        if top.kind not in _IGNORED_KINDS and parsed.is_main_file(top)
    ]
    while stack:
        cursor = stack.pop()
        if not parsed.is_main_file(cursor) or not holds_wanted(cursor):
            continue
        # Pre-order: the first cursor seen at an offset is the outermost.
        start = cursor.extent.start.offset
        if start in wanted:
            starts.setdefault(start, cursor)
        stack.extend(reversed(children(cursor)))
    return starts


_DIRECT_KINDS = (ci.CursorKind.FOR_STMT, ci.CursorKind.FUNCTION_DECL)


def _direct_cursors(parsed: ParsedFile, wanted: set[int]) -> dict[int, ci.Cursor]:
    """The cursors libclang finds at the ``wanted`` offsets themselves, when
    they are for loops or function declarations starting there: nothing
    outside them starts at a ``for`` keyword, or at a function's first
    token in file scope.  Other offsets are left to the walk."""
    main = parsed.tu.get_file(parsed.tu.spelling)
    found: dict[int, ci.Cursor] = {}
    for offset in wanted:
        location = ci.SourceLocation.from_offset(parsed.tu, main, offset)
        cursor = ci.Cursor.from_location(parsed.tu, location)
        if (
            cursor is None
            or cursor.kind not in _DIRECT_KINDS
            or cursor.extent.start.offset != offset
        ):
            continue
        parent = cursor.semantic_parent
        if cursor.kind == ci.CursorKind.FUNCTION_DECL and (
            parent is None
            or parent.kind != ci.CursorKind.TRANSLATION_UNIT
            or cursor.lexical_parent != parent
        ):
            continue  # declared in a function body: the walk finds its DECL_STMT
        found[offset] = cursor
    return found


def _function_at(offset: int, cursors: dict[int, ci.Cursor], clauses: ClauseSet) -> ci.Cursor:
    """The function declaration a ``declare simd`` pragma annotates."""
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


def skipped_ranges(parsed: ParsedFile, file: ci.File | None = None) -> list[tuple[int, int]]:
    """Byte ranges of the main file (or of ``file``, an included one) that
    the preprocessor skipped."""
    lib = ci.conf.lib
    get = getattr(lib, "clang_getSkippedRanges", None)
    main = file or parsed.tu.get_file(parsed.tu.spelling)
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
        self.by_name: dict[str, list[tuple[int, ci.Cursor]]] | None = None
        self.defines: dict[str, str] = {}
        for define in parsed.defines:
            name, _, value = define.partition("=")
            self.defines[name.strip()] = value if "=" in define else "1"

    def is_defined(self, name: str, offset: int) -> bool:
        """Whether ``name`` is a macro (object- or function-like) at ``offset``."""
        return any(pos < offset for pos, _ in self._index().get(name, [])) or name in self.defines

    def lookup(self, name: str, offset: int) -> str | None:
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


def _macro_body(cursor: ci.Cursor) -> str | None:
    tokens = list(cursor.get_tokens())
    if is_function_like_macro(cursor, tokens):
        return None
    return " ".join(t.spelling for t in tokens[1:])


def is_function_like_macro(cursor: ci.Cursor, tokens: list[ci.Token]) -> bool:
    """``#define SQ(x) ...`` (a '(' right after the name) rather than object-like."""
    check = getattr(ci.conf.lib, "clang_Cursor_isMacroFunctionLike", None)
    if check is not None:
        check.argtypes = [ci.Cursor]
        check.restype = ctypes.c_uint
        return bool(check(cursor))
    # '(' right after the name, with no space, makes a function-like macro.
    if len(tokens) < 2 or tokens[1].spelling != "(":
        return False
    return tokens[1].extent.start.offset == tokens[0].extent.end.offset
