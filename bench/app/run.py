"""Application benchmark: build xsproxy plainly and through s2svec-cc, time it, check it.

xsproxy (this folder) is a small cross-section lookup proxy application with
its own Makefile.  For each target (``avx512``: ``-march=native`` on a host
with AVX-512; ``avx2``: ``-march=x86-64-v3``) the runner builds it with
``make`` in a folder of its own per build (BUILDS: a scalar reference, gcc 12
and clang-19 with and without ``-ffast-math``, and the same four through
``s2svec-cc``), runs every binary with 1 and 2 OpenMP threads, interleaved
round-robin with the order rotated every round, checks every run's hash
(exactly) and checksum (relative tolerance CHECKSUM_RTOL) against the scalar
build's, and prints, per target and thread count, each build's median time as
a ratio to the best plain compiler build's (> 1: faster than it).

Exit status: 0 every build built, ran and matched; 1 a build failed or a
result mismatched (the table is still printed, with FAIL/MISMATCH cells);
2 bad usage.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

APP_DIR = Path(__file__).resolve().parent
BENCH_DIR = APP_DIR.parent
REPO_DIR = BENCH_DIR.parent
CLANG = "clang-19"
RUN_TIMEOUT_S = 300
SIZES = ("small", "default", "large")
HOT_FILE = "lookup.c"
"""The file that holds the annotated loop: its s2svec remarks and its object's
vector instructions are recorded."""

GOAL = 1.2
"""Issue 19's goal for the faster s2svec-cc build against the best plain
compiler build (the seed's XSBench: +21.6% AVX-512, +27.8% AVX2); bold in
the table, a line in the plot."""

CHECKSUM_RTOL = 1e-9
"""The checksum is a sum of positive double terms (one per lookup).  Builds
differ in the order of that sum (threads, vector lanes, -ffast-math) and in
the rounding of each term (FMA contraction of the interpolation): summing n
positive terms in any order is within n * 2^-53 of the exact sum relatively
(1.7e-10 for the large size's 1.5 million lookups), each term's own error is
a few ulps.  The hash must match exactly."""


def _load_bench_run():
    """bench/run.py, for its conventions (machine info, tolerance check)."""
    spec = importlib.util.spec_from_file_location("bench_run_for_app", BENCH_DIR / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run_for_app"] = module
    spec.loader.exec_module(module)
    return module


bench_run = _load_bench_run()


@dataclass(frozen=True)
class Build:
    """One way of building the application."""

    name: str
    cc: str
    flags: tuple[str, ...]
    """CFLAGS besides -O3 and the target's -march flag."""
    libs: tuple[str, ...]
    """LDLIBS."""
    family: str
    """'scalar' (the reference), 'compiler' (plain) or 's2s' (through s2svec-cc)."""

    @property
    def s2s(self) -> bool:
        return self.family == "s2s"


FAST = ("-ffast-math",)
BUILDS: tuple[Build, ...] = (
    # -fno-tree-vectorize: gcc's vectorizers off.  -fopenmp stays (the
    # Makefile's OMPFLAGS), so the threads run; gcc cannot vectorize this
    # simd loop anyway (its inner loops), so this is scalar code.
    Build("scalar", "gcc", ("-fno-tree-vectorize",), ("-lm",), "scalar"),
    Build("gcc", "gcc", (), ("-lm",), "compiler"),
    Build("gcc-fast", "gcc", FAST, ("-lmvec", "-lm"), "compiler"),
    Build("clang", CLANG, (), ("-lm",), "compiler"),
    Build("clang-fast", CLANG, (*FAST, "-fveclib=libmvec"), ("-lmvec", "-lm"), "compiler"),
    # s2svec-cc adds -lmvec -lm at the link itself.
    Build("s2s-gcc", "gcc", (), ("-lm",), "s2s"),
    Build("s2s-gcc-fast", "gcc", FAST, ("-lm",), "s2s"),
    Build("s2s-clang", CLANG, (), ("-lm",), "s2s"),
    Build("s2s-clang-fast", CLANG, (*FAST, "-fveclib=libmvec"), ("-lm",), "s2s"),
)
BUILD_NAMES = tuple(b.name for b in BUILDS)

TARGETS: dict[str, tuple[str, ...]] = {
    "avx512": ("-march=native",),  # only on a host with AVX-512 F/BW/VL/DQ
    "avx2": ("-march=x86-64-v3",),
}
TARGET_NOTES = {
    "avx512": "-march=native (AVX-512)",
    "avx2": "-march=x86-64-v3 (AVX2 + FMA)",
}


@dataclass
class Result:
    """The runs of one build at one thread count."""

    binary: Path | None = None
    error: str | None = None
    times_ns: list[int] = field(default_factory=list)
    other_ns: list[int] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    checksums: list[float] = field(default_factory=list)
    mismatch: str | None = None
    problem: str = ""

    @property
    def median_ns(self) -> float | None:
        return statistics.median(self.times_ns) if self.times_ns else None

    @property
    def usable(self) -> bool:
        return self.error is None and self.mismatch is None and bool(self.times_ns)


def _median(res: Result) -> float:
    """The median time of a usable result."""
    median = res.median_ns
    assert median is not None, "a result without times has no speed"
    return median


@dataclass
class BuildInfo:
    """What building one (target, build) produced."""

    folder: Path
    command: list[str]
    binary: Path | None = None
    error: str | None = None
    s2svec_lines: list[str] = field(default_factory=list)
    vector_insns: dict[str, int] = field(default_factory=dict)


Table = dict[str, Result]
"""build name -> Result, for one (target, threads)."""


# ---------------------------------------------------------------- building


def s2svec_cc_command(explicit: str | None) -> str | None:
    """The s2svec-cc to build with: --s2svec-cc, this checkout's .venv, PATH."""
    if explicit:
        words = explicit.split()
        if Path(words[0]).exists():
            words[0] = str(Path(words[0]).absolute())  # not resolve(): a venv python is a link
        return " ".join(words)
    venv_tool = REPO_DIR / ".venv" / "bin" / "s2svec-cc"
    if venv_tool.exists():
        return str(venv_tool)
    return shutil.which("s2svec-cc")


def _shown(word: str) -> str:
    """A command word as the results record it: paths inside the repository
    relative to it, so the JSON names no machine's folders."""
    return word.replace(f"{REPO_DIR}/", "")


def make_command(build: Build, march: Sequence[str], wrapper: str | None) -> list[str]:
    """``make CC=... CFLAGS=... LDLIBS=...`` for one build (run in its folder)."""
    cc = f"{wrapper} {build.cc}" if build.s2s else build.cc
    cflags = " ".join(["-O3", *march, *build.flags])
    return ["make", "-B", f"CC={cc}", f"CFLAGS={cflags}", f"LDLIBS={' '.join(build.libs)}"]


REMARK = re.compile(
    r"^(?:.*/)?" + re.escape(HOT_FILE) + r":\d+:\d+: (?:remark|warning|note): .*$"
    r"|^s2svec-cc: warning: .*$",
    re.M,
)


def s2svec_lines(log: str) -> list[str]:
    """s2svec's remarks, notes (how each call went, BOSCC) and warnings about
    the hot file, and the wrapper's warnings (the compiler's own warnings
    name their flag: ``[-Wpass-failed=...]``)."""
    return [m.group(0) for m in REMARK.finditer(log) if "[-W" not in m.group(0)]


def s2svec_summary(lines: list[str]) -> str:
    """'avx512:8,avx2:4' from the remarks, 'scalar' for a loop left scalar,
    'fallback' when the wrapper compiled the original file, '-' otherwise."""
    parts = []
    for line in lines:
        m = re.search(r"loop vectorized for (\w+) with (\d+) lanes", line)
        if m:
            parts.append(f"{m.group(1)}:{m.group(2)}")
        elif "loop not vectorized" in line:
            parts.append("scalar")
        elif line.startswith("s2svec-cc: warning:") and "original file" in line:
            parts.append("fallback")
    return ",".join(dict.fromkeys(parts)) or "-"


def count_vector_insns(obj: Path) -> dict[str, int]:
    """Instructions of an object file that name %zmm / %ymm registers: a check,
    independent of s2svec's report, of which code the build compiled."""
    try:
        proc = subprocess.run(
            ["objdump", "-d", "--no-show-raw-insn", str(obj)], capture_output=True, text=True
        )
    except OSError:
        return {}
    if proc.returncode != 0:
        return {}
    lines = proc.stdout.splitlines()
    return {reg: sum(1 for line in lines if f"%{reg}" in line) for reg in ("zmm", "ymm")}


def build_one(
    app: Path,
    folder: Path,
    build: Build,
    march: Sequence[str],
    wrapper: str | None,
    s2svec_flags: str = "",
) -> BuildInfo:
    """Copy the application into ``folder`` and build it there with make."""
    cmd = make_command(build, march, wrapper)
    info = BuildInfo(folder=folder, command=cmd)
    if build.s2s and wrapper is None:
        info.error = "s2svec-cc not found (no .venv/bin/s2svec-cc, not on PATH)"
        return info
    if folder.exists():
        shutil.rmtree(folder)  # never time a previous run's binary
    shutil.copytree(
        app,
        folder,
        ignore=shutil.ignore_patterns(
            "*.o", "xsproxy", "*.py", "*.sh", "__pycache__", "*.md", "diag"
        ),
    )
    env = dict(os.environ)
    if build.s2s:
        env["S2SVEC_FLAGS"] = " ".join(["--report", s2svec_flags]).strip()
    proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, env=env)
    log = proc.stdout + proc.stderr
    (folder / "build.log").write_text(" ".join(cmd) + "\n" + log)
    binary = folder / "xsproxy"
    if proc.returncode != 0 or not binary.exists():
        info.error = f"{' '.join(cmd)} failed (exit {proc.returncode}):\n{log.strip()[-800:]}"
        return info
    info.binary = binary
    info.s2svec_lines = s2svec_lines(log) if build.s2s else []
    hot = folder / HOT_FILE.replace(".c", ".o")
    if hot.exists():
        info.vector_insns = count_vector_insns(hot)
    return info


# ---------------------------------------------------------------- running


@dataclass(frozen=True)
class Run:
    """What one run of xsproxy printed."""

    wall_ns: int
    cpu_ns: int
    hash: str
    checksum: float
    problem: str
    """Its first line: sizes, threads, table size, nuclides per lookup."""


def parse_output(text: str) -> Run:
    """The numbers of xsproxy's output."""
    p = re.search(r"^xsproxy .*$", text, re.M)
    t = re.search(r"^time_ns (\d+)$", text, re.M)
    u = re.search(r"^cpu_ns (\d+)$", text, re.M)
    h = re.search(r"^hash ([0-9a-f]{16})$", text, re.M)
    c = re.search(r"^checksum (\S+)$", text, re.M)
    if not p or not t or not u or not h or not c:
        raise ValueError(f"no xsproxy/time_ns/cpu_ns/hash/checksum lines in:\n{text}")
    return Run(int(t.group(1)), int(u.group(1)), h.group(1), float(c.group(1)), p.group(0))


def run_binary(binary: Path, args: list[str], threads: int, clock: str) -> Run:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    if clock == "cpu":
        # Waiting threads sleep instead of spinning, so the process CPU time
        # is the lookups' work (both runtimes spin by default: libomp 200 ms).
        env["OMP_WAIT_POLICY"] = "passive"
    proc = subprocess.run(
        [str(binary), *args], capture_output=True, text=True, env=env, timeout=RUN_TIMEOUT_S
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"{binary} {' '.join(args)} (OMP_NUM_THREADS={threads}) exited "
            f"{proc.returncode}: {proc.stderr.strip()[-400:]}"
        )
    try:
        return parse_output(proc.stdout)
    except ValueError as exc:
        raise RuntimeError(f"{binary}: {exc}") from None


def run_round(
    tables: dict[tuple[str, int], Table], round_no: int, clock: str, app_args: list[str]
) -> None:
    """One run of every binary at every thread count, the order rotated."""
    for (_, threads), table in tables.items():
        names = [n for n, r in table.items() if r.binary and not r.error]
        shift = round_no % len(names) if names else 0
        for name in names[shift:] + names[:shift]:
            res = table[name]
            assert res.binary is not None  # names holds the builds that have one
            try:
                run = run_binary(res.binary, app_args, threads, clock)
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                res.error = str(exc)
                continue
            res.times_ns.append(run.cpu_ns if clock == "cpu" else run.wall_ns)
            res.other_ns.append(run.wall_ns if clock == "cpu" else run.cpu_ns)
            res.hashes.append(run.hash)
            res.checksums.append(run.checksum)
            res.problem = run.problem


# ---------------------------------------------------------------- checking


def reference(tables: dict[tuple[str, int], Table]) -> tuple[str, float, str] | None:
    """(hash, checksum, where) of the first scalar run: every run must match it."""
    for (target, threads), table in tables.items():
        res = table.get("scalar")
        if res and res.hashes:
            return res.hashes[0], res.checksums[0], f"scalar {target} {threads}T"
    return None


def verify(tables: dict[tuple[str, int], Table], rtol: float = CHECKSUM_RTOL) -> None:
    """Mark every build one of whose runs differs from the reference."""
    ref = reference(tables)
    if ref is None:
        return
    ref_hash, ref_sum, where = ref
    for table in tables.values():
        for res in table.values():
            bad = [h for h in res.hashes if h != ref_hash]
            if bad:
                res.mismatch = f"hash {bad[0]} != {ref_hash} ({where}, exact)"
                continue
            off = [c for c in res.checksums if not bench_run.close_enough(c, ref_sum, rtol)]
            if off:
                res.mismatch = f"checksum {off[0]!r} != {ref_sum!r} ({where}, rtol {rtol:g})"


# ---------------------------------------------------------------- ratios


def family_of(name: str) -> str:
    return next(b.family for b in BUILDS if b.name == name)


def fastest(table: Table, family: str) -> str | None:
    names = [n for n, r in table.items() if r.usable and family_of(n) == family]
    return min(names, key=lambda n: _median(table[n])) if names else None


def ratio_to_best(table: Table, name: str) -> float | None:
    """Best plain compiler build's median / this build's median (> 1: faster)."""
    best = fastest(table, "compiler")
    res = table.get(name)
    if best is None or res is None or not res.usable:
        return None
    return _median(table[best]) / _median(res)


def s2s_vs_best(table: Table) -> float | None:
    s2s = fastest(table, "s2s")
    return ratio_to_best(table, s2s) if s2s else None


def spread(res: Result) -> float | None:
    if len(res.times_ns) < 2 or not res.median_ns:
        return None
    return (max(res.times_ns) - min(res.times_ns)) / res.median_ns


def cell(table: Table, name: str) -> str:
    res = table[name]
    if res.error:
        return "FAIL"
    if res.mismatch:
        return "MISMATCH"
    value = ratio_to_best(table, name)
    return "-" if value is None else f"{value:.2f}x"


def table_lines(
    tables: dict[tuple[str, int], Table], names: list[str], summaries: dict[tuple[str, str], str]
) -> list[str]:
    """The ratio table as Markdown rows (readable as plain text too)."""
    head = ["target", "threads", *names, "best", "s2s/best", "noise", "s2svec"]
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join(["---", "---:", *["---:"] * len(names), "---", "---:", "---:", "---"]) + "|",
    ]
    for (target, threads), table in tables.items():
        noise = max((s for s in (spread(r) for r in table.values()) if s is not None), default=None)
        s2s = s2s_vs_best(table)
        lanes = ",".join(
            dict.fromkeys(
                f"{n.removeprefix('s2s-')}={summaries[(target, n)]}"
                for n in names
                if (target, n) in summaries
            )
        )
        row = [
            target,
            str(threads),
            *[cell(table, n) for n in names],
            fastest(table, "compiler") or "-",
            "-" if s2s is None else f"**{s2s:.2f}x**" if s2s >= GOAL else f"{s2s:.2f}x",
            "-" if noise is None else f"{noise * 100:.0f}%",
            lanes or "-",
        ]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def problems(tables: dict[tuple[str, int], Table]) -> list[str]:
    out: list[str] = []
    for (target, threads), table in tables.items():
        for name, res in table.items():
            for text in (res.error, res.mismatch):
                if text and not any(text in o for o in out):
                    out.append(f"app: {target} {threads}T [{name}]: {text}")
    return out


# ---------------------------------------------------------------- outputs


def to_json(
    args: argparse.Namespace,
    tables: dict[tuple[str, int], Table],
    infos: dict[tuple[str, str], BuildInfo],
) -> dict:
    ref = reference(tables)
    out: dict = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": bench_run.machine_info(),
        "load_average": os.getloadavg(),
        "repeats": args.repeats,
        "clock": args.clock,
        "size": args.size,
        "lookups": args.lookups,
        "checksum_rtol": CHECKSUM_RTOL,
        "s2svec_flags": " ".join(["--report", args.s2svec_flags]).strip(),
        "problem": next(
            (r.problem for t in tables.values() for r in t.values() if r.problem), None
        ),
        "reference": None if ref is None else {"hash": ref[0], "checksum": ref[1], "from": ref[2]},
        "builds": {
            f"{t}/{n}": {
                "command": " ".join(_shown(w) for w in i.command),
                "error": i.error,
                "s2svec": i.s2svec_lines,
                "s2svec_summary": s2svec_summary(i.s2svec_lines),
                "vector_insns_lookup_o": i.vector_insns,
            }
            for (t, n), i in infos.items()
        },
        "results": {},
    }
    for (target, threads), table in tables.items():
        out["results"][f"{target}/{threads}"] = {
            "target": target,
            "threads": threads,
            "best_compiler": fastest(table, "compiler"),
            "s2s_vs_best": s2s_vs_best(table),
            "builds": {
                n: {
                    "times_ns": r.times_ns,
                    "median_ns": r.median_ns,
                    "other_clock_ns": r.other_ns,
                    "hash": r.hashes[0] if r.hashes else None,
                    "checksum": r.checksums[0] if r.checksums else None,
                    "ratio_to_best": ratio_to_best(table, n),
                    "error": r.error,
                    "mismatch": r.mismatch,
                }
                for n, r in table.items()
            },
        }
    return out


PLOT_COLORS = {
    "scalar": "#bdbdbd",
    "gcc": "#9ecae1",
    "gcc-fast": "#3182bd",
    "clang": "#a1d99b",
    "clang-fast": "#31a354",
    "s2s-gcc": "#e6550d",
    "s2s-gcc-fast": "#a63603",
    "s2s-clang": "#fdae6b",
    "s2s-clang-fast": "#fd8d3c",
}


def write_plot(
    stem: Path,
    tables: dict[tuple[str, int], Table],
    names: list[str],
    title: str,
    goal: float = GOAL,
) -> list[Path]:
    """Grouped bars: each build's speed relative to the best plain compiler
    build, per target and thread count, as stem.png and stem.svg."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = list(tables)
    width = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(max(8.0, 2.2 * len(groups) + 2), 5.4))
    for j, n in enumerate(names):
        xs = [i + (j - (len(names) - 1) / 2) * width for i in range(len(groups))]
        ys = [ratio_to_best(tables[g], n) or float("nan") for g in groups]
        ax.bar(xs, ys, width, label=n, color=PLOT_COLORS.get(n))
    ax.axhline(1.0, color="gray", linestyle="--", linewidth=0.8)
    ax.axhline(goal, color="red", linestyle=":", linewidth=0.8, label=f"goal {goal:g}x")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([f"{t}, {k} thread{'s' if k > 1 else ''}" for t, k in groups])
    ax.set_ylabel("speed relative to the best plain compiler build")
    ax.set_ylim(bottom=0)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=5, loc="upper center", bbox_to_anchor=(0.5, -0.08))
    fig.tight_layout()
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for path in paths:
        fig.savefig(path)
    plt.close(fig)
    return paths


# ---------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench/app/run.py",
        description="Build the xsproxy application plainly (gcc 12, clang-19, with and "
        "without -ffast-math) and through s2svec-cc, for AVX-512 and AVX2; run "
        "each with 1 and 2 threads; check every hash; print speed ratios to the "
        "best plain compiler build.",
    )
    p.add_argument(
        "--targets",
        default="host",
        help="comma list of avx512, avx2; 'host': both where the CPU has "
        "AVX-512, else avx2 (default: %(default)s)",
    )
    p.add_argument(
        "--threads",
        default="1,2",
        help="comma list of OMP_NUM_THREADS values (default: %(default)s)",
    )
    p.add_argument(
        "--builds",
        default=",".join(BUILD_NAMES),
        help="comma list of builds, must include scalar (default: all: %(default)s)",
    )
    p.add_argument(
        "--size", choices=SIZES, default="default", help="xsproxy -s SIZE (default: %(default)s)"
    )
    p.add_argument("--lookups", type=int, help="xsproxy -l N: lookups per run")
    p.add_argument(
        "--repeats",
        type=int,
        default=7,
        help="runs per build and thread count, interleaved (default: %(default)s)",
    )
    p.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="wall: CLOCK_MONOTONIC around the lookups; cpu: the process's CPU "
        "time over them (all threads; OMP_WAIT_POLICY=passive), steadier on "
        "a shared machine (default: %(default)s)",
    )
    p.add_argument(
        "--app-dir",
        default=str(APP_DIR),
        help="the application's sources and Makefile (default: bench/app)",
    )
    p.add_argument(
        "--s2svec-cc", help="the s2svec-cc command (default: .venv/bin/s2svec-cc, then PATH)"
    )
    p.add_argument(
        "--s2svec-flags",
        default="",
        metavar="FLAGS",
        help="more s2svec options for the s2svec-cc builds (S2SVEC_FLAGS, after "
        "--report), e.g. --s2svec-flags='--refill-ratio 0'",
    )
    p.add_argument(
        "--build-dir",
        default=str(BENCH_DIR / "build" / "app"),
        help="one folder per target and build under it (default: bench/build/app)",
    )
    p.add_argument("--json", metavar="OUT", help="write every run and build as JSON")
    p.add_argument("--plot", metavar="STEM", help="write STEM.png and STEM.svg (matplotlib)")
    p.add_argument(
        "--from-json",
        metavar="IN",
        help="build and run nothing: print the table of an earlier --json file "
        "(and with --plot draw its plot)",
    )
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    if args.lookups is not None and args.lookups < 1:
        p.error("--lookups must be at least 1")
    builds = [n.strip() for n in args.builds.split(",") if n.strip()]
    if "scalar" not in builds or any(n not in BUILD_NAMES for n in builds):
        p.error(f"--builds must include 'scalar' and only name {', '.join(BUILD_NAMES)}")
    args.build_list = [b for b in BUILDS if b.name in builds]
    if args.targets == "host":
        args.target_list = ["avx512", "avx2"] if bench_run.host_target() == "avx512" else ["avx2"]
    else:
        args.target_list = [t.strip() for t in args.targets.split(",") if t.strip()]
        if not args.target_list or any(t not in TARGETS for t in args.target_list):
            p.error(f"--targets: a comma list of {', '.join(TARGETS)}, or host")
        if "avx512" in args.target_list and bench_run.host_target() != "avx512":
            p.error("--targets avx512: this CPU has no AVX-512 F/BW/VL/DQ")
    try:
        args.thread_list = [int(t) for t in args.threads.split(",") if t.strip()]
    except ValueError:
        p.error("--threads: a comma list of positive numbers")
    if not args.thread_list or any(t < 1 for t in args.thread_list):
        p.error("--threads: a comma list of positive numbers")
    if not (Path(args.app_dir) / "Makefile").is_file():
        p.error(f"--app-dir {args.app_dir}: no Makefile there")
    return args


def tables_from_json(
    data: dict,
) -> tuple[dict[tuple[str, int], Table], list[str], dict[tuple[str, str], str]]:
    """The tables, build names and s2svec summaries of a --json file."""
    tables: dict[tuple[str, int], Table] = {}
    for entry in data["results"].values():
        tables[(entry["target"], entry["threads"])] = {
            n: Result(
                times_ns=b["times_ns"],
                error=b["error"],
                mismatch=b["mismatch"],
                hashes=[b["hash"]] if b["hash"] else [],
                checksums=[b["checksum"]] if b["checksum"] is not None else [],
            )
            for n, b in entry["builds"].items()
        }
    names = list(next(iter(tables.values()))) if tables else []
    summaries = {
        tuple(key.split("/", 1)): b["s2svec_summary"]
        for key, b in data["builds"].items()
        if family_of(key.split("/", 1)[1]) == "s2s"
    }
    return tables, names, summaries


def replot(source: str, plot: str | None) -> int:
    """--from-json: print the table (and draw the plot) of an earlier run."""
    data = json.loads(Path(source).read_text())
    tables, names, summaries = tables_from_json(data)
    print("\n".join(table_lines(tables, names, summaries)))
    print(
        f"{data['repeats']} runs per build and thread count, {data['clock']} clock, "
        f"{data['date']}, load average {data['load_average'][0]:.1f}"
    )
    if plot:
        title = (
            f"xsproxy -s {data['size']}: speed relative to the best plain compiler "
            f"build, medians of {data['repeats']} runs ({data['clock']} clock)"
        )
        write_plot(Path(plot), tables, names, title)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.from_json:
        return replot(args.from_json, args.plot)
    start = time.monotonic()
    app = Path(args.app_dir).resolve()
    build_root = Path(args.build_dir).resolve()
    build_root.mkdir(parents=True, exist_ok=True)
    wrapper = s2svec_cc_command(args.s2svec_cc)
    builds: list[Build] = args.build_list
    names = [b.name for b in builds]

    infos: dict[tuple[str, str], BuildInfo] = {}
    for target in args.target_list:
        for b in builds:
            print(f"building {target}/{b.name} ...", file=sys.stderr)
            infos[(target, b.name)] = build_one(
                app, build_root / target / b.name, b, TARGETS[target], wrapper, args.s2svec_flags
            )
    tables: dict[tuple[str, int], Table] = {
        (target, threads): {
            b.name: Result(
                binary=infos[(target, b.name)].binary, error=infos[(target, b.name)].error
            )
            for b in builds
        }
        for target in args.target_list
        for threads in args.thread_list
    }

    app_args = ["-s", args.size] + (["-l", str(args.lookups)] if args.lookups else [])
    for r in range(args.repeats):
        print(f"round {r + 1}/{args.repeats}", file=sys.stderr)
        run_round(tables, r, args.clock, app_args)
    verify(tables)

    summaries = {
        (t, n): s2svec_summary(i.s2svec_lines)
        for (t, n), i in infos.items()
        if family_of(n) == "s2s"
    }
    print(
        "\nspeed relative to the best plain compiler build (its median time / the "
        "build's; > 1: faster); best = that build; s2s/best = the faster s2svec-cc "
        "build's ratio"
    )
    print("\n".join(table_lines(tables, names, summaries)))
    for target in args.target_list:
        print(f"target {target}: {TARGET_NOTES[target]}")
    ref = reference(tables)
    print(
        f"every build -O3 -fopenmp -Wall; S2SVEC_FLAGS="
        f"{' '.join(['--report', args.s2svec_flags]).strip()!r}; xsproxy -s {args.size}"
        f"{f' -l {args.lookups}' if args.lookups else ''}; {args.repeats} runs per build "
        f"and thread count, {args.clock} clock, {time.monotonic() - start:.0f} s total, "
        f"load average {os.getloadavg()[0]:.1f}; reference hash "
        f"{ref[0] if ref else '-'} ({ref[2] if ref else 'no scalar run'})"
    )
    problem = next((r.problem for t in tables.values() for r in t.values() if r.problem), "")
    if problem:
        print(f"problem: {problem}")
    for target in args.target_list:
        counts = [
            f"{n} {infos[(target, n)].vector_insns.get('zmm', '-')}/"
            f"{infos[(target, n)].vector_insns.get('ymm', '-')}"
            for n in names
            if infos[(target, n)].vector_insns
        ]
        if counts:
            print(
                f"{target}: instructions on zmm/ymm registers in {HOT_FILE[:-2]}.o: "
                + ", ".join(counts)
            )
    s2s_lines = dict.fromkeys(line for (t, n), i in infos.items() for line in i.s2svec_lines)
    if s2s_lines:
        print("s2svec on " + HOT_FILE + " (S2SVEC_FLAGS=--report), every line once:")
        for line in s2s_lines:
            print("  " + line)
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(args, tables, infos), indent=1) + "\n")
    if args.plot:
        title = (
            f"xsproxy -s {args.size}: speed relative to the best plain compiler build, "
            f"medians of {args.repeats} runs ({args.clock} clock)"
        )
        write_plot(Path(args.plot), tables, names, title)
    found = problems(tables)
    for text in found:
        print(text, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
