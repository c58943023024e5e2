"""Bench runner: time each kernel scalar, with gcc/clang -fopenmp-simd and as s2svec output.

For every kernel in bench/kernels/ it builds the variants of VARIANTS (scalar;
gcc 12 and clang 19 with -fopenmp-simd, each with and without -ffast-math;
s2svec's output built by both; the kernel's harness around a hand-written
intrinsics function, bench/hand/<target>/<kernel>.c, where there is one,
built by both), runs them N times interleaved round-robin (so
machine noise hits all of them alike), verifies each checksum against the
scalar build, and prints speed-ups of the medians.  ``--emulate TARGET``
instead checks s2svec's NEON, SVE or RISC-V V output for correctness under
qemu, the scalable ones at every vector length (no timing); with
``--count-instructions`` it counts the instructions each kernel's function
executes there instead, built scalar, by the compiler and by s2svec.
Exit status: 0 all results match, 1 a result mismatched or a variant failed to
build or run, 2 bad usage.

Each kernel program prints ``time_ns <int>``, ``cpu_ns <int>`` (the timed
kernel region only) and ``checksum <number>``; its header comment holds
``bench-rtol: <x>``, the relative tolerance of the checksum against the
scalar build (0: must be identical), and ``bench-class: divergent|control``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
KERNEL_DIR = BENCH_DIR / "kernels"
HAND_DIR = BENCH_DIR / "hand"
"""Hand-written intrinsics versions: HAND_DIR/<target>/<kernel>.c holds the
kernel's noinline function written by hand for that target; the runner
splices it into the kernel's own file (hand_program), so the harness is
the same one."""
RUN_TIMEOUT_S = 120
CLANG = "clang-19"
KERNEL_CLASSES = ("divergent", "control")


@dataclass(frozen=True)
class Variant:
    """One way of building a kernel."""

    name: str
    cc: str
    flags: tuple[str, ...]
    """Flags besides -O3 and the target's -march flags."""
    libs: tuple[str, ...]
    family: str
    """'scalar' (the baseline), 'compiler' (the kernel as written), 's2s' or
    'hand' (the hand-written intrinsics version, where the kernel has one)."""
    what: str


VARIANTS: tuple[Variant, ...] = (
    # No -fopenmp-simd: the pragma is ignored; -fno-tree-vectorize turns off
    # gcc's loop and SLP vectorizers, so this is plain scalar -O3 code.
    Variant(
        "scalar",
        "gcc",
        ("-fno-tree-vectorize", "-Wno-unknown-pragmas"),
        ("-lm",),
        "scalar",
        "gcc -fno-tree-vectorize (pragma ignored)",
    ),
    Variant("gcc", "gcc", ("-fopenmp-simd",), ("-lm",), "compiler", "gcc -fopenmp-simd"),
    Variant(
        "gcc-fast",
        "gcc",
        ("-fopenmp-simd", "-ffast-math"),
        ("-lmvec", "-lm"),
        "compiler",
        "gcc -fopenmp-simd -ffast-math (glibc's declare simd: libmvec)",
    ),
    Variant("clang", CLANG, ("-fopenmp-simd",), ("-lm",), "compiler", "clang-19 -fopenmp-simd"),
    Variant(
        "clang-fast",
        CLANG,
        ("-fopenmp-simd", "-ffast-math", "-fveclib=libmvec"),
        ("-lmvec", "-lm"),
        "compiler",
        "clang-19 -fopenmp-simd -ffast-math -fveclib=libmvec",
    ),
    # No -fopenmp-simd: if s2svec left a loop scalar, the compiler must not
    # quietly vectorize it in its place.
    Variant(
        "s2s-gcc", "gcc", ("-Wno-unknown-pragmas",), ("-lmvec", "-lm"), "s2s", "s2svec output, gcc"
    ),
    Variant(
        "s2s-clang",
        CLANG,
        ("-Wno-unknown-pragmas",),
        ("-lmvec", "-lm"),
        "s2s",
        "s2svec output, clang-19",
    ),
    # The kernel's harness around a hand-written intrinsics function
    # (bench/hand/<target>/<kernel>.c); only kernels that have one.
    Variant("hand", "gcc", (), ("-lmvec", "-lm"), "hand", "hand-written intrinsics, gcc"),
    Variant(
        "hand-clang", CLANG, (), ("-lmvec", "-lm"), "hand", "hand-written intrinsics, clang-19"
    ),
)


@dataclass(frozen=True)
class Target:
    """What --target means: s2svec's target list and every build's -march flags."""

    name: str
    """Also the directory of its hand-written versions under bench/hand/."""
    s2svec_targets: str
    march: tuple[str, ...]
    note: str


TARGETS = {
    "avx512": Target(
        "avx512",
        "avx512,avx2",
        ("-march=native",),
        "-march=native (AVX-512)",
    ),
    "avx2": Target(
        "avx2",
        "avx2",
        ("-march=native", "-mno-avx512f"),
        "-march=native -mno-avx512f (AVX2 only, for every build)",
    ),
}


def host_target() -> str:
    """'avx512' when the CPU has the AVX-512 subsets s2svec uses, else 'avx2'."""
    try:
        flags = re.search(r"^flags\s*:(.*)$", Path("/proc/cpuinfo").read_text(), re.M)
    except OSError:
        return "avx2"
    have = set(flags.group(1).split()) if flags else set()
    return "avx512" if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= have else "avx2"


@dataclass
class Kernel:
    """A kernel source and what the bench learned about it."""

    name: str
    source: Path
    rtol: float
    kind: str
    s2s_report: list[dict] = field(default_factory=list)
    s2s_error: str | None = None


@dataclass
class Result:
    """Runs of one (kernel, variant) binary."""

    binary: Path | None = None
    error: str | None = None
    times_ns: list[int] = field(default_factory=list)
    """Kernel times on the clock chosen with --clock (the table's numbers)."""
    other_ns: list[int] = field(default_factory=list)
    """The same runs on the other clock (kept for --json)."""
    checksums: list[float] = field(default_factory=list)
    mismatch: str | None = None

    @property
    def median_ns(self) -> float | None:
        return statistics.median(self.times_ns) if self.times_ns else None

    @property
    def usable(self) -> bool:
        """Has a speed: it ran, and its results were right."""
        return self.error is None and self.mismatch is None and bool(self.times_ns)


def _median(res: Result) -> float:
    """The median time of a usable result."""
    median = res.median_ns
    assert median is not None, "a result without times has no speed"
    return median


# ---------------------------------------------------------------- discovery


def find_kernels(names: Sequence[str] | None) -> list[Kernel]:
    """Kernels under bench/kernels/, optionally restricted to ``names``."""
    available = {p.stem: p for p in sorted(KERNEL_DIR.glob("*.c"))}
    wanted = list(names) if names else list(available)
    unknown = [n for n in wanted if n not in available]
    if unknown:
        raise SystemExit(
            f"run.py: error: unknown kernel(s) {', '.join(unknown)} (have {', '.join(available)})"
        )
    kernels = []
    for n in wanted:
        try:
            rtol, kind = parse_header(available[n].read_text())
        except ValueError as exc:
            raise SystemExit(f"run.py: error: {available[n]}: {exc}") from None
        kernels.append(Kernel(n, available[n], rtol, kind))
    return kernels


def parse_header(text: str) -> tuple[float, str]:
    """The ``bench-rtol:`` and ``bench-class:`` values of a kernel's header."""
    rtol = re.search(r"bench-rtol:\s*(\S+)", text)
    kind = re.search(r"bench-class:\s*(\w+)", text)
    if not rtol:
        raise ValueError("no 'bench-rtol: <x>' in the header (0 means exact)")
    try:
        value = float(rtol.group(1))
    except ValueError:
        raise ValueError(f"bench-rtol {rtol.group(1)!r} is not a number") from None
    if not 0.0 <= value < 1.0:
        raise ValueError(f"bench-rtol {value} is not in [0, 1)")
    if not kind or kind.group(1) not in KERNEL_CLASSES:
        raise ValueError(f"no 'bench-class: {'|'.join(KERNEL_CLASSES)}' in the header")
    return value, kind.group(1)


def hand_file(kernel: Kernel, target: Target) -> Path | None:
    """The kernel's hand-written version for ``target``, if there is one."""
    path = HAND_DIR / target.name / kernel.source.name
    return path if path.exists() else None


def function_span(text: str) -> tuple[int, int]:
    """Start and end offsets of the ``__attribute__((noinline))`` function
    definition in ``text``: from the attribute to the body's closing brace
    (the bench kernels hold no brace in a string or comment of that body)."""
    m = re.search(r"__attribute__\(\(noinline\)\)", text)
    if not m:
        raise ValueError("no __attribute__((noinline)) kernel function")
    depth = 0
    for i in range(text.index("{", m.end()), len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return m.start(), i + 1
    raise ValueError("the kernel function's braces do not balance")


def hand_program(kernel_source: Path, hand_source: Path) -> str:
    """The kernel's program with its noinline function replaced by the
    hand-written file's text (which defines the same function), and #line
    directives so that diagnostics name the right file and line."""
    kernel_text, hand_text = kernel_source.read_text(), hand_source.read_text()
    want, have = kernel_function(kernel_text), kernel_function(hand_text)
    if want != have:
        raise ValueError(f"{hand_source} defines {have}(), the kernel calls {want}()")
    start, end = function_span(kernel_text)
    after = kernel_text.count("\n", 0, end) + 1
    return (
        f'{kernel_text[:start]}\n#line 1 "{_in_repo(hand_source)}"\n{hand_text}\n'
        f'#line {after} "{_in_repo(kernel_source)}"\n{kernel_text[end:]}'
    )


def s2svec_command(explicit: str | None) -> list[str] | None:
    """How to call s2svec: --s2svec, the project venv, PATH, or python -m s2s."""
    if explicit:
        words = explicit.split()
        if Path(words[0]).exists():  # a relative path means relative to our cwd
            words[0] = str(Path(words[0]).absolute())  # not resolve(): a venv python is a link
        return words
    venv_tool = REPO_DIR / ".venv" / "bin" / "s2svec"
    if venv_tool.exists():
        return [str(venv_tool)]
    on_path = shutil.which("s2svec")
    if on_path:
        return [on_path]
    venv_python = REPO_DIR / ".venv" / "bin" / "python"
    if (REPO_DIR / "s2s" / "__main__.py").exists() and venv_python.exists():
        return [str(venv_python), "-m", "s2s"]
    return None


# ---------------------------------------------------------------- building


def _in_repo(path: Path) -> str:
    """``path`` relative to the repository (s2svec's cwd) when it is inside it."""
    try:
        return path.resolve().relative_to(REPO_DIR).as_posix()
    except ValueError:
        return str(path)


def run_s2svec(tool: list[str], kernel: Kernel, targets: str, out: Path) -> Path | None:
    """Vectorize one kernel into ``out``; return it, or record the error."""
    report = out.with_suffix(".report.json")
    for stale in (out, report):  # never time or trust a previous run's files
        stale.unlink(missing_ok=True)
    cmd = [
        *tool,
        _in_repo(kernel.source),  # the report names it so, not by this machine's path
        "-o",
        str(out),
        "--target",
        targets,
        "--report=json",
        "--report-file",
        str(report),
    ]
    # cwd: `python -m s2s` must find the package, and the kernel's path is
    # relative to it; every other path here is absolute
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO_DIR)
    if proc.returncode != 0 or not out.exists():
        kernel.s2s_error = f"s2svec exit {proc.returncode}: {proc.stderr.strip()[-400:]}"
        return None
    if proc.stderr.strip():
        print(proc.stderr.strip(), file=sys.stderr)
    try:
        kernel.s2s_report = json.loads(report.read_text())
    except (OSError, ValueError) as exc:  # the timing is still valid
        print(f"bench: {kernel.name}: unreadable s2svec report: {exc}", file=sys.stderr)
    return out


def compile_command(variant: Variant, target: Target, source: Path, binary: Path) -> list[str]:
    return [
        variant.cc,
        "-O3",
        *target.march,
        *variant.flags,
        str(source),
        "-o",
        str(binary),
        *variant.libs,
    ]


def compile_binary(cmd: list[str]) -> str | None:
    """Run one build command; return an error text or None."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return f"{' '.join(cmd)} failed:\n{proc.stderr.strip()[-800:]}"
    return None


def build_kernel(
    kernel: Kernel,
    variants: Sequence[Variant],
    tool: list[str] | None,
    target: Target,
    build: Path,
) -> dict[str, Result]:
    """Build every variant of one kernel (s2svec first when needed)."""
    simd_source: Path | None = None
    if any(v.family == "s2s" for v in variants):
        if tool is None:
            kernel.s2s_error = "s2svec not found (no .venv/bin/s2svec, not on PATH)"
        else:
            simd_source = run_s2svec(
                tool, kernel, target.s2svec_targets, build / f"{kernel.name}_simd.c"
            )
    hand = hand_file(kernel, target) if any(v.family == "hand" for v in variants) else None
    hand_source: Path | None = None
    hand_error: str | None = None
    if hand is not None:
        hand_source = build / f"{kernel.name}_hand.c"
        try:
            hand_source.write_text(hand_program(kernel.source, hand))
        except (OSError, ValueError) as exc:
            hand_error = f"{_in_repo(hand)}: {exc}"
    results: dict[str, Result] = {}
    for v in variants:
        if v.family == "hand" and hand is None:
            continue  # no hand-written version for this kernel and target: '-'
        source = {"s2s": simd_source, "hand": hand_source}.get(v.family, kernel.source)
        if hand_error and v.family == "hand":
            results[v.name] = Result(error=hand_error)
            continue
        if source is None:
            results[v.name] = Result(error=kernel.s2s_error or "no s2svec output")
            continue
        binary = build / f"{kernel.name}.{v.name}"
        error = compile_binary(compile_command(v, target, source, binary))
        results[v.name] = Result(binary=None if error else binary, error=error)
    return results


# ---------------------------------------------------------------- running


def parse_run_output(text: str) -> tuple[int, int, float]:
    """(wall ns, thread CPU ns, checksum) from a kernel program's output."""
    t = re.search(r"^time_ns (\d+)$", text, re.M)
    u = re.search(r"^cpu_ns (\d+)$", text, re.M)
    c = re.search(r"^checksum (\S+)$", text, re.M)
    if not t or not u or not c:
        raise ValueError(f"no time_ns/cpu_ns/checksum lines in:\n{text}")
    return int(t.group(1)), int(u.group(1)), float(c.group(1))


def run_binary(cmd: list[str]) -> tuple[int, int, float]:
    """Run one kernel program; return (wall ns, thread CPU ns, checksum)."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()}")
    try:
        return parse_run_output(proc.stdout)
    except ValueError as exc:
        raise RuntimeError(f"{cmd[-1]}: {exc}") from None


def run_round(
    kernels: list[Kernel],
    results: dict[str, dict[str, Result]],
    round_no: int,
    clock: str,
    kernel_args: list[str],
) -> None:
    """One run of every binary; the variant order rotates from round to round."""
    for kernel in kernels:
        names = [n for n, r in results[kernel.name].items() if r.binary and not r.error]
        shift = round_no % len(names) if names else 0
        for name in names[shift:] + names[:shift]:
            res = results[kernel.name][name]
            try:
                wall, cpu, c = run_binary([str(res.binary), *kernel_args])
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                res.error = str(exc)
                continue
            res.times_ns.append(cpu if clock == "cpu" else wall)
            res.other_ns.append(wall if clock == "cpu" else cpu)
            res.checksums.append(c)


def close_enough(a: float, b: float, rtol: float) -> bool:
    """Relative comparison; rtol 0 means identical checksums."""
    if rtol == 0.0:
        return a == b
    return abs(a - b) <= rtol * max(abs(a), abs(b), 1e-300)


def verify(kernel: Kernel, results: dict[str, Result]) -> None:
    """Compare each variant's checksums with the scalar build's first one."""
    ref = results.get("scalar")
    if ref is None or not ref.checksums:
        return
    expected = ref.checksums[0]
    rule = "exact" if kernel.rtol == 0.0 else f"rtol {kernel.rtol:g}"
    for res in results.values():
        bad = [c for c in res.checksums if not close_enough(c, expected, kernel.rtol)]
        if bad:
            res.mismatch = f"checksum {bad[0]!r} != scalar {expected!r} ({rule})"


IMPLAUSIBLE_SPEEDUP = 64.0
"""Above this over scalar (16 float lanes x a few ILP), a build has most
likely hoisted the kernel call out of the timing loop."""


def warn_implausible(kernel: Kernel, results: dict[str, Result]) -> list[str]:
    """Warn about (and return) variants whose speed-up cannot be vector code."""
    names = [n for n in results if (speedup(results, n) or 0.0) > IMPLAUSIBLE_SPEEDUP]
    for n in names:
        print(
            f"bench: {kernel.name} [{n}]: speed-up {speedup(results, n):.0f}x is not "
            f"plausible: was the kernel call hoisted out of the timing loop?",
            file=sys.stderr,
        )
    return names


# ---------------------------------------------------------------- ratios


def speedup(results: dict[str, Result], name: str) -> float | None:
    """Scalar median time / this variant's median time; None without a valid speed."""
    base, res = results.get("scalar"), results.get(name)
    if not base or not res or not base.usable or not res.usable:
        return None  # a wrong result has no speed
    return _median(base) / _median(res)


def fastest(results: dict[str, Result], family: str) -> str | None:
    """Name of the fastest usable variant of a family ('compiler' or 's2s')."""
    names = [n for n, r in results.items() if r.usable and family_of(n) == family]
    return min(names, key=lambda n: _median(results[n])) if names else None


def family_of(name: str) -> str:
    return next(v.family for v in VARIANTS if v.name == name)


def s2s_vs_best(results: dict[str, Result], family: str = "compiler") -> float | None:
    """Best median of ``family`` ('compiler', or 'hand': the hand-written
    builds) / best s2svec median: > 1 means s2svec is faster."""
    other, s2s = fastest(results, family), fastest(results, "s2s")
    if other is None or s2s is None:
        return None
    return _median(results[other]) / _median(results[s2s])


def s2s_vs_hand(results: dict[str, Result]) -> float | None:
    """Fastest hand-written build's median / fastest s2svec build's median
    (> 1: s2svec faster); None without a usable hand-written build."""
    return s2s_vs_best(results, "hand")


def geomean_or_none(values: list[float | None]) -> float | None:
    """Geometric mean, or None when any value is missing (no partial means)."""
    present = [v for v in values if v is not None]
    if not values or len(present) != len(values):
        return None
    return statistics.geometric_mean(present)


def spread(res: Result) -> float | None:
    """(max - min) / median of one variant's times: a noise indicator."""
    if len(res.times_ns) < 2 or not res.median_ns:
        return None
    return (max(res.times_ns) - min(res.times_ns)) / res.median_ns


# ---------------------------------------------------------------- reporting


def vec_summary(kernel: Kernel) -> str:
    """'avx512:8,avx2:4' (target:lanes) from s2svec's report, or why not."""
    if kernel.s2s_error:
        return "error"
    if not kernel.s2s_report:
        return "-"
    parts = []
    for entry in kernel.s2s_report:
        lanes = entry.get("width") if entry.get("vectorized") else "scalar"
        parts.append(f"{entry.get('target')}:{lanes}")
    return ",".join(parts)


def fmt(x: float | None, spec: str, suffix: str = "") -> str:
    return "-" if x is None else format(x, spec) + suffix


def cell(results: dict[str, Result], name: str) -> str:
    res = results.get(name)
    if res is None:  # a hand-written variant of a kernel without one
        return "-"
    if res.error:
        return "FAIL"
    if res.mismatch:
        return "MISMATCH"
    return fmt(speedup(results, name), ".2f", "x")


def print_table(
    kernels: list[Kernel], results: dict[str, dict[str, Result]], names: list[str]
) -> None:
    """Speed-ups over scalar, the best compiler build, s2s/best and (when a
    hand-written variant is chosen) s2s/hand per kernel."""
    vec = [n for n in names if n != "scalar"]
    hand = any(family_of(n) == "hand" for n in vec)
    print(
        "\nspeed-up over scalar (higher is better); best = fastest compiler build; "
        "s2s/best = its time / the faster s2svec build's time (> 1: s2svec faster)"
        + ("; s2s/hand = the faster hand-written build's time / the same" if hand else "")
    )
    print(
        f"{'kernel':<18}{'class':<10}"
        + "".join(f"{n:>11}" for n in vec)
        + f"{'best':>11}{'s2s/best':>9}"
        + (f"{'s2s/hand':>9}" if hand else "")
        + f"{'noise':>7}  s2svec lanes"
    )
    for k in kernels:
        row = results[k.name]
        noise = max((s for s in (spread(r) for r in row.values()) if s is not None), default=None)
        print(
            f"{k.name:<18}{k.kind:<10}"
            + "".join(f"{cell(row, n):>11}" for n in vec)
            + f"{fastest(row, 'compiler') or '-':>11}{fmt(s2s_vs_best(row), '.2f', 'x'):>9}"
            + (f"{fmt(s2s_vs_hand(row), '.2f', 'x'):>9}" if hand else "")
            + f"{fmt(noise and noise * 100, '.0f', '%'):>7}  {vec_summary(k)}"
        )
    for kind in KERNEL_CLASSES:
        group = [k for k in kernels if k.kind == kind]
        if group:
            cells = "".join(f"{fmt(class_geomean(group, results, n), '.2f', 'x'):>11}" for n in vec)
            g = geomean_or_none([s2s_vs_best(results[k.name]) for k in group])
            h = geomean_or_none([s2s_vs_hand(results[k.name]) for k in group])
            print(
                f"{'geomean':<18}{kind:<10}{cells}{'':>11}{fmt(g, '.2f', 'x'):>9}"
                + (f"{fmt(h, '.2f', 'x'):>9}" if hand else "")
            )


def class_geomean(
    group: list[Kernel], results: dict[str, dict[str, Result]], name: str
) -> float | None:
    return geomean_or_none([speedup(results[k.name], name) for k in group])


def print_problems(kernels: list[Kernel], results: dict[str, dict[str, Result]]) -> int:
    """Print every failure and mismatch; return how many there were."""
    count = 0
    for k in kernels:
        seen: set[str] = set()
        for name, res in results[k.name].items():
            for text in (res.error, res.mismatch):
                if text:
                    count += 1
                    if text not in seen:  # one s2svec failure breaks two variants
                        seen.add(text)
                        print(f"bench: {k.name} [{name}]: {text}", file=sys.stderr)
    return count


# ---------------------------------------------------------------- outputs


def tool_version(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    except OSError:
        return "unavailable"
    return out.splitlines()[0] if out else "unknown"


def machine_info() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "kernel": platform.release(),
        "gcc": tool_version(["gcc", "--version"]),
        "clang": tool_version([CLANG, "--version"]),
    }


def to_json(
    kernels: list[Kernel],
    results: dict[str, dict[str, Result]],
    args: argparse.Namespace,
    variants: list[Variant],
) -> dict:
    """Everything measured, for --json."""
    target: Target = args.target_info
    out: dict = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine_info(),
        "repeats": args.repeats,
        "clock": args.clock,
        "load_average": os.getloadavg(),
        "target": args.target,
        "s2svec_targets": target.s2svec_targets,
        "march": list(target.march),
        "variants": {
            v.name: " ".join([v.cc, "-O3", *target.march, *v.flags, *v.libs]) for v in variants
        },
        "kernels": {},
    }
    for k in kernels:
        row = results[k.name]
        out["kernels"][k.name] = {
            "class": k.kind,
            "rtol": k.rtol,
            "s2svec_error": k.s2s_error,
            "s2svec_report": k.s2s_report,
            "best_compiler": fastest(row, "compiler"),
            "s2s_vs_best": s2s_vs_best(row),
            "hand_source": _in_repo(hand) if (hand := hand_file(k, target)) else None,
            "best_hand": fastest(row, "hand"),
            "s2s_vs_hand": s2s_vs_hand(row),
            "variants": {
                n: {
                    "times_ns": r.times_ns,
                    "median_ns": r.median_ns,
                    "other_clock_ns": r.other_ns,
                    "checksum": r.checksums[0] if r.checksums else None,
                    "speedup": speedup(row, n),
                    "error": r.error,
                    "mismatch": r.mismatch,
                }
                for n, r in row.items()
            },
        }
    return out


PLOT_LABELS: dict[str, str] = {}
PLOT_COLORS = {
    "gcc": "#9ecae1",
    "gcc-fast": "#3182bd",
    "clang": "#a1d99b",
    "clang-fast": "#31a354",
    "s2s-gcc": "#e6550d",
    "s2s-clang": "#fd8d3c",
    "hand": "#756bb1",
    "hand-clang": "#bcbddc",
}


def write_plot(
    stem: Path,
    kernels: list[Kernel],
    results: dict[str, dict[str, Result]],
    names: list[str],
    title: str,
) -> list[Path]:
    """Grouped bars of speed-up over scalar, log scale, as stem.png and stem.svg."""
    import matplotlib

    matplotlib.use("Agg")  # no display; must precede pyplot
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter

    vec = [n for n in names if n != "scalar"]
    width = 0.8 / len(vec)
    fig, ax = plt.subplots(figsize=(max(8.0, 1.1 * len(kernels) + 2), 4.8))
    for j, n in enumerate(vec):
        xs = [i + (j - (len(vec) - 1) / 2) * width for i in range(len(kernels))]
        # a failed or wrong variant gets no bar (NaN), not a zero on a log axis
        ys = [speedup(results[k.name], n) or float("nan") for k in kernels]
        ax.bar(xs, ys, width, label=PLOT_LABELS.get(n, n), color=PLOT_COLORS.get(n))
    ax.set_yscale("log", base=2)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}x"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.axhline(1.0, color="gray", linestyle="--", linewidth=0.8)
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels([k.name for k in kernels], rotation=30, ha="right")
    ax.set_ylabel("speed-up over scalar (log scale)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, ncol=3)
    fig.tight_layout()
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for path in paths:
        fig.savefig(path)
    plt.close(fig)
    return paths


# ------------------------------------------------- emulated targets


@dataclass(frozen=True)
class Emulated:
    """A target the bench checks under qemu (correctness only): how the
    kernel (``ref``) and s2svec's output are built, and the runs of the one
    output binary (a scalable target's vector lengths)."""

    ref: tuple[str, ...]
    out: tuple[str, ...]
    runs: tuple[tuple[str, tuple[str, ...]], ...]


def _sve_run(b: int) -> tuple[str, tuple[str, ...]]:
    return f"{b * 8}-bit", ("qemu-aarch64", "-cpu", f"max,sve-default-vector-length={b}")


def _rvv_run(v: int) -> tuple[str, tuple[str, ...]]:
    return f"VLEN {v}", ("qemu-riscv64", "-cpu", f"rv64,v=true,vlen={v},vext_spec=v1.0")


AARCH64_GCC = ("aarch64-linux-gnu-gcc", "-O3", "-static")
EMULATED = {
    "neon": Emulated(AARCH64_GCC, AARCH64_GCC, (("", ("qemu-aarch64",)),)),
    "sve": Emulated(
        AARCH64_GCC,
        (*AARCH64_GCC, "-march=armv8-a+sve"),
        tuple(_sve_run(b) for b in (16, 32, 64, 128, 256)),
    ),
    "rvv": Emulated(
        ("riscv64-linux-gnu-gcc", "-O3", "-static"),
        (CLANG, "--target=riscv64-linux-gnu", "-march=rv64gcv", "-O3", "-static"),
        tuple(_rvv_run(v) for v in (128, 256, 512, 1024)),
    ),
}
"""--emulate TARGET: the builds and runs of each target checked under qemu."""


def check_emulated(name: str, kernels: list[Kernel], tool: list[str] | None, build: Path) -> int:
    """Build each kernel as written and as s2svec's output for target
    ``name``, run them under qemu (the output at each vector length) and
    compare checksums; correctness only."""
    em = EMULATED[name]
    missing = missing_tools(em, tool)
    if missing or tool is None:
        print(f"bench: --emulate {name} needs {missing}", file=sys.stderr)
        return 1
    print(f"\n{name} check ({' '.join(em.out)}, one repetition under qemu", end="")
    print(f" at {', '.join(w for w, _ in em.runs)})" if len(em.runs) > 1 else ")")
    print(f"{'kernel':<18}{'s2svec lanes':<16}result")
    failures = 0
    for k in kernels:
        status = emulated_status(name, k, tool, build)
        failures += status != "match"
        print(f"{k.name:<18}{vec_summary(k):<16}{status}")
    return 1 if failures else 0


def missing_tools(em: Emulated, tool: list[str] | None) -> str:
    """The cross compilers and qemus (or s2svec) missing for ``em``, or ''."""
    tools = {em.ref[0], em.out[0], *(run[0] for _, run in em.runs)}
    missing = sorted(t for t in tools if shutil.which(t) is None)
    return ", ".join(missing) or ("" if tool else "s2svec")


def emulated_status(name: str, kernel: Kernel, tool: list[str], build: Path) -> str:
    """'match', or what went wrong, for one kernel's build for target ``name``."""
    em = EMULATED[name]
    simd = run_s2svec(tool, kernel, name, build / f"{kernel.name}_{name}.c")
    if simd is None:
        return f"s2svec failed: {kernel.s2s_error}"
    binaries = []
    for tag, source, cc in (("ref", kernel.source, em.ref), ("s2s", simd, em.out)):
        binary = build / f"{kernel.name}.{name}-{tag}"
        error = compile_binary([*cc, "-Wno-unknown-pragmas", str(source), "-o", str(binary), "-lm"])
        if error:
            return f"build failed: {error}"
        binaries.append(binary)
    try:
        want = run_binary([_runner(em), str(binaries[0]), "1"])[2]
        for what, runner in em.runs:
            got = run_binary([*runner, str(binaries[1]), "1"])[2]
            if not close_enough(got, want, kernel.rtol):
                return f"MISMATCH{' at ' + what if what else ''} {got!r} != {want!r}"
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return f"run failed: {exc}"
    return "match"


def _runner(em: Emulated) -> str:
    """The qemu that runs the reference (no vector options)."""
    return em.runs[0][1][0]


# ------------------------------------- dynamic instruction counts under qemu


COUNT_TIMEOUT_S = 1800
"""A count logs every executed block: far slower than a plain run."""


@dataclass
class Counts:
    """Dynamic instruction counts of one kernel's timed function under qemu
    (one repetition), per build and vector length."""

    function: str
    scalar: int | None = None
    compiler: dict[str, int] = field(default_factory=dict)
    """Vector length -> count of the kernel as written, built with -fopenmp-simd."""
    s2s: dict[str, int] = field(default_factory=dict)
    """Vector length -> count of s2svec's output."""
    error: str | None = None

    def ratio(self, length: str) -> float | None:
        """Compiler's count / s2svec's: > 1 means s2svec's code runs fewer."""
        if self.error or length not in self.s2s or length not in self.compiler:
            return None
        return self.compiler[length] / self.s2s[length]


def kernel_function(text: str) -> str:
    """The name of a kernel's noinline function, the one its timed loop calls."""
    m = re.search(r"__attribute__\(\(noinline\)\)\s*[^(]*?(\w+)\s*\(", text)
    if not m:
        raise ValueError("no __attribute__((noinline)) kernel function")
    return m.group(1)


def count_in_log(lines: Iterable[str], function: str) -> int:
    """Guest instructions executed inside ``function``, from a qemu
    ``-d in_asm,exec,nochain`` log.

    in_asm lists the instructions of each block when it is translated, exec
    logs each execution of a block (nochain: every one) with the function
    symbol of its first address.  Counted: every instruction from a block of
    ``function`` (or a gcc clone such as ``function.constprop.0``) until
    execution reaches the address after the call, callees (libm, helpers)
    included; every call is counted.
    """
    blocks: dict[int, tuple[int, int]] = {}  # start -> (instructions, end address)
    traces: dict[str, tuple[int, bool]] = {}  # exec line -> (start, in function?)
    start, size, total, inside, back, last_end = -1, 0, 0, False, -1, -1
    for line in lines:
        if line.startswith("Trace"):  # Trace 0: 0xhost [base/pc/flags/cflags] symbol
            if line not in traces:  # a block's exec lines are all alike: parse once
                fields = line[line.index("[") + 1 : line.index("]")].split("/")
                symbol = line[line.index("]") + 1 :].strip()
                traces[line] = (int(fields[1], 16), symbol.split(".")[0] == function)
            pc, in_function = traces[line]
            if pc not in blocks:
                raise RuntimeError(f"qemu log: block {pc:#x} executed but never translated")
            if inside and pc == back:
                inside = False
            elif not inside and in_function:
                inside, back = True, last_end  # the block before ends with the call
            total += blocks[pc][0] if inside else 0
            last_end = blocks[pc][1]
        elif line.startswith("IN:"):
            start = -1
        elif line.startswith("0x"):  # 0x00400760:  aa0003e4  mov x4, x0
            address, code = line.split()[:2]
            pc = int(address.rstrip(":"), 16)
            start, size = (pc, 0) if start < 0 else (start, size)
            size += 1
            blocks[start] = (size, pc + len(code) // 2)
    return total


def count_run(runner: Sequence[str], binary: Path, function: str, reps: int) -> tuple[float, int]:
    """(checksum, instructions in ``function``) of one run under qemu; the
    log streams through a pipe (about 100 bytes per executed block)."""
    read_end, write_end = os.pipe()
    log = ["-d", "in_asm,exec,nochain", "-D", f"/proc/self/fd/{write_end}"]
    cmd = [runner[0], *log, *runner[1:], str(binary), str(reps)]
    with subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, pass_fds=(write_end,)
    ) as proc:
        os.close(write_end)
        watchdog = threading.Timer(COUNT_TIMEOUT_S, proc.kill)
        watchdog.start()
        try:
            with open(read_end, errors="replace") as lines:
                count = count_in_log(lines, function)
        except RuntimeError:
            proc.kill()
            raise
        finally:
            watchdog.cancel()
        out, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {err.strip()}")
    if count == 0:
        raise RuntimeError(f"{binary.name}: no instruction of {function} in qemu's log")
    try:
        return parse_run_output(out)[2], count
    except ValueError as exc:
        raise RuntimeError(f"{binary.name}: {exc}") from None


def count_builds(em: Emulated, kernel: Kernel, simd: Path, build: Path) -> dict[str, Path]:
    """The three builds a count compares: scalar (the reference compiler
    without its vectorizers), the kernel as written with -fopenmp-simd (the
    compiler's own vectorization), and s2svec's output."""
    builds = {
        "scalar": (kernel.source, (*em.ref, "-fno-tree-vectorize")),
        "compiler": (kernel.source, (*em.out, "-fopenmp-simd")),
        "s2s": (simd, em.out),
    }
    binaries = {}
    for tag, (source, cc) in builds.items():
        binary = build / f"{kernel.name}.count-{tag}"
        error = compile_binary([*cc, "-Wno-unknown-pragmas", str(source), "-o", str(binary), "-lm"])
        if error:
            raise RuntimeError(f"build failed: {error}")
        binaries[tag] = binary
    return binaries


def count_kernel(name: str, kernel: Kernel, tool: list[str], build: Path, reps: int = 1) -> Counts:
    """Instruction counts of one kernel for emulated target ``name``: the
    scalar build once, the compiler's and s2svec's build at every vector
    length; each run's checksum must match the scalar one."""
    em = EMULATED[name]
    counts = Counts(kernel_function(kernel.source.read_text()))
    simd = run_s2svec(tool, kernel, name, build / f"{kernel.name}_{name}.c")
    if simd is None:
        counts.error = f"s2svec failed: {kernel.s2s_error}"
        return counts
    try:
        binaries = count_builds(em, kernel, simd, build)
        want, counts.scalar = count_run([_runner(em)], binaries["scalar"], counts.function, reps)
        for what, runner in em.runs:
            for tag, table in (("compiler", counts.compiler), ("s2s", counts.s2s)):
                got, table[what or name] = count_run(runner, binaries[tag], counts.function, reps)
                if not close_enough(got, want, kernel.rtol):
                    counts.error = f"MISMATCH of {tag} at {what or name}: {got!r} != {want!r}"
                    return counts
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        counts.error = str(exc)
    return counts


def count_emulated(
    name: str, kernels: list[Kernel], tool: list[str] | None, build: Path, json_out: str | None
) -> int:
    """Print (and with ``json_out`` write) the instruction counts of every
    kernel for emulated target ``name``; 1 if one failed or mismatched."""
    em = EMULATED[name]
    missing = missing_tools(em, tool)
    if missing or tool is None:
        print(f"bench: --emulate {name} needs {missing}", file=sys.stderr)
        return 1
    lengths = [what or name for what, _ in em.runs]
    print(
        f"\n{name}: instructions executed in each kernel's function and its callees, "
        f"one repetition under qemu\nscalar: {' '.join(em.ref)} -fno-tree-vectorize; "
        f"compiler: {' '.join(em.out)} -fopenmp-simd; s2svec: its output, {' '.join(em.out)}"
    )
    print(
        f"{'kernel':<18}{'length':<10}{'scalar':>13}{'compiler':>13}{'s2svec':>13}  compiler/s2svec"
    )
    results = {}
    for k in kernels:
        start = time.monotonic()
        results[k.name] = count_kernel(name, k, tool, build)
        print_counts(k, results[k.name], lengths)
        print(f"bench: {k.name}: counted in {time.monotonic() - start:.0f} s", file=sys.stderr)
    print_ratio_table(kernels, results, lengths)
    if json_out:
        Path(json_out).write_text(json.dumps(counts_json(name, results), indent=1) + "\n")
    return 1 if any(c.error for c in results.values()) else 0


def print_counts(kernel: Kernel, counts: Counts, lengths: list[str]) -> None:
    """A kernel's counts and ratio, a line per vector length, or its error."""
    if counts.error:
        print(f"{kernel.name:<18}{counts.error}")
    for n in lengths if not counts.error else []:
        print(
            f"{kernel.name:<18}{n:<10}{fmt(counts.scalar, ',d'):>13}{counts.compiler[n]:>13,d}"
            f"{counts.s2s[n]:>13,d}  {fmt(counts.ratio(n), '.2f', 'x')}"
        )


def print_ratio_table(
    kernels: list[Kernel], results: dict[str, Counts], lengths: list[str]
) -> None:
    """Compiler's count / s2svec's per kernel and vector length, with geomeans."""
    print("\ncompiler/s2svec instructions (> 1: s2svec's code runs fewer)")
    print(f"{'kernel':<18}{'class':<10}" + "".join(f"{n:>11}" for n in lengths))
    for k in kernels:
        ratios = [fmt(results[k.name].ratio(n), ".2f", "x") for n in lengths]
        print(f"{k.name:<18}{k.kind:<10}" + "".join(f"{r:>11}" for r in ratios))
    for kind in KERNEL_CLASSES:
        group = [results[k.name] for k in kernels if k.kind == kind]
        if group:
            means = [geomean_or_none([c.ratio(n) for c in group]) for n in lengths]
            print(
                f"{'geomean':<18}{kind:<10}" + "".join(f"{fmt(g, '.2f', 'x'):>11}" for g in means)
            )


def counts_json(name: str, results: dict[str, Counts]) -> dict:
    """Every count of an --emulate --count-instructions run, for --json."""
    em = EMULATED[name]
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "target": name,
        "scalar": " ".join([*em.ref, "-fno-tree-vectorize"]),
        "compiler": " ".join([*em.out, "-fopenmp-simd"]),
        "s2svec": " ".join(em.out),
        "runs": {what or name: " ".join(run) for what, run in em.runs},
        "kernels": {n: dataclasses.asdict(c) for n, c in results.items()},
    }


# ---------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench/run.py",
        description="Time the bench kernels scalar, with gcc/clang -fopenmp-simd "
        "(with and without -ffast-math) and as s2svec output (gcc and clang); "
        "verify results; print speed-ups of the medians.",
    )
    p.add_argument("--kernels", help="comma list of kernels (default: all in bench/kernels)")
    p.add_argument(
        "--variants",
        default=",".join(v.name for v in VARIANTS),
        help="comma list of variants (default: %(default)s)",
    )
    p.add_argument(
        "--repeats",
        type=int,
        default=7,
        help="runs per variant, interleaved round-robin (default: %(default)s)",
    )
    p.add_argument(
        "--kernel-reps",
        type=int,
        metavar="N",
        help="repetitions inside each kernel program (default: the kernel's "
        "own; small values make quick correctness runs)",
    )
    p.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="wall: CLOCK_MONOTONIC; cpu: the kernel thread's CPU time, steadier "
        "on a loaded machine (default: %(default)s)",
    )
    p.add_argument(
        "--target",
        choices=["host", *TARGETS],
        default="host",
        help="avx512: -march=native, s2svec --target avx512,avx2; avx2: every "
        "build with -mno-avx512f, s2svec --target avx2; host: avx512 where "
        "the CPU has it (default: %(default)s)",
    )
    p.add_argument(
        "--emulate",
        choices=sorted(EMULATED),
        help="instead of timing: check s2svec's output for this target under "
        "qemu (sve and rvv at every vector length), correctness only",
    )
    p.add_argument(
        "--count-instructions",
        action="store_true",
        help="with --emulate: count the dynamic instructions of each kernel's "
        "function (scalar, the compiler's -fopenmp-simd build, s2svec's output) "
        "at every vector length, instead of the correctness check",
    )
    p.add_argument(
        "--s2svec",
        help="command that runs s2svec (default: .venv/bin/s2svec, "
        "then PATH, then .venv/bin/python -m s2s)",
    )
    p.add_argument(
        "--build-dir",
        default=str(BENCH_DIR / "build"),
        help="where generated sources and binaries go (default: bench/build)",
    )
    p.add_argument("--json", metavar="OUT", help="write all measurements as JSON")
    p.add_argument(
        "--plot",
        metavar="STEM",
        help="write a bar chart of speed-ups as STEM.png and STEM.svg (matplotlib)",
    )
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    if args.count_instructions and not args.emulate:
        p.error("--count-instructions needs --emulate")
    if args.kernel_reps is not None and args.kernel_reps < 1:
        p.error("--kernel-reps must be at least 1")
    known = {v.name for v in VARIANTS}
    chosen = [n.strip() for n in args.variants.split(",") if n.strip()]
    if "scalar" not in chosen or any(n not in known for n in chosen):
        p.error(f"--variants must include 'scalar' and only name {', '.join(sorted(known))}")
    args.variant_list = [v for v in VARIANTS if v.name in chosen]
    if args.target == "host":
        args.target = host_target()
    args.target_info = TARGETS[args.target]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    kernels = find_kernels(args.kernels.split(",") if args.kernels else None)
    build = Path(args.build_dir).resolve()
    build.mkdir(parents=True, exist_ok=True)
    tool = s2svec_command(args.s2svec)
    if args.count_instructions:
        return count_emulated(args.emulate, kernels, tool, build, args.json)
    if args.emulate:
        return check_emulated(args.emulate, kernels, tool, build)
    return run_bench(args, kernels, tool, build)


def run_bench(
    args: argparse.Namespace, kernels: list[Kernel], tool: list[str] | None, build: Path
) -> int:
    variants: list[Variant] = args.variant_list
    target: Target = args.target_info
    start = time.monotonic()
    results = {}
    for k in kernels:
        print(f"building {k.name} ...", file=sys.stderr)
        results[k.name] = build_kernel(k, variants, tool, target, build)
    kernel_args = [str(args.kernel_reps)] if args.kernel_reps else []
    for r in range(args.repeats):
        print(f"round {r + 1}/{args.repeats}", file=sys.stderr)
        run_round(kernels, results, r, args.clock, kernel_args)
    for k in kernels:
        verify(k, results[k.name])
        warn_implausible(k, results[k.name])
    names = [v.name for v in variants]
    print_table(kernels, results, names)
    print(
        f"\ntarget {args.target}: {target.note}; every build -O3; scalar = "
        f"{VARIANTS[0].what}\n{args.repeats} runs per variant, {args.clock} clock, "
        f"{time.monotonic() - start:.0f} s total, load average {os.getloadavg()[0]:.1f}"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps(to_json(kernels, results, args, variants), indent=1) + "\n"
        )
    if args.plot:
        title = (
            f"speed-up over scalar gcc -O3, medians of {args.repeats} runs "
            f"({args.clock} clock), target {args.target}"
        )
        write_plot(Path(args.plot), kernels, results, names, title)
    return 1 if print_problems(kernels, results) else 0


if __name__ == "__main__":
    sys.exit(main())
