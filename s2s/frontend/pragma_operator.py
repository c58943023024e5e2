"""``_Pragma("omp simd")``: the operator form of the pragmas, found and reported.

s2svec reads ``#pragma`` lines from the text; the ``_Pragma`` operator, often
hidden in a macro (``#define SIMD _Pragma("omp simd")``), makes its pragma
only in the preprocessor's output, where s2svec does not look.  Such a loop
is not vectorized, and silently so would be a surprise: each ``_Pragma``
whose string is an OpenMP SIMD directive gets a warning at its location,
and each use in the main file of a macro that expands to one gets a warning
at the use (also through other macros, and for ``_Pragma(#x)`` with an
``omp ... simd`` argument).  ``_Pragma`` with other directives stays silent,
like their ``#pragma`` lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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


def is_simd_directive(text: str) -> bool:
    """Whether pragma text (``omp simd reduction(+:s)``) is an OpenMP SIMD directive."""
    tokens = tokenize(text, Location("", 1, 1))
    if not tokens or tokens[0].text != "omp":
        return False
    words = directive_words(tokens[1:])
    return any(words[: len(d)] == d for d in _SIMD_DIRECTIVES) or is_simd_loop_construct(words)


def operator_warnings(
    tu: ci.TranslationUnit,
    text: str,
    code_offsets: list[int],
    defines: list[tuple[int, str]],
    locate: Callable[[int], Location],
) -> list[Unsupported]:
    """Warnings for the ``_Pragma`` operators of a file.

    ``text`` is the main file (one character per byte), ``code_offsets``
    where ``_Pragma`` appears in its code (not in comments, literals,
    directives or skipped blocks), ``defines`` the main file's ``#define``
    lines (offset, text), ``locate`` maps an offset to a Location."""
    found: list[Unsupported] = []
    for off in code_offsets:
        m = _CALL.match(text, off)
        if m is not None:
            directive = _destringize(m.group(1))
            if is_simd_directive(directive):
                found.append(
                    Unsupported(_message(f"'_Pragma(\"{directive}\")'", directive), locate(off))
                )
    macros = _macros(tu, defines)
    if not macros:
        return found
    main = tu.spelling
    seen: set[int] = set()
    for c in tu.cursor.get_children():
        if c.kind != ci.CursorKind.MACRO_INSTANTIATION or c.spelling not in macros:
            continue
        start = c.extent.start
        if start.file is None or start.file.name != main or start.offset in seen:
            continue
        seen.add(start.offset)
        macro = macros[c.spelling]
        directive = macro.directive
        if directive is None:  # _Pragma(#x): the directive is the argument
            use = text[start.offset : c.extent.end.offset]
            args = use[use.find("(") + 1 : use.rfind(")")] if "(" in use else ""
            candidate = " ".join(args.split())
            directive = candidate if is_simd_directive(candidate) else None
        if directive is not None:
            found.append(
                Unsupported(
                    _message(
                        f"'{c.spelling}' expands to '_Pragma(\"{directive}\")', which", directive
                    ),
                    locate(start.offset),
                )
            )
    return found


def _message(what: str, directive: str) -> str:
    return (
        f"{what} is ignored: _Pragma forms are not supported, the loop is not "
        f"vectorized (write '#pragma {directive}')"
    )


def _macros(tu: ci.TranslationUnit, defines: list[tuple[int, str]]) -> dict[str, _Macro]:
    """Macros that expand to an OpenMP SIMD ``_Pragma``, directly or through
    other macros of the main file and of the headers that use ``_Pragma``."""
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
        macro.directive = next(
            (
                _destringize(c.group(1))
                for c in _CALL.finditer(body)
                if is_simd_directive(_destringize(c.group(1)))
            ),
            None,
        )
        if macro.directive is None and m.group(2) and _STRINGIZE.search(body):
            macro.stringizes = True
        bodies[m.group(1)] = macro
    found = {n: m for n, m in bodies.items() if m.directive is not None or m.stringizes}
    changed = True
    while changed:  # SIMD_FOR -> SIMD -> _Pragma("omp simd")
        changed = False
        for name, macro in bodies.items():
            if name in found:
                continue
            for inner_name in sorted(macro.names & found.keys()):
                directive = found[inner_name].directive
                if directive is None:  # _Pragma(#x): the arguments written here
                    uses = re.finditer(rf"\b{inner_name}\s*\(([^()]*)\)", macro.body)
                    directive = next(
                        (
                            " ".join(u.group(1).split())
                            for u in uses
                            if is_simd_directive(u.group(1))
                        ),
                        None,
                    )
                if directive is not None:
                    found[name] = _Macro(directive, False, macro.names, macro.body)
                    changed = True
                    break
    return found


def _destringize(literal: str) -> str:
    """The text a string literal stands for (C11 6.10.9: ``\\"`` and ``\\\\``)."""
    return " ".join(literal.replace('\\"', '"').replace("\\\\", "\\").split())


__all__ = ["is_simd_directive", "operator_warnings"]
