"""Differential testing of s2svec: each kernel built as written and after s2svec, run, compared.

For one kernel (testsuite/kernels/NAME.c) and one toolchain configuration:

1. s2svec runs once per kernel and output variant (``all``: every target,
   the default ones and the scalable sve and rvv; ``avx2``: ``--target
   avx2``), with ``--report=json``, into
   ``testsuite/.build/NAME-<hash>/``; the hash covers the kernel text, the
   harness, the variant's arguments and the s2s source tree, so an unchanged
   kernel is not re-run.  A file lock makes concurrent pytest-xdist workers
   share that run.
2. The reference (the original file) is built and run once per ABI
   (``x86_64``: ``gcc -O2``; ``aarch64``: ``aarch64-linux-gnu-gcc -O2
   -static`` under qemu): a UB-free program prints the same whatever the
   compiler and flags, and plain ``char`` is the only difference between
   the two ABIs.  The candidate (s2svec's output) is built with the
   configuration's compiler and flags (the candidate also links libmvec on
   x86) and run.  Both sides use ``-ffp-contract=off``.
3. The outputs are compared line by line (see testsuite/harness.h for the
   line kinds), the JSON report must show the expected number of vectorized
   regions for the target whose ``#if`` branch the configuration compiles,
   and that branch must hold the target's intrinsics, so neither a silent
   scalar fall-back nor a no-op tool can pass.
4. Every build has ``-Wall -Wextra``; the candidate must not warn about code
   s2svec wrote (``own_warnings``): a warning in a line of the output that
   is not a line of the original, or, under gcc, an ``-Wunused-*`` warning
   at one of the original's lines that the reference build (gcc too) does
   not have.  The user's own warnings, also in the copies s2svec keeps of
   the loop (the ``#else`` branch, the scalar epilogue), are the user's.

The configurations (see ``CONFIGS`` and testsuite/README.md) are every
plausible build of the output: gcc 12, Debian's default clang and clang-19,
each with ``-O2 -mavx2 -mfma``, ``-O3 -march=x86-64-v3``, ``-O2
-march=native`` and ``-O3 -march=x86-64-v4``, the AVX2 code of ``--target
avx2`` built with AVX-512 enabled, and NEON cross builds under qemu.  The
target a configuration exercises is not written down but asked from the
compiler (which of the targets' guard macros it predefines with those flags).

Kernel metadata is the first comment of the file, for example
``/* s2s-test: vectorized=2 tolerance=exact */``.  Keys:
  vectorized=N|?      regions the report must show vectorized per target
                      (``?``: not checked, the kernel tests correctness only)
  regions=N           annotated regions the report must list per target
                      (default: the vectorized count)
  tolerance=exact | reduction-fp rel=X | ulp=N
  args="..."          extra s2svec arguments
  cflags="..."        extra compiler flags for both sides
  gcc_cflags="..."    extra flags for gcc builds only (a workaround for a
                      gcc bug that clang does not need)
  candidate_cflags="..."  extra flags for the candidate only (``-fopenmp-simd``:
                      s2svec's output built as OpenMP programs are; the
                      reference stays the plain scalar program)
  grep="REGEX"        the s2svec output must match REGEX
  report="memory.gather=1 ..."   statistics every vectorized entry must show
  width="avx2:4 avx512:8 neon:2" expected width per target
  maxwidth=N          no target may use more lanes (safelen)
  scalar_in="GLOB ..." configurations (fnmatch patterns of their names) whose
                      compiler takes no vector branch of this kernel by design
                      (its user code reads ISA macros: the AVX2 branch is
                      not compiled where __AVX512F__ is defined)
Lines containing ``s2s-keep`` must appear in the output verbatim and as
often as in the input (text outside annotated loops is left untouched).

The same machinery checks testsuite/fuzz's generated programs
(``check_source``): every failure is a ``Problem`` with a kind (s2svec
crash, compile error, compiler crash, wrong output, ...).

Also usable by hand: ``python testsuite/differential.py [KERNEL...] [-c CONFIG]``
(``--list-configs`` prints the matrix as this machine sees it).
"""

from __future__ import annotations

import argparse
import dataclasses
import fcntl
import fnmatch
import functools
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# The s2svec runs of the suite and of the fuzz campaigns verify the IR after
# every pass (s2s.pipeline.VERIFY_EACH): a pass that breaks it is named.
os.environ.setdefault("S2S_VERIFY_EACH", "1")
TESTSUITE = ROOT / "testsuite"
KERNELS = TESTSUITE / "kernels"
BUILD = TESTSUITE / ".build"
HARNESS = TESTSUITE / "harness.h"
TEMPLATES = ROOT / "templates"

S2SVEC_TIMEOUT = 180
COMPILE_TIMEOUT = 180
RUN_TIMEOUT = 120

# Both sides, every configuration: no FMA contraction, so results can be
# compared bit for bit (the optimization level is part of each config).
COMMON_FLAGS = ("-ffp-contract=off", "-Wno-unknown-pragmas", "-Wall", "-Wextra")
# Vector intrinsics a target's branch may use: narrower registers are fine
# (safelen, or a width chosen from the widest type), the branch the compiler
# really takes is checked separately (see preprocessed_own_text).
AVX2_RE = r"\b_mm(?:256)?_\w+"
AVX512_RE = r"\b_mm(?:512|256)?_\w+"
NEON_RE = r"\bv[a-z0-9]+q?_[suf](?:8|16|32|64)\b"
SVE_RE = r"\bsv[a-z0-9_]+_[bsuf](?:8|16|32|64)\w*\("
RVV_RE = r"\b__riscv_v\w+\("
INTRINSICS = {
    "avx2": AVX2_RE,
    "avx512": AVX512_RE,
    "neon": NEON_RE,
    "sve": SVE_RE,
    "rvv": RVV_RE,
}


SCALABLE = ("sve", "rvv")
"""The vector-length agnostic targets (kernel metadata ``scalable_*``)."""


class DifferentialFailure(AssertionError):
    """A kernel whose candidate differs from its reference (or was not vectorized)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a candidate, classified for reports.

    kind: ``s2svec`` (crash, error exit or timeout of the tool), ``report``
    (wrong region counts or statistics), ``text`` (intrinsics missing,
    kept lines changed), ``warning`` (the compiler warns about s2svec's
    code), ``compile-error``, ``ice`` (the compiler crashed),
    ``compile-timeout``, ``reference`` (the original program itself fails:
    a kernel or generator bug), ``crash`` (the candidate exits non-zero or
    on a signal), ``timeout`` (the candidate hangs), ``wrong-output``.
    """

    kind: str
    text: str


class BuildFailure(DifferentialFailure):
    """A compiler that failed, crashed or timed out; `kind` as in Problem."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# --------------------------------------------------------------------------
# ABIs, output variants and configurations


@dataclass(frozen=True)
class Abi:
    """A platform the programs run on; the reference is built once per ABI."""

    name: str
    cc: str
    flags: tuple[str, ...]
    runner: tuple[str, ...] = ()
    """Prefix for running a binary (qemu for cross builds)."""
    candidate_libs: tuple[str, ...] = ("-lm",)
    prelude: tuple[str, ...] = ()
    """Headers precompiled for candidate builds (see prelude_flags)."""


# The reference is the plain scalar program: gcc's vectorizer stays out of
# the oracle (it adds nothing to the answer, and its SLP pass alone takes
# two thirds of an AArch64 reference build of a generated program).
ABIS: dict[str, Abi] = {
    a.name: a
    for a in (
        Abi(
            "x86_64",
            "gcc",
            ("-O2", "-fno-tree-vectorize"),
            candidate_libs=("-lmvec", "-lm"),
            prelude=("immintrin.h",),
        ),
        Abi(
            "aarch64",
            "aarch64-linux-gnu-gcc",
            ("-O2", "-fno-tree-vectorize", "-static"),
            runner=("qemu-aarch64",),
        ),
        Abi(
            "riscv64",
            "riscv64-linux-gnu-gcc",
            ("-O2", "-fno-tree-vectorize", "-static"),
            runner=("qemu-riscv64",),
        ),
    )
}


@dataclass(frozen=True)
class Variant:
    """One way of running s2svec on a kernel: its extra arguments and the
    targets whose branches the output holds, in #if order."""

    name: str
    args: tuple[str, ...]
    targets: tuple[str, ...]


ALL_TARGETS = ("avx512", "avx2", "sve", "neon", "rvv")
"""The targets of the ``all`` output, in the order of its ``#if`` chain."""
FIXED = "avx512,avx2,neon"
"""The fixed-width targets (vectors per trip do not apply to the others)."""

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        # Every target, the scalable ones too (not among the default ones
        # yet): one s2svec run serves every configuration of the matrix.
        Variant("all", ("--target", ",".join(ALL_TARGETS)), ALL_TARGETS),
        # The AVX2 code built by a compiler that may use AVX-512 (-march=native
        # on an AVX-512 machine): what a user of --target avx2 gets.
        Variant("avx2", ("--target", "avx2"), ("avx2",)),
        # Every loop with one vector per trip, and with two, cut into
        # registers (--interleave; the default is two for reductions only).
        Variant("x1", ("--interleave", "1", "--target", FIXED), ("avx512", "avx2", "neon")),
        Variant("x2", ("--interleave", "2", "--target", FIXED), ("avx512", "avx2", "neon")),
    )
}


def variant_of_targets(targets: Iterable[str]) -> str:
    """The output variant with only ``targets`` (any order; made on first
    use): the fuzz batch runs s2svec for the targets its configurations
    compile, most of a program's time being s2svec's."""
    wanted = set(targets)
    chosen = tuple(t for t in ALL_TARGETS if t in wanted)
    if chosen in (ALL_TARGETS, ()):
        return "all"
    name = "only-" + "-".join(chosen)
    VARIANTS.setdefault(name, Variant(name, ("--target", ",".join(chosen)), chosen))
    return name


@functools.cache
def target_conditions() -> dict[str, str]:
    """Target name -> the #if condition of its branch in s2svec's output."""
    from s2s.codegen.target import load_target

    return {
        t.parent.name: load_target(t.parent.name).condition
        for t in sorted(TEMPLATES.glob("*/target.toml"))
    }


V3_CPU = ("avx2", "fma", "bmi1", "bmi2", "f16c", "movbe")
V4_CPU = V3_CPU + ("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")


@dataclass(frozen=True)
class Config:
    """One compiler + flags + output variant a kernel's candidate is built with."""

    name: str
    cc: str
    flags: tuple[str, ...]
    """Optimization level and target flags (COMMON_FLAGS come on top)."""
    abi: str
    variant: str = "all"
    main: bool = False
    """Main configurations run on every kernel, the others on kernels with
    vector code (metadata vectorized != 0): see testsuite/README.md."""
    needs_cpu: tuple[str, ...] = ()
    """/proc/cpuinfo flags the host needs to run the binary natively."""
    cpus: tuple[tuple[str, str], ...] = ()
    """(what, qemu ``-cpu`` value) of each run of the one binary: the vector
    lengths of a scalable target (none: one run as the ABI runs programs)."""

    @property
    def runner(self) -> tuple[str, ...]:
        return ABIS[self.abi].runner

    def runs(self, key: str = "", full: bool | None = None) -> list[tuple[str, tuple[str, ...]]]:
        """(what, runner) of each run of the candidate binary: every vector
        length with ``full`` (default: S2S_MATRIX=full), else RUN_LENGTHS of
        them, rotated by ``key`` (the program's name) so that the programs
        share out every length."""
        if not self.cpus:
            return [("", self.runner)]
        if full is None:
            full = os.environ.get(FULL_MATRIX_ENV) == "full"
        cpus = list(self.cpus)
        if not full and len(cpus) > RUN_LENGTHS:
            start = int(hashlib.sha256(key.encode()).hexdigest(), 16) % len(cpus)
            cpus = [cpus[(start + j) % len(cpus)] for j in range(RUN_LENGTHS)]
        return [(f" at {what}", (*self.runner, "-cpu", cpu)) for what, cpu in cpus]

    @property
    def candidate_libs(self) -> tuple[str, ...]:
        return ABIS[self.abi].candidate_libs

    @property
    def target(self) -> str | None:
        """The target whose branch this build compiles (None: only the scalar #else)."""
        enabled = enabled_targets(self.cc, self.flags)
        return next((t for t in VARIANTS[self.variant].targets if t in enabled), None)

    @property
    def intrinsics(self) -> str:
        """Regex the s2svec output must match for this configuration's target."""
        return INTRINSICS[self.target] if self.target else r"(?!)"

    def describe(self) -> str:
        return shlex.join([self.cc, *self.flags])


X86_COMPILERS = (("gcc", "gcc"), ("clang19", "clang-19"), ("clang", "clang"))
# (suffix, flags, output variant, CPU flags needed)
X86_BUILDS = (
    ("avx2", ("-O2", "-mavx2", "-mfma"), "all", ("avx2", "fma")),
    ("v3", ("-O3", "-march=x86-64-v3"), "all", V3_CPU),
    ("native", ("-O2", "-march=native"), "all", ()),
    ("v4", ("-O3", "-march=x86-64-v4"), "all", V4_CPU),
    ("native-avx2only", ("-O2", "-march=native"), "avx2", ()),
    ("v4-avx2only", ("-O3", "-march=x86-64-v4"), "avx2", V4_CPU),
)
MAIN_CONFIGS = frozenset(
    {
        "gcc-avx2",
        "gcc-v4",
        "clang19-avx2",
        "clang19-v4",
        "clang-v4",
        "gcc-neon",
        "clang19-neon",
        "gcc-sve",
        "clang19-rvv",
    }
)
AARCH64 = "--target=aarch64-linux-gnu"
SVE_CPUS = tuple(
    (f"{b * 8}-bit vectors", f"max,sve-default-vector-length={b}") for b in (16, 32, 64, 128, 256)
)
"""Every SVE vector length the kernels run at, from one build: 128 to 2048 bits."""
RVV_CPUS = tuple(
    (f"VLEN {v}", f"rv64,v=true,vlen={v},vext_spec=v1.0") for v in (128, 256, 512, 1024)
)
"""Every RISC-V V vector length (VLEN) the kernels run at, from one build."""
RISCV64 = "--target=riscv64-linux-gnu"
RUN_LENGTHS = 2
"""Vector lengths a scalable configuration runs each program at (two
neighbours of its list, by the program's name; all with S2S_MATRIX=full)."""


def _all_configs() -> list[Config]:
    configs = [
        Config(
            f"{prefix}-{suffix}",
            cc,
            flags,
            "x86_64",
            variant,
            f"{prefix}-{suffix}" in MAIN_CONFIGS,
            needs,
        )
        for prefix, cc in X86_COMPILERS
        for suffix, flags, variant, needs in X86_BUILDS
    ]
    configs += [
        Config("gcc-neon", "aarch64-linux-gnu-gcc", ("-O2", "-static"), "aarch64", main=True),
        Config("gcc-neon-O3", "aarch64-linux-gnu-gcc", ("-O3", "-static"), "aarch64"),
        Config("clang19-neon", "clang-19", (AARCH64, "-O2", "-static"), "aarch64", main=True),
        Config("clang19-neon-O3", "clang-19", (AARCH64, "-O3", "-static"), "aarch64"),
        Config("clang-neon", "clang", (AARCH64, "-O2", "-static"), "aarch64"),
    ]
    sve = ("-march=armv8-a+sve", "-O2", "-static")
    configs += [
        Config(name, cc, (*target, *sve), "aarch64", "all", name in MAIN_CONFIGS, (), SVE_CPUS)
        for name, cc, target in (
            ("gcc-sve", "aarch64-linux-gnu-gcc", ()),
            ("clang19-sve", "clang-19", (AARCH64,)),
        )
    ]
    rvv = (RISCV64, "-march=rv64gcv", "-O2", "-static")
    configs.append(Config("clang19-rvv", "clang-19", rvv, "riscv64", "all", True, (), RVV_CPUS))
    return configs


CONFIGS: dict[str, Config] = {c.name: c for c in _all_configs()}


def config_named(name: str) -> Config:
    """A configuration by name; ``NAME+VARIANT`` builds output variant
    VARIANT with NAME's compiler and flags (``gcc-v4+x2``: the output
    with two vectors per trip under gcc -march=x86-64-v4).  KeyError: no such name."""
    base, _, variant = name.partition("+")
    cfg = CONFIGS[base]
    if not variant:
        return cfg
    if variant not in VARIANTS:
        raise KeyError(variant)
    return dataclasses.replace(cfg, name=name, variant=variant)


@functools.cache
def enabled_targets(cc: str, flags: tuple[str, ...]) -> frozenset[str]:
    """The targets whose #if condition holds for `cc flags` (asked once per
    process, by preprocessing the conditions with the compiler)."""
    if shutil.which(cc) is None:
        return frozenset()
    probe = "".join(
        f"#if {cond}\nS2S_TARGET {name}\n#endif\n" for name, cond in target_conditions().items()
    )
    proc = run_group(
        [cc, *flags, "-E", "-P", "-x", "c", "-"], COMPILE_TIMEOUT, input=probe, text=True
    )
    return frozenset(re.findall(r"^S2S_TARGET (\w+)", proc.stdout, re.M))


@functools.cache
def _cpu_flags() -> frozenset[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags"):
            return frozenset(line.split(":", 1)[1].split())
    return frozenset()


def skip_reason(config: Config) -> str | None:
    """Why this configuration cannot run here: a compiler scripts/setup.sh did
    not install, a missing CPU feature, or a build that compiles no vector
    branch (or the same one as another configuration) on this host."""
    for tool in (config.cc, ABIS[config.abi].cc, *config.runner):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (scripts/setup.sh installs it)"
    missing = [f for f in config.needs_cpu if f not in _cpu_flags()]
    if missing:
        return f"CPU lacks {' '.join(missing)}"
    if config.target is None:
        return f"{config.describe()} compiles no vector branch here"
    if config.variant == "avx2" and "avx512" not in enabled_targets(config.cc, config.flags):
        return (
            f"{config.describe()} compiles the avx2 branch of the default output "
            f"(no AVX-512 here): the same build"
        )
    return None


FULL_MATRIX_ENV = "S2S_MATRIX"
"""``S2S_MATRIX=full``: every kernel with vector code on every configuration."""
ROTATED = 1
"""Configurations beyond the main ones each kernel with vector code gets by default."""


def configs_for(meta: Meta, index: int = 0, full: bool | None = None) -> list[str]:
    """Configurations a kernel runs with: the main ones, and for a kernel with
    vector code (or that may have it: vectorized=?) ROTATED more, chosen by
    its `index` in the kernel list so that consecutive kernels cycle through
    the whole matrix (every configuration sees about len(kernels) * ROTATED /
    17 kernels); all of them with `full`, which defaults to S2S_MATRIX=full."""
    main = [n for n, c in CONFIGS.items() if c.main]
    if meta.vectorized == 0:
        return main
    if full is None:
        full = os.environ.get(FULL_MATRIX_ENV) == "full"
    if full:
        return list(CONFIGS)
    others = [n for n, c in CONFIGS.items() if not c.main and not skip_reason(c)]
    picked = (
        {others[(index * ROTATED + j) % len(others)] for j in range(ROTATED)} if others else set()
    )
    return main + [n for n in others if n in picked]


# --------------------------------------------------------------------------
# Kernels and their metadata


@dataclass(frozen=True)
class Meta:
    """What a kernel expects, from its ``s2s-test:`` comment."""

    vectorized: int | None
    regions: int | None
    tolerance: str = "exact"
    rel: float = 0.0
    ulp: int = 0
    args: tuple[str, ...] = ()
    cflags: tuple[str, ...] = ()
    gcc_cflags: tuple[str, ...] = ()
    candidate_cflags: tuple[str, ...] = ()
    grep: tuple[str, ...] = ()
    report: tuple[tuple[str, int], ...] = ()
    """(dotted.path, value) every vectorized report entry must have."""
    width: tuple[tuple[str, int], ...] = ()
    """(target, width) the report must show."""
    maxwidth: int | None = None
    scalar_in: tuple[str, ...] = ()
    scalable_vectorized: int | None = None
    """Regions vectorized for the scalable targets (SVE, RISC-V V) where
    fewer than ``vectorized`` (they do not do everything yet;
    testsuite/README.md)."""

    def vectorized_for(self, target: str | None) -> int | None:
        if target in SCALABLE and self.scalable_vectorized is not None:
            return self.scalable_vectorized
        return self.vectorized


_META_RE = re.compile(r"/\*\s*s2s-test:(.*?)\*/", re.S)


def parse_meta(text: str) -> Meta:
    """Parse the ``/* s2s-test: ... */`` comment; a kernel without one is an error."""
    m = _META_RE.search(text)
    if not m:
        raise ValueError("missing /* s2s-test: ... */ metadata comment")
    values: dict[str, str] = {}
    for word in shlex.split(m.group(1)):
        key, _, value = word.partition("=")
        values[key] = value
    vec = values.pop("vectorized", None)
    if vec is None:
        raise ValueError("metadata needs vectorized=N or vectorized=?")
    vectorized = None if vec == "?" else int(vec)
    regions = int(values.pop("regions")) if "regions" in values else vectorized
    tol = values.pop("tolerance", "exact")
    rel = float(values.pop("rel", "0"))
    ulp = 0
    if tol.startswith("ulp"):
        ulp = int(values.pop("ulp", "") or tol.partition("=")[2] or "0")
        tol = "ulp"
    if tol not in ("exact", "reduction-fp", "ulp"):
        raise ValueError(f"unknown tolerance {tol!r}")
    if tol == "reduction-fp" and rel <= 0:
        raise ValueError("tolerance=reduction-fp needs rel=X")
    if tol == "ulp" and ulp <= 0:
        raise ValueError("tolerance=ulp=N needs N > 0")
    meta = Meta(
        vectorized=vectorized,
        regions=regions,
        tolerance=tol,
        rel=rel,
        ulp=ulp,
        args=tuple(shlex.split(values.pop("args", ""))),
        cflags=tuple(shlex.split(values.pop("cflags", ""))),
        gcc_cflags=tuple(shlex.split(values.pop("gcc_cflags", ""))),
        candidate_cflags=tuple(shlex.split(values.pop("candidate_cflags", ""))),
        grep=tuple(g for g in [values.pop("grep", "")] if g),
        report=tuple(_pairs(values.pop("report", ""), "=")),
        width=tuple(_pairs(values.pop("width", ""), ":")),
        maxwidth=int(maxw) if (maxw := values.pop("maxwidth", "")) else None,
        scalar_in=tuple(values.pop("scalar_in", "").split()),
        scalable_vectorized=int(sv) if (sv := values.pop("scalable_vectorized", "")) else None,
    )
    if values:
        raise ValueError(f"unknown metadata keys {sorted(values)}")
    return meta


def _pairs(text: str, sep: str) -> list[tuple[str, int]]:
    """``a=1 b.c=2`` -> [("a", 1), ("b.c", 2)]."""
    out = []
    for item in text.split():
        key, _, value = item.partition(sep)
        out.append((key, int(value)))
    return out


def list_kernels() -> list[Path]:
    return sorted(KERNELS.glob("*.c"))


# --------------------------------------------------------------------------
# Build directory, hashing and locking


def _hash_files(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(str(p.relative_to(ROOT)).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


@functools.cache
def tool_hash() -> str:
    """Hash of everything that decides s2svec's output (computed once per process)."""
    files: list[Path] = []
    for sub in ("s2s", "templates"):
        base = ROOT / sub
        if base.is_dir():
            files += [p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return _hash_files(sorted(files))


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Exclusive lock on a build directory, shared by pytest-xdist workers."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _prune_stale(
    kernel: Path, keep: set[Path], build: Path = BUILD, max_age: float = 3600.0
) -> None:
    """Remove this kernel's build directories from older kernel/tool versions.

    Directories in `keep` (the current versions) stay; others go only when
    unused for an hour, so a concurrent run on an older version is not
    disturbed.
    """
    pattern = re.compile(re.escape(kernel.stem) + r"-(?:ref-)?[0-9a-f]{16}")
    now = time.time()
    for d in build.glob(f"{kernel.stem}-*"):
        try:
            if d not in keep and pattern.fullmatch(d.name) and now - d.stat().st_mtime > max_age:
                shutil.rmtree(d, ignore_errors=True)
        except OSError:
            pass


def s2svec_command() -> list[str]:
    """The s2svec entry point of the project's virtual environment."""
    exe = ROOT / ".venv" / "bin" / "s2svec"
    if exe.exists():
        return [str(exe)]
    py = ROOT / ".venv" / "bin" / "python"
    return [str(py) if py.exists() else sys.executable, "-m", "s2s"]


# --------------------------------------------------------------------------
# Running s2svec


@dataclass
class Transform:
    """The result of one s2svec run on a kernel."""

    kernel: Path
    directory: Path
    command: list[str]
    returncode: int
    stderr: str
    output: str | None
    report: list[dict] | None
    report_error: str = ""

    @property
    def output_path(self) -> Path:
        return self.directory / f"{self.kernel.stem}.s2s.c"


def kernel_text(path: Path) -> str:
    """A kernel's or output's text; a kernel may hold Latin-1 bytes (kept as
    surrogate escapes, so that the text written back is the same bytes)."""
    return path.read_text(errors="surrogateescape")


def own_headers(kernel: Path) -> bytes:
    """The headers next to a kernel that it includes (``#include "x.h"``; a
    generated program's own), for the hashes that key its builds."""
    names = re.findall(rb'^\s*#\s*include\s*"([^"/]+)"', kernel.read_bytes(), re.M)
    return b"".join(
        kernel.with_name(n.decode()).read_bytes()
        for n in sorted(set(names))
        if kernel.with_name(n.decode()).is_file()
    )


def transform(kernel: Path, variant: str = "all", build: Path = BUILD) -> Transform:
    """Run s2svec on a kernel once per output variant (cached on disk by content hash)."""
    text = kernel.read_bytes()
    var = VARIANTS[variant]
    meta = parse_meta(text.decode(errors="surrogateescape"))
    args = [*meta.args, *var.args]
    key = hashlib.sha256(
        text
        + own_headers(kernel)
        + HARNESS.read_bytes()
        + tool_hash().encode()
        + "\0".join(args).encode()
    ).hexdigest()[:16]
    directory = build / f"{kernel.stem}-{key}"
    out = directory / f"{kernel.stem}.s2s.c"
    rep = directory / "report.json"
    done = directory / "s2svec.json"
    with _locked(directory):
        if not done.exists():
            keep = {directory, _ref_directory(kernel, build)}
            keep |= {
                d
                for d in build.glob(f"{kernel.stem}-*")
                if d != directory and _same_kernel_current(d, kernel)
            }
            _prune_stale(kernel, keep, build)
            cmd = s2svec_command() + [
                str(kernel),
                "-o",
                str(out),
                "-I",
                str(TESTSUITE),
                "--report=json",
                "--report-file",
                str(rep),
                *args,
            ]
            try:
                proc = run_group(cmd, S2SVEC_TIMEOUT, cwd=ROOT, text=True)
                rc, err = proc.returncode, proc.stderr
            except subprocess.TimeoutExpired:
                rc, err = -1, f"s2svec timed out after {S2SVEC_TIMEOUT}s"
            done.write_text(
                json.dumps(
                    {"command": cmd, "returncode": rc, "stderr": err, "key": _kernel_key(kernel)}
                )
            )
    info = json.loads(done.read_text())
    report, report_error = None, ""
    if rep.exists():
        try:
            report = json.loads(rep.read_text())
        except ValueError as exc:
            report_error = f"report is not JSON: {exc}"
    else:
        report_error = "no report file written"
    return Transform(
        kernel,
        directory,
        info["command"],
        info["returncode"],
        info["stderr"],
        kernel_text(out) if out.exists() else None,
        report,
        report_error,
    )


def _kernel_key(kernel: Path) -> str:
    return hashlib.sha256(
        kernel.read_bytes() + own_headers(kernel) + HARNESS.read_bytes() + tool_hash().encode()
    ).hexdigest()[:16]


def _same_kernel_current(directory: Path, kernel: Path) -> bool:
    """A build directory of another variant of the same kernel and tool version."""
    try:
        return json.loads((directory / "s2svec.json").read_text()).get("key") == _kernel_key(kernel)
    except (OSError, ValueError):
        return False


def s2svec_failure(tr: Transform) -> Problem | None:
    """s2svec crashed, timed out, refused the input or wrote nothing."""
    if tr.returncode == 0 and tr.output is not None:
        return None
    what = (
        "timed out"
        if tr.returncode == -1 and "timed out" in tr.stderr
        else "crashed"
        if "Traceback" in tr.stderr or tr.returncode not in (0, 1, 2)
        else f"exited {tr.returncode}"
    )
    return Problem(
        "s2svec",
        f"s2svec {what} (output "
        f"{'missing' if tr.output is None else 'present'}): "
        f"{shlex.join(tr.command)}\n{_clip(tr.stderr)}",
    )


# --------------------------------------------------------------------------
# Compiling and running


def _ref_directory(kernel: Path, build: Path = BUILD) -> Path:
    abis = repr((sorted((a.name, a.cc, a.flags) for a in ABIS.values()), COMMON_FLAGS)).encode()
    key = hashlib.sha256(
        kernel.read_bytes() + own_headers(kernel) + HARNESS.read_bytes() + abis
    ).hexdigest()[:16]
    return build / f"{kernel.stem}-ref-{key}"


def compile_c(
    source: Path,
    binary: Path,
    cc: str,
    flags: tuple[str, ...],
    meta: Meta,
    libs: tuple[str, ...],
    prelude: tuple[str, ...] = (),
    extra: tuple[str, ...] = (),
) -> str:
    """Compile once; the binary and the compiler's messages are kept (a
    later call with the same path reuses them).  Returns the messages.

    Raises BuildFailure: ``compile-error``, ``ice`` (the compiler crashed or
    said so) or ``compile-timeout``.
    """
    messages = binary.with_name(binary.name + ".stderr")
    with _locked(binary.parent):
        if binary.exists():
            return messages.read_text(errors="surrogateescape") if messages.exists() else ""
        cmd = [
            cc,
            *COMMON_FLAGS,
            *flags,
            *kernel_cflags(cc, meta),
            *extra,
            "-I",
            str(TESTSUITE),
            *prelude,
            "-o",
            str(binary) + ".tmp",
            str(source),
            *libs,
        ]
        try:
            proc = run_group(cmd, COMPILE_TIMEOUT, text=True)
        except subprocess.TimeoutExpired:
            raise BuildFailure(
                "compile-timeout", f"compile timed out after {COMPILE_TIMEOUT}s: {shlex.join(cmd)}"
            ) from None
        if proc.returncode != 0:
            ice = proc.returncode < 0 or re.search(
                r"internal compiler error|PLEASE submit a bug report|"
                r"clang frontend command failed|unable to execute command",
                proc.stderr,
            )
            raise BuildFailure(
                "ice" if ice else "compile-error",
                f"{'compiler crash' if ice else 'compile failed'} ({proc.returncode}): "
                f"{shlex.join(cmd)}\n{_clip(proc.stderr)}",
            )
        messages.write_text(proc.stderr, errors="surrogateescape")
        os.replace(str(binary) + ".tmp", binary)
    return proc.stderr


def kernel_cflags(cc: str, meta: Meta, candidate: bool = False) -> list[str]:
    """The kernel's own cflags for `cc`, with its gcc-only ones for gcc and
    (``candidate``) its candidate-only ones (Debian's clang has no libomp:
    it gets gcc's runtime for -fopenmp)."""
    clang = "clang" in Path(cc).name
    flags = meta.cflags if clang else meta.cflags + meta.gcc_cflags
    flags += meta.candidate_cflags if candidate else ()
    return [("-fopenmp=libgomp" if f == "-fopenmp" and clang else f) for f in flags]


def candidate_flags(cc: str, meta: Meta, source: Path) -> tuple[str, ...]:
    """What a candidate build adds to the kernel's flags: its candidate-only
    ones, and the kernel's directory for its own headers (the candidate is
    s2svec's output, in the build directory)."""
    only = [f for f in kernel_cflags(cc, meta, candidate=True) if f not in kernel_cflags(cc, meta)]
    return (*only, "-iquote", str(source.parent))


def prelude_flags(source: Path, config: Config, meta: Meta) -> tuple[str, ...]:
    """``-include`` of a precompiled header for a candidate build: the harness
    and the ABI's intrinsics headers, built once per compiler and flags.

    Parsing immintrin.h is a third of an x86 candidate build (half with
    clang); the binary is the same.  Only for sources whose first directive
    includes the harness and whose directives before their own intrinsics
    headers cannot change how those read (no ``#pragma GCC``, no reserved
    macro names; see _prelude_safe).  No prelude for AArch64: there a
    precompiled arm_neon.h loads slower than it parses."""
    headers = ABIS[config.abi].prelude
    if not headers or not _prelude_safe(kernel_text(source), headers):
        return ()
    cmd = [
        config.cc,
        *COMMON_FLAGS,
        *config.flags,
        *kernel_cflags(config.cc, meta, candidate=True),
        "-I",
        str(TESTSUITE),
    ]
    text = '#include "harness.h"\n' + "".join(f"#include <{h}>\n" for h in headers)
    key = hashlib.sha256(
        "\0".join([*cmd, text, compiler_version(config.cc)]).encode() + HARNESS.read_bytes()
    ).hexdigest()[:16]
    directory = BUILD / "prelude" / key
    header = directory / "s2s_prelude.h"
    pch = directory / (
        "s2s_prelude.h.pch" if config.cc.startswith("clang") else "s2s_prelude.h.gch"
    )
    directory.mkdir(parents=True, exist_ok=True)
    with _locked(directory):
        if not pch.exists():
            header.write_text(text)
            proc = run_group(
                [*cmd, "-x", "c-header", str(header), "-o", str(pch) + ".tmp"],
                COMPILE_TIMEOUT,
                text=True,
            )
            if proc.returncode != 0:
                return ()  # the build then parses the headers itself
            os.replace(str(pch) + ".tmp", pch)
    return ("-include", str(header))


_SAFE_DIRECTIVE = re.compile(
    r"#\s*(?:include\b|if|ifdef|ifndef|elif|else|endif|"
    r"(?:define|undef)\s+[A-Za-z]|pragma\s+omp\b)"
)


def _prelude_safe(text: str, headers: tuple[str, ...]) -> bool:
    """The first directive includes the harness, and the directives up to
    the first of `headers` only include, test or name ordinary macros: the
    headers then read the same at the top of the file."""
    directives = [ln.strip() for ln in text.splitlines() if ln.lstrip().startswith("#")]
    if not directives or directives[0].split() != ["#include", '"harness.h"']:
        return False
    for d in directives:
        if any(re.fullmatch(rf"#\s*include\s*<{re.escape(h)}>", d) for h in headers):
            return True
        if not _SAFE_DIRECTIVE.match(d):
            return False
    return True


@functools.cache
def compiler_version(cc: str) -> str:
    proc = subprocess.run([cc, "--version"], capture_output=True, text=True)
    return proc.stdout


def run_group(cmd: list[str], timeout: float, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """``subprocess.run`` in a process group of its own, all of which is
    killed on a timeout: a compiler driver's ``cc1`` (or qemu's guest) left
    behind by killing the driver alone ran on for an hour after a clang-19
    hang, with 18 GB of memory."""
    given = kwargs.pop("input", None)
    stdin = subprocess.PIPE if given is not None else None
    with subprocess.Popen(
        cmd,
        start_new_session=True,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    ) as proc:
        try:
            out, err = proc.communicate(given, timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def run_binary(
    binary: Path, runner: tuple[str, ...] = (), timeout: float = RUN_TIMEOUT
) -> tuple[int, str]:
    """Exit status (-999: timed out) and standard output."""
    cmd = [*runner, str(binary)]
    try:
        proc = run_group(cmd, timeout, text=True)
    except subprocess.TimeoutExpired:
        return -999, f"timed out after {timeout:g}s"
    return proc.returncode, proc.stdout


def reference_output(
    kernel: Path, abi: str, meta: Meta, build: Path = BUILD, timeout: float = RUN_TIMEOUT
) -> tuple[int, str, str]:
    """Build and run the original program once per ABI (cached on disk):
    exit status, output and the compiler's messages."""
    a = ABIS[abi]
    directory = _ref_directory(kernel, build)
    binary = directory / f"ref-{abi}"
    result = directory / f"ref-{abi}.json"
    messages = compile_c(kernel, binary, a.cc, a.flags, meta, ("-lm",))
    with _locked(directory):
        if result.exists():
            info = json.loads(result.read_text())
            return info["returncode"], info["stdout"], messages
        rc, out = run_binary(binary, a.runner, timeout)
        if rc != -999:  # a timeout on a busy machine is not remembered
            result.write_text(json.dumps({"returncode": rc, "stdout": out}))
    return rc, out, messages


def _clip(text: str, limit: int = 3000) -> str:
    return text if len(text) <= limit else text[:limit] + "\n... (clipped)"


# --------------------------------------------------------------------------
# Comparing outputs


def _ulp_distance(a: int, b: int, bits: int) -> float:
    """Distance in units in the last place between two IEEE bit patterns."""
    fmt, ifmt = ("<d", "<Q") if bits == 64 else ("<f", "<I")
    fa = struct.unpack(fmt, struct.pack(ifmt, a))[0]
    fb = struct.unpack(fmt, struct.pack(ifmt, b))[0]
    if math.isnan(fa) or math.isnan(fb):
        return 0.0 if math.isnan(fa) and math.isnan(fb) else math.inf
    if a == b or fa == fb:
        return 0.0
    if math.isinf(fa) or math.isinf(fb):
        return math.inf

    def ordered(x: int) -> int:
        sign = 1 << (bits - 1)
        return -(x & ~sign) if x & sign else x

    return float(abs(ordered(a) - ordered(b)))


def _compare_ulp(ref: str, cand: str, meta: Meta) -> str | None:
    r, c = ref.split(), cand.split()
    if r[:4] != c[:4] or len(r) != len(c):
        return "shape differs"
    bits = 64 if r[2] == "f64" else 32
    worst, where = 0.0, -1
    for i, (x, y) in enumerate(zip(r[4:], c[4:])):
        d = _ulp_distance(int(x, 16), int(y, 16), bits)
        if d > worst:
            worst, where = d, i
    if worst > meta.ulp:
        return f"element {where}: {r[4 + where]} vs {c[4 + where]} ({worst:g} ulp > {meta.ulp})"
    return None


def _compare_rel(ref: str, cand: str, meta: Meta) -> str | None:
    r, c = ref.split(), cand.split()
    if r[:2] != c[:2] or len(r) != 3 or len(c) != 3:
        return "shape differs"
    a, b = float(r[2]), float(c[2])
    if a == b or (math.isnan(a) and math.isnan(b)):
        return None
    if math.isinf(a) or math.isinf(b) or math.isnan(a) or math.isnan(b):
        return f"{a!r} vs {b!r}"
    err = abs(a - b) / max(abs(a), abs(b))
    return None if err <= meta.rel else f"{a!r} vs {b!r} (relative error {err:.3g} > {meta.rel:g})"


def _first_difference(ref: str, cand: str) -> str:
    """`, element I: R vs C` for two array lines of one shape (X tag n=N h=H e0 e1 ...)."""
    r, c = ref.split(), cand.split()
    if (
        len(r) != len(c)
        or len(r) < 5
        or r[:3] != c[:3]
        or not r[2].startswith("n=")
        or not r[3].startswith("h=")
        or "..." in r
    ):
        return ""
    for i, (x, y) in enumerate(zip(r[4:], c[4:])):
        if x != y:
            return f", element {i}: {x} vs {y}"
    return ""


def compare_outputs(ref: str, cand: str, meta: Meta) -> list[str]:
    """Differences between two harness outputs under the kernel's tolerance."""
    rl, cl = ref.splitlines(), cand.splitlines()
    problems: list[str] = []
    size = "?"
    for i, (r, c) in enumerate(zip(rl, cl)):
        if r.startswith("X size "):
            size = r[7:]
        why: str | None = None
        if r == c:
            continue
        if meta.tolerance == "reduction-fp" and r.startswith("R "):
            why = _compare_rel(r, c, meta)
        elif meta.tolerance == "ulp" and r.startswith("U "):
            why = _compare_ulp(r, c, meta)
        else:
            why = "differs" + _first_difference(r, c)
        if why:
            problems.append(
                f"line {i + 1} (size n={size}): {why}\n  ref:  {_clip(r, 400)}\n"
                f"  cand: {_clip(c, 400)}"
            )
        if len(problems) >= 5:
            problems.append("... (further differences not shown)")
            return problems
    if len(rl) != len(cl):
        problems.append(
            f"reference printed {len(rl)} lines, candidate {len(cl)} "
            f"(last candidate line: {cl[-1] if cl else '<none>'!r})"
        )
    return problems


# --------------------------------------------------------------------------
# Checks on the s2svec output and report


def check_report(
    report: list[dict] | None, meta: Meta, target: str | None, report_error: str = ""
) -> list[str]:
    """The report lists the kernel's regions for `target` and enough of them are vectorized."""
    if meta.vectorized is None and meta.regions is None:
        return []
    if report is None:
        return [f"no JSON report: {report_error}"]
    if not isinstance(report, list):
        return ["JSON report is not a list"]
    entries = [e for e in report if isinstance(e, dict) and e.get("target") == target]
    problems: list[str] = []
    if meta.regions is not None and len(entries) != meta.regions:
        problems.append(
            f"report lists {len(entries)} regions for target {target}, expected {meta.regions}"
        )
    expected = meta.vectorized_for(target)
    if expected is not None:
        vec = [e for e in entries if e.get("vectorized") is True]
        if len(vec) != expected:
            reasons = "; ".join(
                f"line {e.get('line')}: {e.get('reason')}"
                for e in entries
                if e.get("vectorized") is not True
            )
            problems.append(
                f"{len(vec)} regions vectorized for {target}, expected "
                f"{expected}" + (f" (not vectorized: {reasons})" if reasons else "")
            )
        for e in vec:
            problems += _check_entry(e, meta, target)
    return problems


def _check_entry(e: dict, meta: Meta, target: str | None) -> list[str]:
    """Width and statistics of one vectorized report entry."""
    problems: list[str] = []
    where = f"line {e.get('line')} ({target})"
    width = e.get("width")
    if not isinstance(width, int) or width < 2:
        return [f"{where}: vectorized with width {width!r}"]
    want = dict(meta.width).get(target) if target is not None else None
    if want is not None and width != want:
        problems.append(f"{where}: width {width}, expected {want}")
    if meta.maxwidth is not None and width > meta.maxwidth:
        problems.append(f"{where}: width {width} exceeds {meta.maxwidth} (safelen)")
    for path, value in meta.report:
        got: object = e
        for part in path.split("."):
            got = got.get(part) if isinstance(got, dict) else None
        if got != value:
            problems.append(f"{where}: report {path} is {got!r}, expected {value}")
    return problems


def preprocessed_own_text(
    source: Path, config: Config, meta: Meta, extra: tuple[str, ...] = ()
) -> str:
    """The lines of `source` itself that survive preprocessing for `config`
    (``extra``: the candidate's own flags, see candidate_flags).

    Headers are dropped (they define every intrinsic name), so what remains
    is the code the compiler really builds: intrinsics hidden behind an
    ``#if`` that this configuration does not take do not count.
    """
    cmd = [
        config.cc,
        "-E",
        *COMMON_FLAGS,
        *config.flags,
        *meta.cflags,
        *extra,
        "-I",
        str(TESTSUITE),
        str(source),
    ]
    proc = run_group(cmd, COMPILE_TIMEOUT, text=True, errors="surrogateescape")
    if proc.returncode != 0:
        return ""
    own, keep = [], True
    for line in proc.stdout.splitlines():
        m = re.match(r'#\s*(?:line\s+)?\d+\s+"([^"]*)"', line)
        if m:
            keep = Path(m.group(1)).name == source.name
        elif keep:
            own.append(line)
    return "\n".join(own)


def check_output_text(
    source: str, output: str, meta: Meta, config: Config, active: str | None = None
) -> list[str]:
    """Intrinsics for the target are present (in the text and, given `active`,
    in what the configuration really compiles); kept lines are intact; grep
    patterns match."""
    problems: list[str] = []
    vectorized = meta.vectorized_for(config.target)
    if any(fnmatch.fnmatch(config.name, g) for g in meta.scalar_in):
        taken = re.search(rf"\b{BRANCH_MARK}(?!{SCALAR}\b)(\w+)", active or "")
        if taken:
            problems.append(
                f"{config.name} compiles the {taken.group(1)} branch, but the "
                "kernel says it takes no vector branch (scalar_in)"
            )
    elif vectorized and not re.search(config.intrinsics, output):
        problems.append(f"output has no {config.target} intrinsics (/{config.intrinsics}/)")
    elif vectorized and active is not None and not re.search(config.intrinsics, active):
        problems.append(
            f"the {config.target} intrinsics are not in the code that "
            f"{config.cc} {' '.join(config.flags)} compiles (wrong #if?)"
        )
    for pattern in meta.grep:
        if not re.search(pattern, output, re.M):
            problems.append(f"output does not match /{pattern}/")
    kept = [ln for ln in source.splitlines() if "s2s-keep" in ln]
    out_lines = output.splitlines()
    for ln in dict.fromkeys(kept):
        want, got = kept.count(ln), out_lines.count(ln)
        if want != got:
            problems.append(
                f"line {ln.strip()!r} occurs {got} times in the output, {want} in the input"
            )
    return problems


def active_text(tr: Transform, config: Config, meta: Meta) -> str:
    """preprocessed_own_text of s2svec's output, once per compiler and flags
    (the conditions of the #if chain may name any predefined macro)."""
    key = hashlib.sha256(shlex.join([config.cc, *config.flags]).encode()).hexdigest()[:12]
    cached = tr.directory / f"active-marked-{key}.c"
    with _locked(tr.directory):
        if not cached.exists():
            # clang's arm_neon.h makes some intrinsics macros: shield every
            # intrinsic name from expansion, then give the names back
            marked = tr.directory / f"marked-{key}.c"
            text = kernel_text(tr.output_path)
            text = re.sub(config.intrinsics, lambda m: MARK + m.group(0), text)
            marked.write_text(_mark_branches(text), errors="surrogateescape")
            extra = candidate_flags(config.cc, meta, tr.kernel)
            text = preprocessed_own_text(marked, config, meta, extra).replace(MARK, "")
            tmp = cached.with_suffix(".tmp")
            tmp.write_text(text, errors="surrogateescape")
            os.replace(tmp, cached)
    return kernel_text(cached)


MARK = "S2S_INTRINSIC_"
"""Prefixed to intrinsic names before preprocessing (active_text)."""

SCALAR = "scalar"
"""The original code's branch (s2s.codegen.branch_markers.SCALAR)."""
BRANCH_MARK = "S2S_BRANCH_"
"""What a branch marker comment becomes before preprocessing (active_text):
``S2S_BRANCH_avx2``, so the branches a build takes survive ``-E``."""


def _mark_branches(text: str) -> str:
    """``text`` with each ``/* s2svec branch: T code of ... */`` as a token."""
    return re.sub(r"/\* s2svec branch: (\w+) code of .*?\*/", BRANCH_MARK + r"\1", text)


# --------------------------------------------------------------------------
# Warnings about s2svec's code


@dataclass(frozen=True)
class CompilerWarning:
    """One ``file:line:col: warning: text [-Wflag]`` of a compiler."""

    file: str
    line: int
    text: str
    flag: str

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """The flag and the names the warning quotes (gcc's and clang's
        wordings and quote marks differ, these do not)."""
        return self.flag, tuple(re.findall(r"['\u2018]([^'\u2019]*)['\u2019]", self.text))


_WARNING_RE = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:\d+:)? warning: (?P<text>.*?)"
    r"(?: \[(?P<flag>-W[^\],]+)[^\]]*\])?$",
    re.M,
)
UNUSED_FLAGS = (
    "-Wunused-variable",
    "-Wunused-but-set-variable",
    "-Wunused-function",
    "-Wunused-label",
    "-Wunused-parameter",
    "-Wunused-value",
)
"""Warnings s2svec can cause at the user's lines (by not reading a name the
original reads); they do not depend on the optimization level."""


def parse_warnings(messages: str, source: Path) -> list[CompilerWarning]:
    """The compiler's warnings located in ``source`` (not in headers)."""
    return [
        CompilerWarning(m["file"], int(m["line"]), m["text"], m["flag"] or "")
        for m in _WARNING_RE.finditer(messages)
        if Path(m["file"]) == source
    ]


_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+\w+(?:\(([^)]*)\))?((?:.*\\\n)*.*)$", re.M)


def macro_body_lines(original: str) -> list[re.Pattern[str]]:
    """The lines of the original's macro bodies as s2svec writes a use's
    expansion out (macro_loops.py: the definition's lines, each _Pragma a
    #pragma line), a parameter matching any argument: that code is the
    user's, and compilers keep some warnings (-Wtype-limits) out of macro
    expansions only."""
    found = []
    for m in _DEFINE_RE.finditer(original):
        params = [p.strip() for p in (m.group(1) or "").split(",") if p.strip()]
        for line in m.group(2).split("\\\n"):
            line = re.sub(r'_Pragma\s*\(\s*"(.*)"\s*\)', r"#pragma \1", line.strip())
            if not line:
                continue
            pattern = re.escape(line)
            for p in params:
                pattern = re.sub(rf"\b{re.escape(p)}\b", r"\\S+", pattern)
            found.append(re.compile(pattern))
    return found


def own_warnings(
    original: str,
    output: str,
    output_path: Path,
    messages: str,
    reference: list[CompilerWarning] | None,
) -> list[str]:
    """The candidate's warnings about code s2svec wrote: in a line of the
    output that the original does not have, or (``reference``: the gcc
    reference's warnings, for a gcc build) an unused-name warning at one
    of the original's lines that the reference does not have."""
    user_lines = {ln.strip() for ln in original.splitlines()}
    expanded = macro_body_lines(original)
    out_lines = output.splitlines()
    known = {w.key for w in reference or []}
    found = []
    for w in parse_warnings(messages, output_path):
        text = out_lines[w.line - 1].strip() if 0 < w.line <= len(out_lines) else ""
        if any(line.fullmatch(text) for line in expanded):
            continue
        if text not in user_lines or (
            reference is not None and w.flag in UNUSED_FLAGS and w.key not in known
        ):
            found.append(f"line {w.line}: warning: {w.text} [{w.flag}]\n  {_clip(text, 200)}")
    return found


# --------------------------------------------------------------------------
# The whole check


def check_source(
    source: Path, config: Config, *, build: Path = BUILD, run_timeout: float = RUN_TIMEOUT
) -> list[Problem]:
    """Everything wrong with `source` under `config` (empty: it passes).

    A failure of the reference itself is a ``reference`` problem and stops
    there; so does an s2svec or build failure of the candidate.
    """
    text = kernel_text(source)
    meta = parse_meta(text)
    tr = transform(source, config.variant, build)
    failure = s2svec_failure(tr)
    if failure:
        return [failure]
    assert tr.output is not None
    problems = [
        Problem("report", p)
        for p in check_report(tr.report, meta, config.target or "?", tr.report_error)
    ]
    active = active_text(tr, config, meta) if meta.vectorized else None
    problems += [
        Problem("text", p) for p in check_output_text(text, tr.output, meta, config, active)
    ]
    try:
        ref_rc, ref_out, ref_messages = reference_output(
            source, config.abi, meta, build, run_timeout
        )
    except BuildFailure as exc:
        return [Problem("reference", f"the reference does not build: {exc}")]
    if ref_rc != 0:
        return [
            Problem(
                "reference", f"the reference itself exits {ref_rc} on {config.abi} (kernel bug)"
            )
        ]
    cand_bin = tr.directory / f"cand-{config.name}"
    try:
        messages = compile_c(
            tr.output_path,
            cand_bin,
            config.cc,
            config.flags,
            meta,
            config.candidate_libs,
            prelude_flags(tr.output_path, config, meta),
            candidate_flags(config.cc, meta, source),
        )
    except BuildFailure as exc:
        return problems + [Problem(exc.kind, str(exc))]
    same_compiler = Path(config.cc).name == Path(ABIS[config.abi].cc).name
    reference = parse_warnings(ref_messages, source) if same_compiler else None
    problems += [
        Problem("warning", f"{config.cc} warns about s2svec's code, {w}")
        for w in own_warnings(text, tr.output, tr.output_path, messages, reference)
    ]
    for at, runner in config.runs(source.stem):
        problems += _run_problems(cand_bin, runner, run_timeout, ref_out, meta, at)
    return problems


def _run_problems(
    binary: Path, runner: tuple[str, ...], timeout: float, ref_out: str, meta: Meta, at: str
) -> list[Problem]:
    """What is wrong with one run of the candidate (``at``: which run)."""
    cand_rc, cand_out = run_binary(binary, runner, timeout)
    if cand_rc == -999:
        return [Problem("timeout", f"candidate {cand_out}{at} (the reference finishes)")]
    problems = []
    if cand_rc != 0:
        problems.append(
            Problem(
                "crash",
                f"candidate exits {cand_rc}{at} (reference 0)"
                + (" — signal: crash, e.g. an access past the end" if cand_rc < 0 else ""),
            )
        )
    diffs = compare_outputs(ref_out, cand_out, meta)
    if diffs:
        problems.append(Problem("wrong-output", at.strip() + "\n" + "\n".join(diffs)))
    return problems


def format_problems(header: str, problems: list[Problem], tr: Transform | None) -> str:
    out = f"{header}: {len(problems)} problem(s)"
    if tr is not None:
        out += f"; output {tr.output_path}"
    out += "\n" + "\n".join(f"- [{p.kind}] {p.text}" for p in problems)
    if tr is not None and tr.stderr.strip() and not any(p.kind == "s2svec" for p in problems):
        out += f"\ns2svec stderr:\n{_clip(tr.stderr, 1500)}"
    return out


def check_kernel(kernel: Path, config: Config) -> None:
    """Raise DifferentialFailure describing everything wrong with `kernel` under `config`."""
    problems = check_source(kernel, config)
    if problems:
        tr = transform(kernel, config.variant)
        raise DifferentialFailure(
            format_problems(f"{kernel.name} [{config.name}: {config.describe()}]", problems, tr)
        )


def check_reference(kernel: Path, abi: str) -> str:
    """Build and run only the reference (to validate kernels before s2svec works)."""
    meta = parse_meta(kernel_text(kernel))
    rc, out, _ = reference_output(kernel, abi, meta)
    if rc != 0:
        raise DifferentialFailure(f"{kernel.name} [{abi}]: reference exits {rc}")
    return out


def list_configs() -> str:
    """The configuration matrix as this machine sees it (for --list-configs)."""
    lines = []
    for c in CONFIGS.values():
        skip = skip_reason(c)
        lines.append(
            f"{c.name:24} {'main' if c.main else 'full':4} {c.abi:7} "
            f"{c.variant:4} -> {c.target or '-':6} {c.describe()}"
            + (f"   [skipped: {skip}]" if skip else "")
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="kernel names or paths (default: all)")
    ap.add_argument("-c", "--config", action="append", choices=sorted(CONFIGS))
    ap.add_argument(
        "--reference-only",
        action="store_true",
        help="only build and run the original kernels (once per ABI)",
    )
    ap.add_argument("--list-configs", action="store_true", help="print the matrix and exit")
    ap.add_argument("--clean", action="store_true", help="remove testsuite/.build first")
    ns = ap.parse_args(argv)
    if ns.list_configs:
        print(list_configs())
        return 0
    if ns.clean:
        shutil.rmtree(BUILD, ignore_errors=True)
    kernels = [
        Path(k) if k.endswith(".c") else KERNELS / f"{k}.c" for k in ns.kernels
    ] or list_kernels()
    failed = 0
    for k in kernels:
        if ns.reference_only:
            for abi in ABIS:
                try:
                    check_reference(k, abi)
                    print(f"PASS {k.stem} [{abi}]")
                except DifferentialFailure as exc:
                    failed += 1
                    print(f"FAIL {exc}")
            continue
        meta = parse_meta(kernel_text(k))
        for name in ns.config or configs_for(meta, full=True):
            c = CONFIGS[name]
            if why := skip_reason(c):
                print(f"SKIP {k.stem} [{c.name}]: {why}")
                continue
            try:
                check_kernel(k, c)
                print(f"PASS {k.stem} [{c.name}]")
            except DifferentialFailure as exc:
                failed += 1
                print(f"FAIL {exc}")
    print(f"{failed} failure(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
