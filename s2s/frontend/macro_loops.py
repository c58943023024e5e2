"""Loops written by macros: the macro uses that write simd loops, expanded.

A macro whose expansion holds ``_Pragma("omp simd")`` and more -- the loop
itself, often a whole function (``TEST_LOOP(float, 2.0f)``) -- makes its
pragma only in the preprocessor's output, where s2svec finds no ``#pragma``
line and has no text to replace.  The compilers vectorize such loops, so
``expand_loop_macros`` writes the expansion in the use's place and the
file is read again: the loop is then one of the file's own.

The expansion is one level, as the preprocessor does it before rescanning:
the macro's body with the arguments as written put for the parameters,
``#`` and ``##`` done, each ``_Pragma("...")`` a ``#pragma`` line.  Macros
the result names are left for the compiler, which expands them where the
use was, as it would have.  A result that holds another such use is
expanded in the next round.  A ``_Pragma`` that is its expansion's only
pragma but shares its line with code before it gets a line of its own.

A use stays as written (with the warning that its loop is not vectorized)
when its expansion cannot be written out like this (a macro that names
itself, ``__VA_OPT__``) or the file with it written out does not parse
(GNU nested functions, which libclang does not read).  ``parsed.lines``
maps the new lines to the file's, so diagnostics name the use's line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import clang.cindex as ci

from .parse import LineMap, ParsedFile, ParseError
from .pragma_operator import OperatorUse, is_simd_directive, operator_at
from .pragmas import code_operators, pragma_operator_uses

ROUNDS = 4
"""Rounds of expansion (a macro that writes a use of another, and so on)."""

_PASTE_LEFT = ","
_SPLICE = re.compile(r"\\\r?\n")
_WORD = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_PUNCT = set("+-*/%&|^<>=!:#.")


@dataclass
class _Edit:
    start: int
    end: int
    text: bytes
    use: OperatorUse


def expand_loop_macros(
    parsed: ParsedFile, reparse: Callable[[bytes, LineMap], ParsedFile]
) -> ParsedFile:
    """The file with its loop-writing macro uses expanded (see the module
    doc); ``reparse`` parses a rewritten text.  Uses left as written get
    their reason in ``parsed.unexpanded``."""
    for _ in range(ROUNDS):
        edits, declined = _edits(parsed)
        parsed.unexpanded.update(declined)
        if not edits:
            return parsed
        raw, lines = _rewrite(parsed, edits)
        try:
            parsed = reparse(raw, parsed.lines.then(lines) if parsed.lines else lines)
        except ParseError as e:
            first = e.message.splitlines()[0] if e.message else "a parse error"
            why = f"the file with its expansion written out does not parse ({_strip_place(first)})"
            parsed.unexpanded.update({edit.use.start: why for edit in edits})
            return parsed
    return parsed


def _strip_place(message: str) -> str:
    """``x.c:3:4: error: what`` -> ``what``."""
    _, sep, rest = message.partition(": error: ")
    return rest if sep else message


def _edits(parsed: ParsedFile) -> tuple[list[_Edit], dict[int, str]]:
    """The expansions to write, and the uses that stay (start -> why)."""
    text = parsed.raw.decode("latin-1")
    uses = [u for u in pragma_operator_uses(parsed) if _writes_simd_loop(u, text)]
    uses = [u for u in uses if not any(o is not u and o.start <= u.start < o.end for o in uses)]
    if not uses:
        return [], {}
    cursors = dict(parsed.top_level.macro_uses)
    edits: list[_Edit] = []
    declined: dict[int, str] = {}
    for use in uses:
        indent = _indentation(text, use.start)
        if use.alone:
            expansion = f'_Pragma("{use.directive}")'
        else:
            cursor = cursors.get(use.start)
            found, why = _expand(cursor, parsed) if cursor else (None, "not a macro use")
            if found is None:
                declined[use.start] = why
                continue
            expansion = found
        first_on_line = not text[text.rfind("\n", 0, use.start) + 1 : use.start].strip()
        lines = _pragma_lines(expansion, indent, first_on_line)
        if not use.alone and not first_on_line and not lines.startswith("\n"):
            # a line of its own (the function it may start gets helpers before its line)
            lines = "\n" + indent + lines
        start, end = use.start, use.end
        if lines.startswith("\n"):  # no spaces left at the end of the line before
            while start > 0 and text[start - 1] in " \t":
                start -= 1
        if lines.endswith("\n"):  # no empty line after, the code after indented
            while end < len(text) and text[end] in " \t":
                end += 1
            if text.startswith("\n", end):
                end += 1
            else:
                lines += indent
        edits.append(_Edit(start, end, lines.encode("utf-8", "surrogateescape"), use))
    return edits, declined


def _writes_simd_loop(use: OperatorUse, text: str) -> bool:
    """A simd loop directive's use that is not read as written: its
    expansion holds more, or code precedes it on its line."""
    if not is_simd_directive(use.directive) or use.directive.split()[1:3] == ["declare", "simd"]:
        return False
    return not use.alone or bool(text[text.rfind("\n", 0, use.start) + 1 : use.start].strip())


def _indentation(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    line = text[start:offset]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _expand(use: ci.Cursor, parsed: ParsedFile) -> tuple[str | None, str]:
    """The use's expansion, or None and why it is not written out."""
    definition = use.referenced
    if definition is None or definition.kind != ci.CursorKind.MACRO_DEFINITION:
        return None, "the macro's definition is not known"
    macro = _Macro.of(definition)
    if macro is None:
        return None, "the macro's parameters are not read"
    arguments = _arguments(use, parsed, macro) if macro.params is not None else {}
    if arguments is None:
        return None, "the macro use's arguments are not read"
    body = macro.body
    if any(t.text == "__VA_OPT__" for t in body):
        return None, "__VA_OPT__ is not expanded"
    pieces = _substitute(body, macro, arguments)
    expansion = _join(pieces)
    code = " ".join(p.text for p in pieces if not p.first.comment)
    if re.search(rf"\b{macro.name}\b", code):
        # the preprocessor would not expand it again there; the compiler would
        return None, f"its expansion names '{macro.name}' again"
    return expansion, ""


@dataclass(frozen=True)
class _Token:
    """A token as read once from libclang, its line splices taken out
    (libclang spells a token that starts a continued line with the splice)."""

    text: str
    comment: bool
    line: int
    column: int
    end_line: int
    start: int
    end: int
    """Byte offsets in the token's file."""

    @staticmethod
    def all_of(tokens: Iterable[ci.Token]) -> list[_Token]:
        found = []
        for t in tokens:
            spelling, extent = t.spelling, t.extent
            start, line, column = extent.start.offset, extent.start.line, extent.start.column
            while spelling[:1] == "\\" and spelling[1:2] in ("\n", "\r"):
                skip = 3 if spelling[1:3] == "\r\n" else 2
                spelling, start, line, column = spelling[skip:], start + skip, line + 1, 1
            text = _SPLICE.sub("", spelling)
            if text and text != "\\":
                comment = t.kind == ci.TokenKind.COMMENT
                end = extent.end
                found.append(_Token(text, comment, line, column, end.line, start, end.offset))
        return found


@dataclass
class _Macro:
    name: str
    params: list[str] | None
    """None for an object-like macro; the variadic one is ``__VA_ARGS__`` or its name."""
    variadic: bool
    body: list[_Token]

    @staticmethod
    def of(definition: ci.Cursor) -> _Macro | None:
        every = _Token.all_of(definition.get_tokens())
        tokens = [t for t in every if not t.comment]
        if not tokens:
            return None
        if not ci.conf.lib.clang_Cursor_isMacroFunctionLike(definition):
            return _Macro(tokens[0].text, None, False, _body(every, tokens[0]))
        spelled = [t.text for t in tokens]
        if ")" not in spelled:
            return None
        close = spelled.index(")")
        params: list[str] = []
        variadic = False
        for word in spelled[2:close]:
            if word == "...":
                variadic = True
                if not params or spelled[spelled.index("...") - 1] == ",":
                    params.append("__VA_ARGS__")
            elif word != ",":
                params.append(word)
        return _Macro(spelled[0], params, variadic, _body(every, tokens[close]))


def _body(tokens: list[_Token], last_of_head: _Token) -> list[_Token]:
    """The body's tokens after the macro's name and parameters, with its
    block comments (``/* fall through */`` means something to compilers)
    but those at a ``#`` or ``##``, which the operators do not see."""
    body = tokens[tokens.index(last_of_head) + 1 :]
    code = [k for k, t in enumerate(body) if not t.comment]
    kept = []
    for k, t in enumerate(body):
        if t.comment:
            before = [body[c].text for c in code if c < k][-1:]
            after = [body[c].text for c in code if c > k][:1]
            if t.text.startswith("//") or before in (["#"], ["##"]) or after == ["##"]:
                continue
        kept.append(t)
    return kept


def _code_tokens(cursor: ci.Cursor) -> list[_Token]:
    return [t for t in _Token.all_of(cursor.get_tokens()) if not t.comment]


@dataclass
class _Argument:
    text: str
    """As written (the compiler expands its macros where it lands)."""
    spelled: str
    """As ``#`` spells it: tokens one space apart where space was."""


def _arguments(use: ci.Cursor, parsed: ParsedFile, macro: _Macro) -> dict[str, _Argument] | None:
    assert macro.params is not None
    tokens = _code_tokens(use)
    if len(tokens) < 3 or tokens[1].text != "(" or tokens[-1].text != ")":
        return None
    groups: list[list[_Token]] = [[]]
    depth = 0
    for t in tokens[2:-1]:
        word = t.text
        depth += word in "([{" and len(word) == 1
        depth -= word in ")]}" and len(word) == 1
        if word == "," and depth == 0 and len(groups) < len(macro.params):
            groups.append([])
        else:
            groups[-1].append(t)
    if len(groups) == 1 and not groups[0] and len(macro.params) == 1:
        groups = [[]]
    if len(groups) != len(macro.params) and not (
        macro.variadic and len(groups) == len(macro.params) - 1
    ):
        return None
    while len(groups) < len(macro.params):
        groups.append([])
    return {p: _argument(g, parsed) for p, g in zip(macro.params, groups, strict=True)}


def _argument(tokens: list[_Token], parsed: ParsedFile) -> _Argument:
    if not tokens:
        return _Argument("", "")
    text = parsed.source(tokens[0].start, tokens[-1].end)
    if "//" in text or "\n" in text:  # on one line, a line comment would end it
        text = " ".join(t.text for t in _between(parsed, tokens[0], tokens[-1]))
    words = []
    for k, t in enumerate(tokens):
        spaced = k > 0 and t.start > tokens[k - 1].end
        words.append((" " if spaced else "") + t.text)
    return _Argument(text, "".join(words))


@dataclass
class _Piece:
    """Text of the expansion standing for body tokens ``first`` to ``last``."""

    text: str
    first: _Token
    last: _Token
    as_written: bool
    """The body's own token (no argument put in, no ``#`` or ``##``)."""


def _between(parsed: ParsedFile, first: _Token, last: _Token) -> list[_Token]:
    """The main file's tokens from ``first`` to ``last`` with their block comments."""
    tu = parsed.tu
    main = tu.get_file(tu.spelling)
    extent = ci.SourceRange.from_locations(
        ci.SourceLocation.from_offset(tu, main, first.start),
        ci.SourceLocation.from_offset(tu, main, last.end),
    )
    tokens = _Token.all_of(tu.get_tokens(extent=extent))
    return [t for t in tokens if not t.comment or t.text.startswith("/*")]


def _substitute(body: list[_Token], macro: _Macro, arguments: dict[str, _Argument]) -> list[_Piece]:
    """The body's pieces of text after ``#``, ``##`` and the parameters."""
    pieces: list[_Piece] = []
    k = 0
    while k < len(body):
        token = body[k]
        start = k
        word = token.text
        if word == "#" and k + 1 < len(body) and body[k + 1].text in arguments:
            text = _stringize(arguments[body[k + 1].text].spelled)
            k += 2
        elif word in arguments:
            text = arguments[word].text
            k += 1
        else:
            text = word
            k += 1
        while k + 1 < len(body) and body[k].text == "##":
            right = body[k + 1].text
            right_text = arguments[right].text if right in arguments else right
            if text == _PASTE_LEFT and right in arguments and macro.variadic:
                # GNU ", ## __VA_ARGS__": the comma goes with an empty list
                text = ", " + right_text if right_text else ""
            else:
                text = text.rstrip() + right_text.lstrip()
            k += 2
        pieces.append(_Piece(text, token, body[k - 1], k == start + 1 and text == word))
    return pieces


def _stringize(spelled: str) -> str:
    """C11 6.10.3.2: ``\\`` and ``"`` inside literals escaped (the words are
    tokens, so a quote can only be a literal's)."""
    out = []
    for ch in spelled:
        if ch in '\\"':
            out.append("\\")
        out.append(ch)
    return '"' + "".join(out) + '"'


def _join(pieces: list[_Piece]) -> str:
    """The pieces laid out as the definition's lines lay them out."""
    out: list[str] = []
    previous: _Piece | None = None
    end_token: _Token | None = None  # of the last piece, also an empty one
    for piece in pieces:
        if not piece.text:
            end_token = piece.last
            continue
        if previous is not None and end_token is not None:
            first, written = piece.first, previous.as_written and piece.as_written
            if first.line > end_token.end_line:
                out.append("\n" + " " * (first.column - 1))
            elif first.start > end_token.end or (
                not written and _would_merge(previous.text, piece.text)
            ):
                out.append(" ")
        out.append(piece.text)
        previous, end_token = piece, piece.last
    return "".join(out)


def _would_merge(left: str, right: str) -> bool:
    """Whether two texts written together would lex as other tokens."""
    if not left or not right:
        return False
    a, b = left[-1], right[0]
    return (a in _WORD and b in _WORD) or (a in _PUNCT and b in _PUNCT)


def _pragma_lines(expansion: str, indent: str, first_on_line: bool) -> str:
    """Each ``_Pragma("...")`` of the expansion's code a ``#pragma`` line of
    its own; ``indent``: the indentation of the line the expansion starts
    on, ``first_on_line``: whether it starts that line's code."""
    out: list[str] = []
    pos = 0
    for offset in code_operators(expansion):
        found = operator_at(expansion, offset)
        if found is None or offset < pos:
            continue
        end, directive = found
        line_start = expansion.rfind("\n", 0, offset) + 1
        here = _indentation(expansion, offset) if line_start else indent
        code_before = bool(expansion[line_start:offset].strip()) or (
            not line_start and not first_on_line
        )
        if code_before:
            out.append(expansion[pos:offset].rstrip(" \t") + "\n")
        else:
            out.append(expansion[pos : max(pos, line_start)])
            if not line_start:
                here = ""  # the line's own indentation stands before it
        out.append(f"{here}#pragma {directive}\n")
        rest = expansion[end:].lstrip(" \t")
        pos = len(expansion) - len(rest) + rest.startswith("\n")
        if rest and not rest.startswith("\n"):
            out.append(here if here else indent)
    out.append(expansion[pos:])
    return "".join(out)


def _rewrite(parsed: ParsedFile, edits: list[_Edit]) -> tuple[bytes, LineMap]:
    """The file with the edits made, and where its lines come from."""
    raw = parsed.raw
    starts = [0] + [k + 1 for k, byte in enumerate(raw) if byte == 10]
    out = bytearray()
    # (start in out, start in raw or None for an edit's text, the edit's place)
    segments: list[tuple[int, int | None, tuple[int, int]]] = []
    pos = 0
    for edit in sorted(edits, key=lambda e: e.start):
        segments.append((len(out), pos, (0, 0)))
        out += raw[pos : edit.start]
        line = bisect.bisect_right(starts, edit.start)
        segments.append((len(out), None, (line, edit.start - starts[line - 1] + 1)))
        out += edit.text
        pos = edit.end
    segments.append((len(out), pos, (0, 0)))
    out += raw[pos:]
    keys = [s[0] for s in segments]
    origins: list[tuple[int, int | None]] = []
    line_start = 0
    while line_start >= 0:
        # the last segment starting here or before holds the line's start
        at, source, place = segments[bisect.bisect_right(keys, line_start) - 1]
        if source is None:
            origins.append(place)
        else:
            origins.append((bisect.bisect_right(starts, source + line_start - at), None))
        found = out.find(b"\n", line_start)
        line_start = found + 1 if found >= 0 else -1
    return bytes(out), LineMap(tuple(origins))
