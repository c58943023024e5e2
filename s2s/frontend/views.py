"""The file as each target's compiler sees it.

A target's vector code must come from the file as that target's compiler
reads it: its predefined macros (``__aarch64__``, ``__AVX512F__``), type
sizes and plain ``char`` signedness.  ``parse_views`` parses the file once
per distinct set of target arguments (``Target.parse_args``: the triple and
the ISA flags).  Targets on the same triple (avx2, avx512) share one parse
when no preprocessor conditional of the user's own files names a reserved
identifier (one starting with ``__``): the ISA macros that tell such targets
apart are then invisible to the user's code, and only system headers (which
no region comes from) read differently.

A parse that fails for some targets but not others leaves those targets
without vector code (``FileView.error`` says why); when it fails for every
target the file cannot be processed and the first error is raised.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import clang.cindex as ci

from ..diagnostics import UserError
from .parse import ParsedFile, ParseError, macros_defined_where, parse_file
from .pragmas import scan_directives

_CONDITIONALS = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"}
_RESERVED = re.compile(rb"\b__\w+")


@dataclass
class FileView:
    """One parse of the file, shared by the targets that read it alike."""

    parsed: Optional[ParsedFile]
    """None when the file does not parse for these targets."""
    error: Optional[UserError] = None
    """Why it does not parse (the compiler's first error)."""
    targets: list[str] = field(default_factory=list)
    assumed: dict[str, bool] = field(default_factory=dict)
    """The reserved macros the user's conditionals name, and whether this
    view defines them (``__AVX512F__``: False for the AVX2 view).  A compiler
    reads the file as this view only where they are defined alike, so a
    target's code from this view is compiled only there: AVX2 code built
    with -march=native would otherwise meet another reading of the file."""


def parse_views(path: str, include_dirs: list[str], defines: list[str], std: str,
                targets: list[Any], preprocessor: Sequence[str] = ()) -> dict[str, FileView]:
    """Target name -> the view its code is generated from (see module doc)."""
    views: dict[str, FileView] = {}
    by_args: dict[tuple[str, ...], FileView] = {}
    for target in targets:
        args = target.parse_args
        view = by_args.get(args) or _shareable(by_args, args)
        if view is None:
            view = _parse(path, include_dirs, defines, std, args, preprocessor)
            by_args[args] = view
        view.targets.append(target.name)
        views[target.name] = view
    parsed = [v for v in by_args.values() if v.parsed is not None]
    for view in parsed:
        view.assumed = _assumed(view.parsed)
    if not parsed:
        first = next(iter(by_args.values())).error
        assert first is not None
        raise first
    return views


def _parse(path: str, include_dirs: list[str], defines: list[str], std: str,
           args: tuple[str, ...], preprocessor: Sequence[str]) -> FileView:
    try:
        return FileView(parse_file(path, include_dirs, defines, std, args, preprocessor))
    except ParseError as e:
        return FileView(None, e)


def _shareable(by_args: dict[tuple[str, ...], FileView],
               args: tuple[str, ...]) -> Optional[FileView]:
    """A parse on the same triple the user's code cannot tell apart from ``args``."""
    for other_args, view in by_args.items():
        same_triple = other_args[:1] == args[:1]
        if same_triple and view.parsed is not None and not conditionals_name_reserved(view.parsed):
            return view
    return None


def _assumed(parsed: ParsedFile) -> dict[str, bool]:
    names = reserved_in_conditionals(parsed)
    defined = macros_defined_where(parsed, names) if names else set()
    return {n: n in defined for n in sorted(names)}


def reserved_in_conditionals(parsed: ParsedFile) -> set[str]:
    """The reserved identifiers (``__AVX512F__``) that conditional directives
    of the main file and of non-system headers name (``__has_include`` and
    the like are operators, not macros)."""
    names: set[str] = set()
    for raw in _user_files(parsed):
        for start, end, name in scan_directives(raw):
            if name in _CONDITIONALS:
                names |= {m.decode() for m in _RESERVED.findall(raw[start:end])}
    return names - _OPERATORS


_OPERATORS = {"__has_include", "__has_include_next", "__has_attribute", "__has_builtin",
              "__has_feature", "__has_extension", "__has_c_attribute",
              "__has_cpp_attribute", "__has_declspec_attribute", "__has_warning",
              "__is_identifier", "__building_module"}


def conditionals_name_reserved(parsed: ParsedFile) -> bool:
    """Does a conditional directive of the main file or a non-system header
    name a reserved identifier (``#ifdef __AVX512F__``)?"""
    for raw in _user_files(parsed):
        for start, end, name in scan_directives(raw):
            if name in _CONDITIONALS and _RESERVED.search(raw[start:end]):
                return True
    return False


def _user_files(parsed: ParsedFile) -> list[bytes]:
    """The bytes of the main file and of every included non-system file."""
    files = [parsed.raw]
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
            files.append(b"#if __unreadable__\n")  # unknown: do not share
    return files
