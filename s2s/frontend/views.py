"""The file as each target's compiler sees it.

A target's vector code must come from the file as that target's compiler
reads it: its predefined macros (``__aarch64__``, ``__AVX512F__``), type
sizes and plain ``char`` signedness.  ``parse_views`` parses the file once
per distinct set of target arguments (``Target.parse_args``: the triple and
the ISA flags).  Targets on the same triple (avx2, avx512) share one parse
when no preprocessor conditional of the user's own files (the main file and
non-system headers) names a macro the compilers predefine differently under
the two targets' flags (``s2s.frontend.target_macros``): the file then reads
alike for both, and only system headers (which no region comes from) read
differently.  User macros -- include guards such as ``__FOO_H__`` among them
-- never tell targets apart.

A parse that fails for some targets but not others leaves those targets
without vector code (``FileView.error`` says why); when it fails for every
target the file cannot be processed and the first error is raised.  Each
parse writes out the macro uses that write simd loops (``macro_loops``)
and is read again; the output is spliced into one text, so a view whose
text came out otherwise than the first view's gets no vector code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import clang.cindex as ci

from ..diagnostics import UserError
from .macro_loops import expand_loop_macros
from .parse import LineMap, ParsedFile, ParseError, macros_defined_where, parse_file
from .pragmas import scan_directives
from .target_macros import Args, target_macros

_CONDITIONALS = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"}
_IDENTIFIER = re.compile(rb"\b[A-Za-z_]\w*")
_UNREADABLE = "<an unreadable header>"
"""Named when a header the parser read cannot be read again: its
conditionals are unknown, so its view is shared with no other."""


@dataclass
class FileView:
    """One parse of the file, shared by the targets that read it alike."""

    parsed: ParsedFile | None
    """None when the file does not parse for these targets."""
    error: UserError | None = None
    """Why it does not parse (the compiler's first error)."""
    targets: list[str] = field(default_factory=list)
    assumed: dict[str, bool] = field(default_factory=dict)
    """The target macros (``TargetMacros.toggled``) the user's conditionals
    name, and whether this view defines them (``__AVX512F__``: False for
    the AVX2 view).  A compiler reads the file as this view only where they
    are defined alike, so a target's code from this view is compiled only
    there: AVX2 code built with -march=native would otherwise meet another
    reading of the file."""
    names: frozenset[str] = frozenset()
    """Every identifier the conditionals of the user's files name."""


def parse_views(
    path: str,
    include_dirs: list[str],
    defines: list[str],
    std: str,
    targets: list[Any],
    preprocessor: Sequence[str] = (),
    probes: Callable[[], tuple[Args, ...]] | None = None,
) -> dict[str, FileView]:
    """Target name -> the view its code is generated from (see module doc).
    ``probes`` gives the parse arguments of every target s2svec has (default:
    those of ``targets``), whose macros tell readings apart; it is called
    only when the user's conditionals name an identifier."""
    every = probes or (lambda: tuple(t.parse_args for t in targets))
    views: dict[str, FileView] = {}
    by_args: dict[tuple[str, ...], FileView] = {}
    for target in targets:
        args = target.parse_args
        view = by_args.get(args) or _shareable(by_args, args, every)
        if view is None:
            view = _parse(path, include_dirs, defines, std, args, preprocessor)
            by_args[args] = view
        view.targets.append(target.name)
        views[target.name] = view
    _agree_on_expansions(path, by_args)
    parsed = [v for v in by_args.values() if v.parsed is not None]
    for view in parsed:
        view.assumed = _assumed(view, every)
    if not parsed:
        first = next(iter(by_args.values())).error
        assert first is not None
        raise first
    return views


def _parse(
    path: str,
    include_dirs: list[str],
    defines: list[str],
    std: str,
    args: tuple[str, ...],
    preprocessor: Sequence[str],
) -> FileView:
    def reparse(raw: bytes, lines: LineMap) -> ParsedFile:
        return parse_file(path, include_dirs, defines, std, args, preprocessor, (raw, lines))

    try:
        parsed = parse_file(path, include_dirs, defines, std, args, preprocessor)
    except ParseError as e:
        return FileView(None, e)
    parsed = expand_loop_macros(parsed, reparse)
    return FileView(parsed, names=conditional_names(parsed))


def _agree_on_expansions(path: str, by_args: dict[tuple[str, ...], FileView]) -> None:
    """The output is spliced into one text: a view whose macro uses expand
    to another text than the first view's (a macro defined per target)
    gets no vector code."""
    first: bytes | None = None
    for view in by_args.values():
        if view.parsed is None:
            continue
        if first is None:
            first = view.parsed.raw
        elif view.parsed.raw != first:
            view.error = UserError(
                f"{path}: its macros that write simd loops expand to other code for "
                "this target than for the first (a macro defined per target)"
            )
            view.parsed = None


def _shareable(
    by_args: dict[tuple[str, ...], FileView],
    args: tuple[str, ...],
    every: Callable[[], tuple[Args, ...]],
) -> FileView | None:
    """A parse on the same triple the user's code cannot tell apart from
    ``args`` (the compilers are asked only when the code has conditionals)."""
    for other_args, view in by_args.items():
        same_triple = other_args[:1] == args[:1]
        if not same_triple or view.parsed is None or _UNREADABLE in view.names:
            continue
        if not (view.names and view.names & target_macros(every()).differ(other_args, args)):
            return view
    return None


def _assumed(view: FileView, every: Callable[[], tuple[Args, ...]]) -> dict[str, bool]:
    assert view.parsed is not None
    names = set(view.names & target_macros(every()).toggled) if view.names else set()
    defined = macros_defined_where(view.parsed, names) if names else set()
    return {n: n in defined for n in sorted(names)}


def conditional_names(parsed: ParsedFile) -> frozenset[str]:
    """The identifiers that conditional directives of the main file and of
    non-system headers name (include guards, ``__AVX512F__``, ``defined``)."""
    names: set[bytes] = set()
    files = _user_files(parsed)
    for raw in (f for f in files if f is not None):
        for start, end, name in scan_directives(raw):
            if name in _CONDITIONALS:
                names.update(_IDENTIFIER.findall(raw[start:end]))
    unknown = {_UNREADABLE} if None in files else set()
    return frozenset(n.decode() for n in names) | unknown


def _user_files(parsed: ParsedFile) -> list[bytes | None]:
    """The bytes of the main file and of every included non-system file
    (None for one that cannot be read)."""
    files: list[bytes | None] = [parsed.raw]
    tu = parsed.tu
    seen: set[str] = set()
    for inclusion in tu.get_includes():
        name = inclusion.include.name
        if name in seen:
            continue
        seen.add(name)
        start = ci.SourceLocation.from_offset(tu, inclusion.include, 0)
        if start.is_in_system_header:
            continue
        try:
            with open(name, "rb") as handle:
                files.append(handle.read())
        except OSError:
            files.append(None)
    return files
