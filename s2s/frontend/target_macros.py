"""The predefined macros that tell s2svec's targets apart, asked of the compilers.

Why: each target's code is generated from the file as that target's compiler
reads it (``s2s.frontend.views``).  Only a macro the compiler itself
predefines differently under different target flags (``__AVX512F__``,
``__aarch64__``, ``__BIGGEST_ALIGNMENT__``) can make two readings of the
file differ.  A user's macro -- an include guard ``__FOO_H__`` or ``_FOO_H_``
-- reads the same for every target: it must neither split the parse nor
guard the output's branches (where it would keep the vector code from every
build).

What is computed (``target_macros``): the macros each installed compiler
predefines (``CC -dM -E -x c /dev/null``) under each *probe*: a target's
parse arguments (``Target.parse_args``: its triple and ISA flags), the
triple alone (a build without ISA flags) and, on the host's architecture,
``-march=native``.  The compilers: ``<triple>-gcc`` (else ``gcc`` on the
host's architecture), ``clang`` and ``clang-19`` with ``--target=<triple>``,
and libclang itself, so that the parser and the compilers agree.  A macro
*varies* when one compiler (gcc's per-triple binaries count as one) defines
it differently under two probes; ``TargetMacros.differ`` names the macros
that differ between two targets' arguments.

Cost: each compiler's answer is cached per binary (path, size, modification
time; the host CPU too for ``-march=native``) and arguments in
``<cache>/target-macros`` (``s2s.cache``), and the combined answer under the
key of all of them: with a warm cache it costs a ``stat`` per compiler and
one small file read.  Without a cache folder the compilers are asked at
every run.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import clang.cindex as ci

from ..cache import cache_folder, write_atomically

Args = tuple[str, ...]
Dump = dict[str, str]
"""Macro name -> its definition as the compiler prints it (``(a, b) a + b``)."""

CLANGS = ("clang", "clang-19")
"""The clang binaries asked (with ``--target=<triple>``) when installed."""
LIBCLANG = "libclang"
NATIVE = "-march=native"
_CACHE = "target-macros"
_FORMAT = 1
"""Changes when the cached files change shape."""
_TIMEOUT = 60


@dataclass(frozen=True)
class Probe:
    """One compiler asked under one set of arguments."""

    compiler: str
    """``gcc`` (its per-triple binaries count as one), ``clang``, ``clang-19``
    or ``libclang``."""
    args: Args
    """The arguments as the parser gets them (``--target=T``, flags)."""
    command: tuple[str, ...]
    """The binary and its arguments before ``-dM -E``; empty for libclang."""
    identity: str
    """What the answer depends on besides ``args``: the binary's path,
    size and modification time, the host CPU for ``-march=native``."""

    @property
    def key(self) -> str:
        return _digest([_FORMAT, self.compiler, list(self.args), list(self.command), self.identity])


@dataclass(frozen=True)
class TargetMacros:
    """What the compilers predefine differently per target (module doc)."""

    varying: frozenset[str]
    """Macros some compiler predefines differently under two probes."""
    toggled: frozenset[str]
    """The varying macros some probe defines and another does not: those a
    ``defined(...)`` condition tells apart."""
    pairs: dict[frozenset[Args], frozenset[str]]
    """For two targets' arguments, the macros some compiler predefines
    differently under the two."""

    def differ(self, a: Args, b: Args) -> frozenset[str]:
        """The macros predefined differently under ``a`` and ``b`` (every
        varying one when the pair was not probed)."""
        if a == b:
            return frozenset()
        return self.pairs.get(frozenset((a, b)), self.varying)


@cache
def target_macros(target_args: tuple[Args, ...]) -> TargetMacros:
    """The answer for the targets whose parse arguments are ``target_args``
    (all of s2svec's targets: a view must know the macros of the ones not
    selected too, as a build may enable them)."""
    probes = [p for args in probe_arguments(target_args) for p in _probes(args)]
    folder = cache_folder(_CACHE)
    answer_key = _digest([_FORMAT, [list(a) for a in target_args], [p.key for p in probes]])
    cached = _read_answer(folder, answer_key)
    if cached is not None:
        return cached
    answer = combine(target_args, _dumps(probes, folder))
    if folder is not None:
        write_atomically(os.path.join(folder, f"answer-{answer_key}.json"), _encode(answer))
    return answer


def probe_arguments(target_args: Sequence[Args]) -> list[Args]:
    """The targets' arguments, each triple alone, and ``-march=native`` on
    the host's architecture."""
    out = list(target_args)
    for args in target_args:
        triple = tuple(a for a in args if a.startswith("--target="))
        out.append(triple)
        if _on_host(triple):
            out.append(triple + (NATIVE,))
    return list(dict.fromkeys(out))


def combine(target_args: Sequence[Args], dumps: dict[Probe, Dump | None]) -> TargetMacros:
    """The varying macros of the dumps, compared compiler by compiler."""
    by_compiler: dict[str, list[Dump]] = {}
    for probe, dump in dumps.items():
        if dump is not None:
            by_compiler.setdefault(probe.compiler, []).append(dump)
    varying: set[str] = set()
    toggled: set[str] = set()
    for found in by_compiler.values():
        for name in dict.fromkeys(n for dump in found for n in dump):
            values = {d.get(name) for d in found}
            if len(values) > 1:
                varying.add(name)
                if None in values:
                    toggled.add(name)
    pairs = {
        frozenset((a, b)): _between(a, b, dumps) for a in target_args for b in target_args if a < b
    }
    return TargetMacros(frozenset(varying), frozenset(toggled), pairs)


def _between(a: Args, b: Args, dumps: dict[Probe, Dump | None]) -> frozenset[str]:
    under_a = {p.compiler: d for p, d in dumps.items() if p.args == a and d is not None}
    under_b = {p.compiler: d for p, d in dumps.items() if p.args == b and d is not None}
    names: set[str] = set()
    for compiler in under_a.keys() & under_b.keys():
        da, db = under_a[compiler], under_b[compiler]
        names |= {n for n in da.keys() | db.keys() if da.get(n) != db.get(n)}
    return frozenset(names)


# -- the compilers ------------------------------------------------------------------------


def _probes(args: Args) -> list[Probe]:
    """Every installed compiler for the triple of ``args``, and libclang."""
    triple = next((a.partition("=")[2] for a in args if a.startswith("--target=")), None)
    flags = tuple(a for a in args if not a.startswith("--target="))
    native = _cpu() if NATIVE in args else ""
    found: list[Probe] = []
    gcc = (_which(f"{triple}-gcc") if triple else None) or (
        _which("gcc") if _on_host(args) else None
    )
    if gcc:
        found.append(Probe("gcc", args, (gcc, *flags), _identity(gcc) + native))
    for name in CLANGS:
        clang = _which(name)
        if clang:
            found.append(Probe(name, args, (clang, *args), _identity(clang) + native))
    library = _libclang_path()
    found.append(Probe(LIBCLANG, args, (), _identity(library) + native))
    return found


def _dumps(probes: list[Probe], folder: str | None) -> dict[Probe, Dump | None]:
    """Each probe's macros, from the cache or asked (compilers in parallel)."""
    from concurrent.futures import ThreadPoolExecutor  # only when the cache misses

    dumps = {p: _read_dump(folder, p) for p in probes}
    missing = [p for p, d in dumps.items() if d is None and p.compiler != LIBCLANG]
    with ThreadPoolExecutor(max_workers=4) as pool:
        asked = dict(zip(missing, pool.map(_ask_compiler, missing)))
    for probe in probes:
        if probe.compiler == LIBCLANG and dumps[probe] is None:
            asked[probe] = _ask_libclang(probe.args)
    for probe, dump in asked.items():
        dumps[probe] = dump
        if folder is not None:
            write_atomically(
                os.path.join(folder, f"dump-{probe.key}.json"), json.dumps(dump).encode()
            )
    return {p: (d or None) for p, d in dumps.items()}


def _ask_compiler(probe: Probe) -> Dump:
    """``CC ARGS -dM -E -x c /dev/null``; empty when the compiler fails."""
    try:
        done = subprocess.run(
            [*probe.command, "-dM", "-E", "-x", "c", os.devnull],
            capture_output=True,
            text=True,
            timeout=_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    if done.returncode != 0:
        return {}
    dump: Dump = {}
    for line in done.stdout.splitlines():
        if line.startswith("#define "):
            name, definition = _split_definition(line[len("#define ") :])
            dump[name] = definition
    return dump


def _split_definition(text: str) -> tuple[str, str]:
    """``F(a) a`` -> (``F``, ``(a) a``); ``X 1`` -> (``X``, ``1``)."""
    end = len(text)
    for stop in (" ", "("):
        k = text.find(stop)
        if k >= 0:
            end = min(end, k)
    return text[:end], text[end:].strip()


def _ask_libclang(args: Args) -> Dump:
    """The parser's own predefined macros under ``args``."""
    tu = ci.Index.create().parse(
        "s2s_predefined.c",
        args=["-x", "c", *args],
        unsaved_files=[("s2s_predefined.c", "")],
        options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD,
    )
    dump: Dump = {}
    for cursor in tu.cursor.get_children():
        if cursor.kind == ci.CursorKind.MACRO_DEFINITION and cursor.location.file is None:
            tokens = [t.spelling for t in cursor.get_tokens()]
            dump[cursor.spelling] = " ".join(tokens[1:])
    return dump


# -- the cache ------------------------------------------------------------------------------


def _read_dump(folder: str | None, probe: Probe) -> Dump | None:
    data = _read_json(folder, f"dump-{probe.key}.json")
    return data if isinstance(data, dict) else None


def _read_answer(folder: str | None, key: str) -> TargetMacros | None:
    data = _read_json(folder, f"answer-{key}.json")
    if not isinstance(data, dict):
        return None  # missing or damaged: ask again
    try:
        pairs = {frozenset((tuple(a), tuple(b))): frozenset(names) for a, b, names in data["pairs"]}
        return TargetMacros(frozenset(data["varying"]), frozenset(data["toggled"]), pairs)
    except (TypeError, KeyError, ValueError):
        return None  # missing or damaged: ask again


def _encode(answer: TargetMacros) -> bytes:
    pairs = [
        [list(a), list(b), sorted(names)]
        for (a, b), names in ((sorted(k), v) for k, v in answer.pairs.items())
    ]
    return json.dumps(
        {"varying": sorted(answer.varying), "toggled": sorted(answer.toggled), "pairs": pairs}
    ).encode()


def _read_json(folder: str | None, name: str) -> object:
    if folder is None:
        return None
    try:
        with open(os.path.join(folder, name), "rb") as handle:
            return json.loads(handle.read())
    except (OSError, ValueError):
        return None


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value).encode()).hexdigest()[:32]


# -- the machine ----------------------------------------------------------------------------


@cache
def _which(name: str) -> str | None:
    return shutil.which(name)


@cache
def _identity(path: str) -> str:
    """Path, size and modification time of the binary behind ``path``."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return real
    return f"{real}:{st.st_size}:{st.st_mtime_ns}"


def _libclang_path() -> str:
    name = getattr(ci.conf.lib, "_name", None)
    return name if isinstance(name, str) else ci.__file__


_ARCH_NAMES = {"amd64": "x86_64", "arm64": "aarch64"}


def _on_host(args: Args) -> bool:
    """Do ``args`` (their ``--target=`` triple, if any) name the host's architecture?"""
    triples = [a.partition("=")[2] for a in args if a.startswith("--target=")]
    if not triples:
        return True
    machine = os.uname().machine
    arch = triples[-1].split("-")[0]
    return _ARCH_NAMES.get(arch, arch) == _ARCH_NAMES.get(machine, machine)


@lru_cache(maxsize=1)
def _cpu() -> str:
    """The host CPU's model and features (what ``-march=native`` reads)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            lines = handle.read().split("\n\n", 1)[0].splitlines()
    except OSError:
        return ":cpu-unknown"
    wanted = ("model name", "flags", "Features", "CPU part", "CPU implementer")
    picked = [line for line in lines if line.split(":")[0].strip() in wanted]
    return ":" + _digest(picked)
