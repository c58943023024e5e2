"""``_Pragma("omp simd")``: the operator form of the pragmas.

s2svec reads ``#pragma`` lines from the text; the ``_Pragma`` operator, often
hidden in a macro (``#define SIMD _Pragma("omp simd")``), makes its pragma
only in the preprocessor's output.  ``operator_uses`` finds, in the main
file's code, every ``_Pragma`` whose string is an OpenMP directive and every
use of a macro that expands to one (also through other macros of the file
and of the headers that use ``_Pragma``, and ``_Pragma(#x)`` with the
directive an argument of the use).  A use is ``alone`` when the expansion is
that one pragma and nothing else; find_pragmas reads an alone use that starts
its line and precedes a ``for`` statement as it reads a ``#pragma omp`` line
(the output's ``#if`` chain replaces whole lines).  Any other use of a SIMD
directive gets a warning (``unread_warning``): the loop is not vectorized,
and silently so would be a surprise.  Uses of other directives are kept
too, so that an ``atomic`` or ``critical`` written as a ``_Pragma`` inside a
simd loop keeps the loop scalar as its ``#pragma`` line would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import clang.cindex as ci

from ..diagnostics import Location, Unsupported
from .clauses import directive_words, is_simd_loop_construct, tokenize

_CALL = re.compile(r'_Pragma\s*\(\s*L?"((?:[^"\\\n]|\\.)*)"\s*\)')
_STRINGIZE = re.compile(r"_Pragma\s*\(\s*#")
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?(.*)$", re.M)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_SIMD_DIRECTIVES = (["simd"], ["for", "simd"], ["parallel", "for", "simd"], ["declare", "simd"])


@dataclass
class _Macro:
    directive: str | None = None
    """The OpenMP directive a ``_Pragma("...")`` in the body makes."""
    stringizes: bool = False
    """``_Pragma(#x)``: the directive is an argument of the use."""
    names: set[str] = field(default_factory=set)
    """Identifiers of the body (macros it may expand)."""
    body: str = ""
    alone: bool = False
    """The body is one ``_Pragma`` or one use of a macro that is one."""


def is_simd_directive(text: str) -> bool:
    """Whether pragma text (``omp simd reduction(+:s)``) is an OpenMP SIMD directive."""
    tokens = tokenize(text, Location("", 1, 1))
    if not tokens or tokens[0].text != "omp":
        return False
    words = directive_words(tokens[1:])
    return any(words[: len(d)] == d for d in _SIMD_DIRECTIVES) or is_simd_loop_construct(words)


@dataclass
class OperatorUse:
    """A ``_Pragma`` operator, or a macro use expanding to one, in the main file."""

    start: int
    end: int
    """Byte range of the use (``_Pragma("...")``, ``SIMD``, ``P(omp simd)``)."""
    directive: str
    """The pragma's text, ``omp simd reduction(+:s)``."""
    spelled: str
    """How the use is named in diagnostics: ``'SIMD' expands to '_Pragma("omp simd")'``."""
    alone: bool
    """The expansion is this one pragma and nothing else."""


def operator_uses(
    tu: ci.TranslationUnit,
    text: str,
    code_offsets: list[int],
    defines: list[tuple[int, str]],
) -> list[OperatorUse]:
    """The OpenMP ``_Pragma`` uses of a file, in source order.

    ``text`` is the main file (one character per byte), ``code_offsets``
    where ``_Pragma`` appears in its code (not in comments, literals,
    directives or skipped blocks), ``defines`` the main file's ``#define``
    lines (offset, text)."""
    found: list[OperatorUse] = []
    for off in code_offsets:
        m = _CALL.match(text, off)
        if m is not None:
            directive = _destringize(m.group(1))
            if _is_omp(directive):
                found.append(OperatorUse(off, m.end(), directive, _quoted(directive), True))
    macros = _macros(tu, defines)
    if not macros:
        return found
    main = tu.spelling
    seen: set[int] = set()
    for c in tu.cursor.get_children():
        if c.kind != ci.CursorKind.MACRO_INSTANTIATION or c.spelling not in macros:
            continue
        start, end = c.extent.start, c.extent.end
        if start.file is None or start.file.name != main or start.offset in seen:
            continue
        seen.add(start.offset)
        macro = macros[c.spelling]
        directive = macro.directive
        if directive is None:  # _Pragma(#x): the directive is the argument
            use = text[start.offset : end.offset]
            args = use[use.find("(") + 1 : use.rfind(")")] if "(" in use else ""
            candidate = " ".join(args.split())
            directive = candidate if _is_omp(candidate) else None
        if directive is not None:
            spelled = f"'{c.spelling}' expands to {_quoted(directive)}"
            found.append(OperatorUse(start.offset, end.offset, directive, spelled, macro.alone))
    return sorted(found, key=lambda use: use.start)


def unread_warning(use: OperatorUse, why: str, where: Location) -> Unsupported | None:
    """The warning for a SIMD directive's ``_Pragma`` use that s2svec does
    not read (None for other directives: their uses stay silent)."""
    if not is_simd_directive(use.directive):
        return None
    declare = use.directive.split()[1:3] == ["declare", "simd"]
    effect = "the function gets no vector variants" if declare else "the loop is not vectorized"
    return Unsupported(
        f"{use.spelled}, which is ignored: {why}; {effect} (write '#pragma {use.directive}')",
        where,
    )


def operator_at(text: str, offset: int) -> tuple[int, str] | None:
    """The ``_Pragma("...")`` at ``offset``: its end and the pragma's text."""
    m = _CALL.match(text, offset)
    return None if m is None else (m.end(), _destringize(m.group(1)))


def _quoted(directive: str) -> str:
    return f"'_Pragma(\"{directive}\")'"


def _is_omp(directive: str) -> bool:
    return directive.split()[:1] == ["omp"]


def _macros(tu: ci.TranslationUnit, defines: list[tuple[int, str]]) -> dict[str, _Macro]:
    """Macros that expand to an OpenMP ``_Pragma``, directly or through
    other macros of the main file and of the headers that use ``_Pragma``
    (a SIMD directive is the one named where the body has several)."""
    bodies: dict[str, _Macro] = {}
    texts = [text for _, text in defines]
    for inc in tu.get_includes():
        try:
            with open(inc.include.name, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        if b"_Pragma" in data:
            joined = data.decode("latin-1").replace("\\\r\n", "").replace("\\\n", "")
            texts += [m.group(0) for m in _DEFINE.finditer(joined)]
    for define in texts:
        m = _DEFINE.match(define.replace("\\\r\n", "").replace("\\\n", ""))
        if m is None:
            continue
        body = m.group(3)
        macro = _Macro(names=set(_IDENT.findall(body)), body=body)
        directives = [_destringize(c.group(1)) for c in _CALL.finditer(body)]
        macro.directive = _preferred([d for d in directives if _is_omp(d)])
        if macro.directive is None and m.group(2) and _STRINGIZE.search(body):
            macro.stringizes = True
        macro.alone = _ALONE.fullmatch(body) is not None
        bodies[m.group(1)] = macro
    found = {n: m for n, m in bodies.items() if m.directive is not None or m.stringizes}
    changed = True
    while changed:  # SIMD_FOR -> SIMD -> _Pragma("omp simd")
        changed = False
        for name, macro in bodies.items():
            if name in found:
                continue
            options: list[tuple[str, bool]] = []
            for inner_name in sorted(macro.names & found.keys()):
                inner = found[inner_name]
                uses = _uses(inner_name, macro.body)
                alone = len(uses) == 1 and uses[0][0].strip() == macro.body.strip()
                if inner.directive is not None:
                    options.append((inner.directive, alone and inner.alone))
                    continue
                for _, arguments in uses:  # _Pragma(#x): the arguments written here
                    written = " ".join(arguments.split())
                    if _is_omp(written):
                        options.append((written, alone and inner.alone))
            directive = _preferred([d for d, _ in options])
            if directive is not None:
                alone = len(options) == 1 and options[0][1]
                found[name] = _Macro(directive, False, macro.names, macro.body, alone)
                changed = True
    return found


def _uses(name: str, body: str) -> list[tuple[str, str]]:
    """The uses of macro ``name`` in a body: (the use's text, its arguments
    within their balanced parentheses, "" without)."""
    found = []
    for m in re.finditer(rf"\b{name}\b\s*", body):
        end, arguments = m.end(), ""
        if body.startswith("(", end):
            depth, k = 0, end
            while k < len(body):
                depth += {"(": 1, ")": -1}.get(body[k], 0)
                k += 1
                if depth == 0:
                    break
            end, arguments = k, body[m.end() + 1 : k - 1]
        found.append((body[m.start() : end], arguments))
    return found


_ALONE = re.compile(r'\s*_Pragma\s*\(\s*(?:L?"(?:[^"\\\n]|\\.)*"|#\s*\w+)\s*\)\s*')


def _preferred(directives: list[str]) -> str | None:
    """The SIMD directive among a macro's pragmas, else the first."""
    simd = [d for d in directives if is_simd_directive(d)]
    return (simd or directives or [None])[0]


def _destringize(literal: str) -> str:
    """The text a string literal stands for (C11 6.10.9: ``\\"`` and ``\\\\``)."""
    return " ".join(literal.replace('\\"', '"').replace("\\\\", "\\").split())


__all__ = ["OperatorUse", "is_simd_directive", "operator_at", "operator_uses", "unread_warning"]
