"""Bench runner: time each kernel scalar, with gcc/clang -fopenmp-simd and as s2svec output.

For every kernel in bench/kernels/ it builds five variants (see VARIANTS), runs
them N times interleaved round-robin (so machine noise hits all of them
alike), verifies each checksum against the scalar build, and prints the
median kernel times with speed-ups.  Exit status: 0 all results match,
1 a result mismatched or a variant failed to build or run, 2 bad usage.

Each kernel program prints ``time_ns <int>`` (the timed kernel region only)
and ``checksum <float>``; its header comment holds ``bench-rtol: <x>``, the
relative tolerance of the checksum against the scalar build (the vector
builds reassociate reductions and may contract a*b+c into an FMA).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
KERNEL_DIR = BENCH_DIR / "kernels"
RUN_TIMEOUT_S = 120
COMMON = ["-O3", "-march=native"]


@dataclass(frozen=True)
class Variant:
    """One way of building a kernel."""
    name: str
    cc: str
    flags: tuple[str, ...]
    uses_s2svec: bool
    what: str


VARIANTS: tuple[Variant, ...] = (
    # No -fopenmp-simd: the pragma is ignored; -fno-tree-vectorize turns off
    # gcc's loop and SLP vectorizers, so this is plain scalar -O3 code.
    Variant("scalar", "gcc", (*COMMON, "-fno-tree-vectorize", "-Wno-unknown-pragmas"),
            False, "gcc -O3 -march=native -fno-tree-vectorize (pragma ignored)"),
    Variant("gcc-omp", "gcc", (*COMMON, "-fopenmp-simd"),
            False, "gcc -O3 -march=native -fopenmp-simd"),
    Variant("clang-omp", "clang", (*COMMON, "-fopenmp-simd"),
            False, "clang -O3 -march=native -fopenmp-simd"),
    Variant("s2s-gcc", "gcc", (*COMMON, "-Wno-unknown-pragmas"),
            True, "s2svec output, gcc -O3 -march=native -lmvec -lm"),
    Variant("s2s-clang", "clang", (*COMMON, "-Wno-unknown-pragmas"),
            True, "s2svec output, clang -O3 -march=native -lmvec -lm"),
)
COMPILER_VARIANTS = ("gcc-omp", "clang-omp")
S2S_VARIANTS = ("s2s-gcc", "s2s-clang")


@dataclass
class Kernel:
    """A kernel source and what the bench learned about it."""
    name: str
    source: Path
    rtol: float
    s2s_report: list[dict] = field(default_factory=list)
    s2s_error: Optional[str] = None


@dataclass
class Result:
    """Runs of one (kernel, variant) binary."""
    binary: Optional[Path] = None
    error: Optional[str] = None
    times_ns: list[int] = field(default_factory=list)
    """Kernel times on the clock chosen with --clock (the table's numbers)."""
    other_ns: list[int] = field(default_factory=list)
    """The same runs on the other clock (kept for --json)."""
    checksums: list[float] = field(default_factory=list)
    mismatch: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.error is None and bool(self.times_ns)

    @property
    def median_ns(self) -> Optional[float]:
        return statistics.median(self.times_ns) if self.times_ns else None


# ---------------------------------------------------------------- discovery

def find_kernels(names: Optional[Sequence[str]]) -> list[Kernel]:
    """Kernels under bench/kernels/, optionally restricted to ``names``."""
    available = {p.stem: p for p in sorted(KERNEL_DIR.glob("*.c"))}
    wanted = list(names) if names else list(available)
    unknown = [n for n in wanted if n not in available]
    if unknown:
        raise SystemExit(f"run.py: error: unknown kernel(s) {', '.join(unknown)} "
                         f"(have {', '.join(available)})")
    return [Kernel(n, available[n], read_rtol(available[n])) for n in wanted]


def read_rtol(source: Path) -> float:
    """The ``bench-rtol:`` value in a kernel's header comment (0 = exact)."""
    m = re.search(r"bench-rtol:\s*([0-9.eE+-]+)", source.read_text())
    return float(m.group(1)) if m else 0.0


def s2svec_command(explicit: Optional[str]) -> Optional[list[str]]:
    """How to call s2svec: --s2svec, the project venv, PATH, or python -m s2s."""
    if explicit:
        words = explicit.split()
        if Path(words[0]).exists():  # a relative path means relative to our cwd
            words[0] = str(Path(words[0]).resolve())
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

def run_s2svec(tool: list[str], kernel: Kernel, target: str, build: Path) -> Optional[Path]:
    """Vectorize one kernel; return the output file or record the error."""
    out = build / f"{kernel.name}_simd.c"
    report = build / f"{kernel.name}.report.json"
    for stale in (out, report):  # never time or trust a previous run's files
        stale.unlink(missing_ok=True)
    cmd = [*tool, str(kernel.source), "-o", str(out), "--target", target,
           "--report=json", "--report-file", str(report)]
    # cwd: `python -m s2s` must find the package; every path here is absolute
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


def compile_variant(variant: Variant, source: Path, binary: Path) -> Optional[str]:
    """Build one binary; return an error text or None."""
    libs = ["-lmvec", "-lm"] if variant.uses_s2svec else ["-lm"]
    cmd = [variant.cc, *variant.flags, str(source), "-o", str(binary), *libs]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return f"{' '.join(cmd)} failed:\n{proc.stderr.strip()[-800:]}"
    return None


def build_kernel(kernel: Kernel, variants: Sequence[Variant], tool: Optional[list[str]],
                 target: str, build: Path) -> dict[str, Result]:
    """Build every variant of one kernel (s2svec first when needed)."""
    simd_source: Optional[Path] = None
    if any(v.uses_s2svec for v in variants):
        if tool is None:
            kernel.s2s_error = "s2svec not found (no .venv/bin/s2svec, not on PATH)"
        else:
            simd_source = run_s2svec(tool, kernel, target, build)
    results: dict[str, Result] = {}
    for v in variants:
        source = simd_source if v.uses_s2svec else kernel.source
        if source is None:
            results[v.name] = Result(error=kernel.s2s_error or "no s2svec output")
            continue
        binary = build / f"{kernel.name}.{v.name}"
        error = compile_variant(v, source, binary)
        results[v.name] = Result(binary=None if error else binary, error=error)
    return results


# ---------------------------------------------------------------- running

def run_binary(binary: Path) -> tuple[int, int, float]:
    """Run one kernel binary; return (wall ns, thread CPU ns, checksum)."""
    proc = subprocess.run([str(binary)], capture_output=True, text=True,
                          timeout=RUN_TIMEOUT_S)
    if proc.returncode != 0:
        raise RuntimeError(f"{binary.name} exited {proc.returncode}: {proc.stderr.strip()}")
    t = re.search(r"^time_ns (\d+)$", proc.stdout, re.M)
    u = re.search(r"^cpu_ns (\d+)$", proc.stdout, re.M)
    c = re.search(r"^checksum (\S+)$", proc.stdout, re.M)
    if not t or not u or not c:
        raise RuntimeError(f"{binary.name}: no time_ns/cpu_ns/checksum in output:\n"
                           f"{proc.stdout}")
    return int(t.group(1)), int(u.group(1)), float(c.group(1))


def run_round(kernels: list[Kernel], results: dict[str, dict[str, Result]],
              round_no: int, clock: str) -> None:
    """One run of every binary; the variant order rotates from round to round."""
    for kernel in kernels:
        names = [n for n, r in results[kernel.name].items() if r.binary and not r.error]
        shift = round_no % len(names) if names else 0
        for name in names[shift:] + names[:shift]:
            res = results[kernel.name][name]
            try:
                wall, cpu, c = run_binary(res.binary)  # type: ignore[arg-type]
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                res.error = str(exc)
                continue
            res.times_ns.append(cpu if clock == "cpu" else wall)
            res.other_ns.append(wall if clock == "cpu" else cpu)
            res.checksums.append(c)


def close_enough(a: float, b: float, rtol: float) -> bool:
    """Relative comparison; rtol 0 means bit-identical checksums."""
    if rtol == 0.0:
        return a == b
    return abs(a - b) <= rtol * max(abs(a), abs(b), 1e-300)


def verify(kernel: Kernel, results: dict[str, Result]) -> None:
    """Compare each variant's checksums with the scalar build's first one."""
    ref = results.get("scalar")
    if ref is None or not ref.checksums:
        return
    expected = ref.checksums[0]
    for name, res in results.items():
        bad = [c for c in res.checksums if not close_enough(c, expected, kernel.rtol)]
        if bad:
            res.mismatch = (f"checksum {bad[0]!r} != scalar {expected!r} "
                            f"(rtol {kernel.rtol:g})")


# ---------------------------------------------------------------- reporting

def speedup(results: dict[str, Result], name: str) -> Optional[float]:
    """Scalar median time / this variant's median time."""
    base, res = results.get("scalar"), results.get(name)
    if not base or not res or not base.median_ns or not res.median_ns or res.mismatch:
        return None  # a wrong result has no speed
    return base.median_ns / res.median_ns


def best_median(results: dict[str, Result], names: Sequence[str]) -> Optional[float]:
    meds = [results[n].median_ns for n in names
            if n in results and results[n].median_ns and not results[n].mismatch]
    return min(meds) if meds else None  # type: ignore[type-var]


def s2s_vs_best(results: dict[str, Result]) -> Optional[float]:
    """Best compiler median / best s2svec median: > 1 means s2svec is faster."""
    comp, s2s = best_median(results, COMPILER_VARIANTS), best_median(results, S2S_VARIANTS)
    return comp / s2s if comp and s2s else None


def spread(res: Result) -> Optional[float]:
    """(max - min) / median of one variant's times: a noise indicator."""
    if len(res.times_ns) < 2 or not res.median_ns:
        return None
    return (max(res.times_ns) - min(res.times_ns)) / res.median_ns


def vec_summary(kernel: Kernel) -> str:
    """'yes/W=8' style summary of the s2svec report for the table."""
    if kernel.s2s_error:
        return "error"
    if not kernel.s2s_report:
        return "-"
    entries = kernel.s2s_report
    done = [e for e in entries if e.get("vectorized")]
    if len(done) == len(entries):
        widths = sorted({str(e.get("width")) for e in done})
        return "yes/W=" + ",".join(widths)
    return f"{len(done)}/{len(entries)}"


def fmt(x: Optional[float], spec: str, suffix: str = "") -> str:
    return "-" if x is None else format(x, spec) + suffix


def print_table(kernels: list[Kernel], results: dict[str, dict[str, Result]],
                names: list[str]) -> None:
    """Median times (ms) and speed-ups over the scalar build."""
    head = f"{'kernel':<17}" + "".join(f"{n:>11}" for n in names)
    print("\nmedian kernel time, ms (noise = largest (max-min)/median of a variant)")
    print(head + f"{'noise':>8}")
    for k in kernels:
        row = results[k.name]
        cells = "".join(f"{cell_ms(row[n]):>11}" for n in names)
        noise = max((s for s in (spread(r) for r in row.values()) if s is not None),
                    default=None)
        print(f"{k.name:<17}{cells}{fmt(noise and noise * 100, '.0f', '%'):>8}")
    vec = [n for n in names if n != "scalar"]
    print("\nspeed-up over scalar (higher is better); s2s/best = best compiler time / "
          "best s2svec time (> 1: s2svec faster)")
    print(f"{'kernel':<17}" + "".join(f"{n:>11}" for n in vec)
          + f"{'s2s/best':>10}{'s2svec':>12}")
    for k in kernels:
        row = results[k.name]
        cells = "".join(f"{fmt(speedup(row, n), '.2f', 'x'):>11}" for n in vec)
        print(f"{k.name:<17}{cells}{fmt(s2s_vs_best(row), '.2f', 'x'):>10}"
              f"{vec_summary(k):>12}")
    print_geomean(kernels, results, vec)


def print_geomean(kernels: list[Kernel], results: dict[str, dict[str, Result]],
                  vec: list[str]) -> None:
    cells = []
    for n in vec:
        vals = [s for s in (speedup(results[k.name], n) for k in kernels) if s]
        cells.append(geomean(vals) if len(vals) == len(kernels) else None)
    ratios = [s for s in (s2s_vs_best(results[k.name]) for k in kernels) if s]
    g = geomean(ratios) if ratios and len(ratios) == len(kernels) else None
    print(f"{'geomean':<17}" + "".join(f"{fmt(c, '.2f', 'x'):>11}" for c in cells)
          + f"{fmt(g, '.2f', 'x'):>10}")


def geomean(values: list[float]) -> float:
    return statistics.geometric_mean(values)


def cell_ms(res: Result) -> str:
    if res.error:
        return "FAIL"
    if res.mismatch:
        return "MISMATCH"
    return fmt(res.median_ns and res.median_ns / 1e6, ".1f")


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
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
            "gcc": tool_version(["gcc", "--version"]),
            "clang": tool_version(["clang", "--version"])}


def to_json(kernels: list[Kernel], results: dict[str, dict[str, Result]],
            args: argparse.Namespace, variants: list[Variant]) -> dict:
    """Everything measured, for --json."""
    out: dict = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                 "machine": machine_info(), "repeats": args.repeats,
                 "clock": args.clock, "load_average": os.getloadavg(),
                 "target": args.target,
                 "variants": {v.name: v.what for v in variants}, "kernels": {}}
    for k in kernels:
        row = results[k.name]
        out["kernels"][k.name] = {
            "rtol": k.rtol, "s2svec_error": k.s2s_error, "s2svec_report": k.s2s_report,
            "s2s_vs_best": s2s_vs_best(row),
            "variants": {n: {"times_ns": r.times_ns, "median_ns": r.median_ns,
                             "other_clock_ns": r.other_ns,
                             "checksum": r.checksums[0] if r.checksums else None,
                             "speedup": speedup(row, n), "error": r.error,
                             "mismatch": r.mismatch} for n, r in row.items()}}
    return out


SVG_COLORS = {"gcc-omp": "#4e79a7", "clang-omp": "#76b7b2",
              "s2s-gcc": "#e15759", "s2s-clang": "#f28e2b"}


def write_svg(path: Path, kernels: list[Kernel], results: dict[str, dict[str, Result]],
              names: list[str]) -> None:
    """A grouped bar chart of speed-up over scalar, drawn by hand as SVG."""
    vec = [n for n in names if n != "scalar"]
    values = {(k.name, n): speedup(results[k.name], n) or 0.0 for k in kernels for n in vec}
    top = max([1.0, *values.values()]) * 1.1
    bar, gap, left, height, base = 18, 36, 60, 260, 300  # a group fits a 16-char name
    group = bar * len(vec) + gap
    width = left + group * len(kernels) + 150
    scale = height / top
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{base + 70}" '
             f'font-family="sans-serif" font-size="11">',
             f'<text x="{left}" y="20" font-size="14">speed-up over scalar '
             f'(gcc -O3 -fno-tree-vectorize), medians</text>']
    parts += svg_axis(left, base, top, scale, left + group * len(kernels))
    for i, k in enumerate(kernels):
        x0 = left + gap / 2 + i * group
        for j, n in enumerate(vec):
            v = values[(k.name, n)]
            h = v * scale
            parts.append(f'<rect x="{x0 + j * bar:.1f}" y="{base - h:.1f}" width="{bar - 2}" '
                         f'height="{h:.1f}" fill="{SVG_COLORS.get(n, "#999")}">'
                         f'<title>{k.name} {n}: {v:.2f}x</title></rect>')
        parts.append(f'<text x="{x0 + bar * len(vec) / 2:.1f}" y="{base + 16}" '
                     f'text-anchor="middle">{k.name}</text>')
    for j, n in enumerate(vec):
        y = 40 + j * 16
        lx = left + group * len(kernels) + 20
        parts.append(f'<rect x="{lx}" y="{y - 10}" width="12" height="12" '
                     f'fill="{SVG_COLORS.get(n, "#999")}"/><text x="{lx + 18}" y="{y}">{n}</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def svg_axis(left: int, base: int, top: float, scale: float, right: float) -> list[str]:
    """Y axis with ticks, and a dashed line at speed-up 1 (scalar)."""
    parts = [f'<line x1="{left}" y1="{base}" x2="{right}" y2="{base}" stroke="black"/>',
             f'<line x1="{left}" y1="{base}" x2="{left}" y2="{base - top * scale:.1f}" '
             f'stroke="black"/>']
    step = 0.5 if top <= 4 else 1.0 if top <= 8 else 2.0
    tick = 0.0
    while tick <= top:
        y = base - tick * scale
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick:g}x</text>'
                     f'<line x1="{left - 3}" y1="{y:.1f}" x2="{left}" y2="{y:.1f}" '
                     f'stroke="black"/>')
        tick += step
    y1 = base - scale
    parts.append(f'<line x1="{left}" y1="{y1:.1f}" x2="{right}" y2="{y1:.1f}" '
                 f'stroke="gray" stroke-dasharray="4,3"/>'
                 f'<text x="{right + 4}" y="{y1 + 4:.1f}" fill="gray">scalar</text>')
    return parts


# ---------------------------------------------------------------- main

def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench/run.py",
        description="Time the bench kernels scalar, with gcc/clang -fopenmp-simd and "
                    "as s2svec output (gcc and clang); verify results; print medians.")
    p.add_argument("--kernels", help="comma list of kernels (default: all in bench/kernels)")
    p.add_argument("--variants", default=",".join(v.name for v in VARIANTS),
                   help="comma list of variants (default: %(default)s)")
    p.add_argument("--repeats", type=int, default=7,
                   help="runs per variant, interleaved round-robin (default: %(default)s)")
    p.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                   help="wall: CLOCK_MONOTONIC; cpu: the kernel thread's CPU time, steadier "
                        "on a loaded machine (default: %(default)s)")
    p.add_argument("--target", default="host",
                   help="s2svec --target value (default: %(default)s)")
    p.add_argument("--s2svec", help="command that runs s2svec (default: .venv/bin/s2svec, "
                                    "then PATH, then .venv/bin/python -m s2s)")
    p.add_argument("--build-dir", default=str(BENCH_DIR / "build"),
                   help="where generated sources and binaries go (default: bench/build)")
    p.add_argument("--json", metavar="OUT", help="write all measurements as JSON")
    p.add_argument("--plot", metavar="OUT.svg", help="write an SVG bar chart of speed-ups")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    known = {v.name for v in VARIANTS}
    chosen = [n.strip() for n in args.variants.split(",") if n.strip()]
    if "scalar" not in chosen or any(n not in known for n in chosen):
        p.error(f"--variants must include 'scalar' and only name {', '.join(sorted(known))}")
    args.variant_list = [v for v in VARIANTS if v.name in chosen]
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    kernels = find_kernels(args.kernels.split(",") if args.kernels else None)
    variants: list[Variant] = args.variant_list
    build = Path(args.build_dir).resolve()
    build.mkdir(parents=True, exist_ok=True)
    tool = s2svec_command(args.s2svec)
    start = time.monotonic()
    results = {}
    for k in kernels:
        print(f"building {k.name} ...", file=sys.stderr)
        results[k.name] = build_kernel(k, variants, tool, args.target, build)
    for r in range(args.repeats):
        print(f"round {r + 1}/{args.repeats}", file=sys.stderr)
        run_round(kernels, results, r, args.clock)
    for k in kernels:
        verify(k, results[k.name])
    names = [v.name for v in variants]
    print_table(kernels, results, names)
    print(f"\n{args.repeats} runs per variant, {args.clock} clock, "
          f"{time.monotonic() - start:.0f} s total, load average "
          f"{os.getloadavg()[0]:.1f}; scalar = {VARIANTS[0].what}")
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(kernels, results, args, variants),
                                              indent=1) + "\n")
    if args.plot:
        write_svg(Path(args.plot), kernels, results, names)
    return 1 if print_problems(kernels, results) else 0


if __name__ == "__main__":
    sys.exit(main())
