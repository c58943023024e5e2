"""``--check-branches=CC``: does the build compile the vector code the report announces?

Why: the output picks its code with ``#if`` chains (``s2s.driver``,
``s2s.codegen.variant``).  Which branch a build takes depends on its
compiler, its flags and how the file reads under them
(``FileView.assumed``), so "loop vectorized for avx512" can describe code
the build never compiles -- silently, since the scalar branch builds as well.

How: one preprocessor run per file, only when the output holds vector code:
``CC -E -C <flags>`` (comments kept) on a copy of the output in a temporary
folder under the input's name, ``-iquote`` the input's folder first (as
``s2svec-cc`` compiles it).  A probe header read first (``-include``) says
which targets' ISA conditions hold under the compiler and flags
(``Target.isa_condition``: the ISA macros, not
the file's reading nor what the file itself defines).  The branch markers
(``s2s.codegen.branch_markers``) left in the result tell which branch of
each region the build compiles.  The branch it should compile is the first
of the region's vectorized targets (widest first) whose ISA condition holds.

Where the two differ, a warning at the region says what the build takes
instead, and the report entry of the target that should have been compiled
says "not compiled with these flags"; when the build selects none of the
region's targets and takes the scalar code, every entry of the region says
so.  Regions the build does not compile at all (in the file's own ``#if 0``)
are not checked.  A missing compiler or a failed preprocessor run is a
warning, and the output stays as it is.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

from .codegen.branch_markers import (
    SCALAR,
    branch_marker,
    isa_marker,
    loop_region,
    variant_region,
)
from .codegen.target import Target
from .diagnostics import Location
from .report import RegionReport

TIMEOUT = 300


@dataclass(frozen=True)
class Build:
    """How the output will be compiled."""

    compiler: list[str]
    """The compiler command (``gcc``, ``ccache clang-19``)."""
    flags: list[str]
    """Its flags, without output and dependency flags
    (``compiler_flags.preprocessing_flags``)."""
    source: str
    """The input file as given (its folder is searched for ``"x.h"``)."""


@dataclass
class Region:
    """One loop or vector variant the report says is vectorized."""

    location: Location
    kind: str
    """``loop`` or ``function``."""
    name: str
    """What its markers call it (``the loop at k.c:3:1``, ``_ZGVdN8v_f``)."""
    entries: list[RegionReport] = field(default_factory=list)
    """Its vectorized report entries, in the order of the ``#if`` chain."""


@dataclass(frozen=True)
class Verdict:
    """What one region's check found when the build is not what it should be."""

    expected: str | None
    """The target the build should compile (None: the flags select none)."""
    compiled: str
    """The branch the build compiles (a target, or ``scalar``)."""


def check_branches(
    reports: list[RegionReport], targets: list[Target], output: bytes, build: Build
) -> list[str]:
    """Check every vectorized region of ``output`` against ``build``; mark the
    report entries the build cannot reach; return the warnings."""
    regions = announced(reports, targets)
    if not regions:
        return []
    preprocessed, problem = preprocess(output, targets, build)
    if preprocessed is None:
        return [f"s2svec: warning: --check-branches: {problem}; the branches are not checked"]
    has = {t.name for t in targets if isa_marker(t.name) in preprocessed}
    found: dict[tuple[Location, str, Verdict], list[Region]] = {}
    for region in regions:
        compiled = compiled_branch(region, preprocessed)
        if compiled is None:
            continue  # not in this build (or, in a header read twice, not one answer)
        verdict = judge(region, compiled, has)
        if verdict is not None:
            found.setdefault((region.location, region.kind, verdict), []).append(region)
    warnings: list[str] = []
    for (location, kind, verdict), group in found.items():
        warnings.append(f"{location}: warning: {_message(kind, group, verdict)}")
        for region in group:
            _mark(region, verdict)
    return warnings


def announced(reports: list[RegionReport], targets: list[Target]) -> list[Region]:
    """The regions with vectorized entries, in file order."""
    order = {t.name: k for k, t in enumerate(targets)}
    regions: dict[str, Region] = {}
    for entry in reports:
        if not entry.vectorized or entry.target not in order:
            continue
        location = Location(entry.file, entry.line, entry.column)
        name = (
            loop_region(entry.file, entry.line, entry.column)
            if entry.kind == "loop"
            else variant_region(entry.name)
        )
        regions.setdefault(name, Region(location, entry.kind, name)).entries.append(entry)
    for region in regions.values():
        region.entries.sort(key=lambda e: order[e.target])
    return list(regions.values())


def compiled_branch(region: Region, preprocessed: str) -> str | None:
    """The one branch of ``region`` whose marker the build keeps, if one."""
    branches = [e.target for e in region.entries] + [SCALAR]
    compiled = [b for b in branches if branch_marker(b, region.name) in preprocessed]
    return compiled[0] if len(compiled) == 1 else None


def judge(region: Region, compiled: str, has: set[str]) -> Verdict | None:
    """None when the build compiles the branch it should; else what it
    compiles instead."""
    expected = next((e.target for e in region.entries if e.target in has), None)
    if compiled == expected or (expected is None and compiled != SCALAR):
        return None
    return Verdict(expected, compiled)


def _message(kind: str, group: list[Region], verdict: Verdict) -> str:
    what = "this loop"
    if kind != "loop" and len(group) == 1:
        what = f"the vector variant '{group[0].name}'"
    elif kind != "loop":
        what = f"{len(group)} vector variants of '{_function_of(group[0].name)}'"
    takes = _taken(group[0], verdict.compiled)
    if verdict.expected is None:
        listed = ", ".join(dict.fromkeys(e.target for e in group[0].entries))
        return (
            f"no vector code of {what} is compiled with these flags (this compiler "
            f"and these flags select none of {listed}): the build takes {takes}"
        )
    return (
        f"the {verdict.expected} code of {what} is not compiled with these flags: "
        f"the build takes {takes}"
    )


def _function_of(mangled: str) -> str:
    """``_ZGVdN8v_my_f`` -> ``my_f`` (Vector Function ABI names)."""
    parts = mangled.split("_", 2)
    return parts[2] if len(parts) == 3 and parts[1].startswith("ZGV") else mangled


def _mark(region: Region, verdict: Verdict) -> None:
    """The report no longer says "vectorized" for code the build cannot reach."""
    for entry in region.entries:
        if entry.vectorized and verdict.expected in (None, entry.target):
            entry.vectorized = False
            entry.reason = (
                f"not compiled with these flags: the build takes {_taken(region, verdict.compiled)}"
            )


def _taken(region: Region, compiled: str) -> str:
    if compiled != SCALAR:
        return f"the {compiled} code"
    return "the scalar loop" if region.kind == "loop" else "the scalar code"


# -- the preprocessor run -------------------------------------------------------------------


def preprocess(output: bytes, targets: list[Target], build: Build) -> tuple[str | None, str]:
    """The output as ``build`` preprocesses it (comments kept), after the
    ISA probe; ``(None, why)`` when that fails."""
    if not build.compiler or shutil.which(build.compiler[0]) is None:
        return None, f"{shlex.join(build.compiler[:1]) or repr('')}: command not found"
    folder = tempfile.mkdtemp(prefix="s2svec-check-")
    try:
        copy = os.path.join(folder, os.path.basename(build.source) or "output.c")
        with open(copy, "wb") as handle:
            handle.write(output)
        probe = os.path.join(folder, "s2svec-isa-probe.h")
        with open(probe, "w", encoding="utf-8") as handle:
            handle.write(isa_probe(targets))
        return _run(build, copy, probe)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def isa_probe(targets: list[Target]) -> str:
    """A header that writes each target's ``isa_marker`` where its ISA
    condition holds.  It is read with ``-include`` before the output: it
    sees the compiler's macros and the flags' ``-D``/``-U``, not what the
    file itself defines or undefines."""
    lines: list[str] = []
    for t in targets:
        lines += [
            f"#if {t.isa_condition}",
            isa_marker(t.name),
            "#endif",
        ]
    return "\n".join(lines) + "\n"


def _run(build: Build, copy: str, probe: str) -> tuple[str | None, str]:
    first = ["-iquote", os.path.dirname(build.source) or ".", "-include", probe]
    command = [*build.compiler, *first, *build.flags, "-E", "-C", copy]
    what = f"'{shlex.join([*build.compiler, '-E'])}'"
    try:
        done = subprocess.run(command, capture_output=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return None, f"{what} took more than {TIMEOUT} s"
    except OSError as e:
        return None, f"{what}: {e.strerror or e}"
    if done.returncode != 0:
        errors = done.stderr.decode("utf-8", "replace").replace(copy, build.source)
        first_error = next(
            (line for line in errors.splitlines() if "error" in line),
            errors.strip().split("\n")[0] if errors.strip() else "no message",
        )
        return None, f"{what} failed on the output ({first_error.strip()})"
    return done.stdout.decode("utf-8", "surrogateescape"), ""
