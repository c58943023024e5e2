"""Differential testing of s2svec: each kernel built as written and after s2svec, run, compared.

For one kernel (testsuite/kernels/NAME.c) and one toolchain configuration:

1. s2svec runs once per kernel (default targets, ``--report=json``) into
   ``testsuite/.build/NAME-<hash>/``; the hash covers the kernel text, the
   harness and the s2s source tree, so an unchanged kernel is not re-run.
   A file lock makes concurrent pytest-xdist workers share that run.
2. The reference (the original file) and the candidate (s2svec's output) are
   compiled with the same compiler and flags (``-O2 -ffp-contract=off``, the
   candidate also links libmvec on x86) and both binaries run.
3. The outputs are compared line by line (see testsuite/harness.h for the
   line kinds), the JSON report must show the expected number of vectorized
   regions for the configuration's target, and the output file must hold
   that target's intrinsics, so neither a silent scalar fall-back nor a
   no-op tool can pass.

Kernel metadata is the first comment of the file, for example
``/* s2s-test: vectorized=2 tolerance=exact */``.  Keys:
  vectorized=N|?      regions the report must show vectorized per target
                      (``?``: not checked, the kernel tests correctness only)
  regions=N           annotated regions the report must list per target
                      (default: the vectorized count)
  tolerance=exact | reduction-fp rel=X | ulp=N
  args="..."          extra s2svec arguments
  cflags="..."        extra compiler flags for both sides
  grep="REGEX"        the s2svec output must match REGEX
  report="memory.gather=1 ..."   statistics every vectorized entry must show
  width="avx2:4 avx512:8 neon:2" expected width per target
  maxwidth=N          no target may use more lanes (safelen)
Lines containing ``s2s-keep`` must appear in the output verbatim and as
often as in the input (text outside annotated loops is left untouched).

Also usable by hand: ``python testsuite/differential.py [KERNEL...] [-c CONFIG]``.
"""
from __future__ import annotations

import argparse
import fcntl
import functools
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

ROOT = Path(__file__).resolve().parents[1]
TESTSUITE = ROOT / "testsuite"
KERNELS = TESTSUITE / "kernels"
BUILD = TESTSUITE / ".build"
HARNESS = TESTSUITE / "harness.h"

S2SVEC_TIMEOUT = 180
COMPILE_TIMEOUT = 180
RUN_TIMEOUT = 120

COMMON_FLAGS = ("-O2", "-ffp-contract=off", "-Wno-unknown-pragmas")
AVX2_FLAGS = ("-mavx2", "-mfma")
AVX512_FLAGS = ("-mavx512f", "-mavx512dq", "-mavx512bw", "-mavx512vl", "-mavx2", "-mfma")
# Vector intrinsics a target's branch may use: narrower registers are fine
# (safelen, or a width chosen from the widest type), the branch the compiler
# really takes is checked separately (see preprocessed_own_text).
AVX2_RE = r"\b_mm(?:256)?_\w+"
AVX512_RE = r"\b_mm(?:512|256)?_\w+"
NEON_RE = r"\bv[a-z0-9]+q?_[suf](?:8|16|32|64)\b"


class DifferentialFailure(AssertionError):
    """A kernel whose candidate differs from its reference (or was not vectorized)."""


# --------------------------------------------------------------------------
# Configurations


@dataclass(frozen=True)
class Config:
    """One compiler + target combination a kernel is built and run with."""

    name: str
    cc: str
    flags: tuple[str, ...]
    target: str
    """The report's ``target`` value whose entries this build exercises."""
    intrinsics: str
    """Regex that the s2svec output must match for this target."""
    runner: tuple[str, ...] = ()
    """Prefix for running the binary (qemu for cross builds)."""
    candidate_libs: tuple[str, ...] = ("-lm",)
    needs_cpu_flag: str = ""
    """A /proc/cpuinfo flag the host needs to run the binary natively."""


CONFIGS: dict[str, Config] = {
    c.name: c
    for c in (
        Config("gcc-avx2", "gcc", AVX2_FLAGS, "avx2", AVX2_RE,
               candidate_libs=("-lmvec", "-lm"), needs_cpu_flag="avx2"),
        Config("clang-avx2", "clang", AVX2_FLAGS, "avx2", AVX2_RE,
               candidate_libs=("-lmvec", "-lm"), needs_cpu_flag="avx2"),
        Config("gcc-avx512", "gcc", AVX512_FLAGS, "avx512", AVX512_RE,
               candidate_libs=("-lmvec", "-lm"), needs_cpu_flag="avx512f"),
        Config("clang-avx512", "clang", AVX512_FLAGS, "avx512", AVX512_RE,
               candidate_libs=("-lmvec", "-lm"), needs_cpu_flag="avx512f"),
        Config("gcc-neon", "aarch64-linux-gnu-gcc", ("-static",), "neon", NEON_RE,
               runner=("qemu-aarch64",)),
    )
}


@functools.lru_cache(maxsize=None)
def _cpu_flags() -> frozenset[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags"):
            return frozenset(line.split(":", 1)[1].split())
    return frozenset()


def skip_reason(config: Config) -> Optional[str]:
    """Why this configuration cannot run here (only a missing CPU feature counts)."""
    if config.needs_cpu_flag and config.needs_cpu_flag not in _cpu_flags():
        return f"CPU lacks {config.needs_cpu_flag}"
    return None


# --------------------------------------------------------------------------
# Kernels and their metadata


@dataclass(frozen=True)
class Meta:
    """What a kernel expects, from its ``s2s-test:`` comment."""

    vectorized: Optional[int]
    regions: Optional[int]
    tolerance: str = "exact"
    rel: float = 0.0
    ulp: int = 0
    args: tuple[str, ...] = ()
    cflags: tuple[str, ...] = ()
    grep: tuple[str, ...] = ()
    report: tuple[tuple[str, int], ...] = ()
    """(dotted.path, value) every vectorized report entry must have."""
    width: tuple[tuple[str, int], ...] = ()
    """(target, width) the report must show."""
    maxwidth: Optional[int] = None


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
        vectorized=vectorized, regions=regions, tolerance=tol, rel=rel, ulp=ulp,
        args=tuple(shlex.split(values.pop("args", ""))),
        cflags=tuple(shlex.split(values.pop("cflags", ""))),
        grep=tuple(g for g in [values.pop("grep", "")] if g),
        report=tuple(_pairs(values.pop("report", ""), "=")),
        width=tuple(_pairs(values.pop("width", ""), ":")),
        maxwidth=int(maxw) if (maxw := values.pop("maxwidth", "")) else None,
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


@functools.lru_cache(maxsize=None)
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


def _prune_stale(kernel: Path, keep: set[Path], max_age: float = 3600.0) -> None:
    """Remove this kernel's build directories from older kernel/tool versions.

    Directories in `keep` (the current versions) stay; others go only when
    unused for an hour, so a concurrent run on an older version is not
    disturbed.
    """
    pattern = re.compile(re.escape(kernel.stem) + r"-(?:ref-)?[0-9a-f]{16}")
    now = time.time()
    for d in BUILD.glob(f"{kernel.stem}-*"):
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
    output: Optional[str]
    report: Optional[list[dict]]
    report_error: str = ""

    @property
    def output_path(self) -> Path:
        return self.directory / f"{self.kernel.stem}.s2s.c"


def transform(kernel: Path) -> Transform:
    """Run s2svec on a kernel once (cached on disk by content hash)."""
    text = kernel.read_bytes()
    key = hashlib.sha256(text + HARNESS.read_bytes() + tool_hash().encode()).hexdigest()[:16]
    directory = BUILD / f"{kernel.stem}-{key}"
    out = directory / f"{kernel.stem}.s2s.c"
    rep = directory / "report.json"
    done = directory / "s2svec.json"
    meta = parse_meta(text.decode(errors="surrogateescape"))
    with _locked(directory):
        if not done.exists():
            _prune_stale(kernel, {directory, _ref_directory(kernel)})
            cmd = s2svec_command() + [
                str(kernel), "-o", str(out), "-I", str(TESTSUITE),
                "--report=json", "--report-file", str(rep), *meta.args,
            ]
            try:
                proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                                      timeout=S2SVEC_TIMEOUT)
                rc, err = proc.returncode, proc.stderr
            except subprocess.TimeoutExpired:
                rc, err = -1, f"s2svec timed out after {S2SVEC_TIMEOUT}s"
            done.write_text(json.dumps({"command": cmd, "returncode": rc, "stderr": err}))
    info = json.loads(done.read_text())
    report, report_error = None, ""
    if rep.exists():
        try:
            report = json.loads(rep.read_text())
        except ValueError as exc:
            report_error = f"report is not JSON: {exc}"
    else:
        report_error = "no report file written"
    return Transform(kernel, directory, info["command"], info["returncode"], info["stderr"],
                     out.read_text(errors="surrogateescape") if out.exists() else None, report,
                     report_error)


# --------------------------------------------------------------------------
# Compiling and running


def _ref_directory(kernel: Path) -> Path:
    key = hashlib.sha256(kernel.read_bytes() + HARNESS.read_bytes()).hexdigest()[:16]
    return BUILD / f"{kernel.stem}-ref-{key}"


def compile_c(source: Path, binary: Path, config: Config, meta: Meta, libs: tuple[str, ...]) -> None:
    """Compile once; the binary is kept (a later call with the same path reuses it)."""
    with _locked(binary.parent):
        if binary.exists():
            return
        # Debian's clang has no libomp: use gcc's runtime for -fopenmp.
        cflags = [("-fopenmp=libgomp" if f == "-fopenmp" and config.cc == "clang" else f)
                  for f in meta.cflags]
        cmd = [config.cc, *COMMON_FLAGS, *config.flags, *cflags, "-I", str(TESTSUITE),
               "-o", str(binary) + ".tmp", str(source), *libs]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise DifferentialFailure(f"compile timed out: {shlex.join(cmd)}")
        if proc.returncode != 0:
            raise DifferentialFailure(
                f"compile failed ({proc.returncode}): {shlex.join(cmd)}\n{_clip(proc.stderr)}")
        os.replace(str(binary) + ".tmp", binary)


def run_binary(binary: Path, config: Config) -> tuple[int, str]:
    cmd = [*config.runner, str(binary)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return -999, f"timed out after {RUN_TIMEOUT}s"
    return proc.returncode, proc.stdout


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


def _compare_ulp(ref: str, cand: str, meta: Meta) -> Optional[str]:
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


def _compare_rel(ref: str, cand: str, meta: Meta) -> Optional[str]:
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


def compare_outputs(ref: str, cand: str, meta: Meta) -> list[str]:
    """Differences between two harness outputs under the kernel's tolerance."""
    rl, cl = ref.splitlines(), cand.splitlines()
    problems: list[str] = []
    size = "?"
    for i, (r, c) in enumerate(zip(rl, cl)):
        if r.startswith("X size "):
            size = r[7:]
        why: Optional[str] = None
        if r == c:
            continue
        if meta.tolerance == "reduction-fp" and r.startswith("R "):
            why = _compare_rel(r, c, meta)
        elif meta.tolerance == "ulp" and r.startswith("U "):
            why = _compare_ulp(r, c, meta)
        else:
            why = "differs"
        if why:
            problems.append(f"line {i + 1} (size n={size}): {why}\n  ref:  {_clip(r, 400)}\n"
                            f"  cand: {_clip(c, 400)}")
        if len(problems) >= 5:
            problems.append("... (further differences not shown)")
            return problems
    if len(rl) != len(cl):
        problems.append(f"reference printed {len(rl)} lines, candidate {len(cl)} "
                        f"(last candidate line: {cl[-1] if cl else '<none>'!r})")
    return problems


# --------------------------------------------------------------------------
# Checks on the s2svec output and report


def check_report(report: Optional[list[dict]], meta: Meta, target: str, report_error: str = "") -> list[str]:
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
        problems.append(f"report lists {len(entries)} regions for target {target}, "
                        f"expected {meta.regions}")
    if meta.vectorized is not None:
        vec = [e for e in entries if e.get("vectorized") is True]
        if len(vec) != meta.vectorized:
            reasons = "; ".join(f"line {e.get('line')}: {e.get('reason')}"
                                for e in entries if e.get("vectorized") is not True)
            problems.append(f"{len(vec)} regions vectorized for {target}, expected "
                            f"{meta.vectorized}" + (f" (not vectorized: {reasons})" if reasons else ""))
        for e in vec:
            problems += _check_entry(e, meta, target)
    return problems


def _check_entry(e: dict, meta: Meta, target: str) -> list[str]:
    """Width and statistics of one vectorized report entry."""
    problems: list[str] = []
    where = f"line {e.get('line')} ({target})"
    width = e.get("width")
    if not isinstance(width, int) or width < 2:
        return [f"{where}: vectorized with width {width!r}"]
    want = dict(meta.width).get(target)
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


def preprocessed_own_text(source: Path, config: Config, meta: Meta) -> str:
    """The lines of `source` itself that survive preprocessing for `config`.

    Headers are dropped (they define every intrinsic name), so what remains
    is the code the compiler really builds: intrinsics hidden behind an
    ``#if`` that this configuration does not take do not count.
    """
    cmd = [config.cc, "-E", *COMMON_FLAGS, *config.flags, *meta.cflags, "-I", str(TESTSUITE),
           str(source)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
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


def check_output_text(source: str, output: str, meta: Meta, config: Config,
                      active: Optional[str] = None) -> list[str]:
    """Intrinsics for the target are present (in the text and, given `active`,
    in what the configuration really compiles); kept lines are intact; grep
    patterns match."""
    problems: list[str] = []
    if meta.vectorized and not re.search(config.intrinsics, output):
        problems.append(f"output has no {config.target} intrinsics (/{config.intrinsics}/)")
    elif meta.vectorized and active is not None and not re.search(config.intrinsics, active):
        problems.append(f"the {config.target} intrinsics are not in the code that "
                        f"{config.cc} {' '.join(config.flags)} compiles (wrong #if?)")
    for pattern in meta.grep:
        if not re.search(pattern, output, re.M):
            problems.append(f"output does not match /{pattern}/")
    kept = [ln for ln in source.splitlines() if "s2s-keep" in ln]
    out_lines = output.splitlines()
    for ln in dict.fromkeys(kept):
        want, got = kept.count(ln), out_lines.count(ln)
        if want != got:
            problems.append(f"line {ln.strip()!r} occurs {got} times in the output, {want} in the input")
    return problems


# --------------------------------------------------------------------------
# The whole check


def check_kernel(kernel: Path, config: Config) -> None:
    """Raise DifferentialFailure describing everything wrong with `kernel` under `config`."""
    source = kernel.read_text(errors="surrogateescape")  # a kernel may be Latin-1
    meta = parse_meta(source)
    tr = transform(kernel)
    header = f"{kernel.name} [{config.name}]"
    if tr.returncode != 0 or tr.output is None:
        raise DifferentialFailure(
            f"{header}: s2svec failed (exit {tr.returncode}, output "
            f"{'missing' if tr.output is None else 'present'}): {shlex.join(tr.command)}\n"
            f"{_clip(tr.stderr)}")
    problems = check_report(tr.report, meta, config.target, tr.report_error)
    active = preprocessed_own_text(tr.output_path, config, meta) if meta.vectorized else None
    problems += check_output_text(source, tr.output, meta, config, active)

    ref_bin = _ref_directory(kernel) / f"ref-{config.name}"
    cand_bin = tr.directory / f"cand-{config.name}"
    compile_c(kernel, ref_bin, config, meta, ("-lm",))
    compile_c(tr.output_path, cand_bin, config, meta, config.candidate_libs)
    ref_rc, ref_out = run_binary(ref_bin, config)
    if ref_rc != 0:
        raise DifferentialFailure(f"{header}: the reference itself exits {ref_rc} (kernel bug)")
    cand_rc, cand_out = run_binary(cand_bin, config)
    if cand_rc != 0:
        problems.append(f"candidate exits {cand_rc} (reference 0)" +
                        (" — signal: crash, e.g. an access past the end" if cand_rc < 0 else ""))
    problems += compare_outputs(ref_out, cand_out, meta)
    if problems:
        raise DifferentialFailure(
            f"{header}: {len(problems)} problem(s); output {tr.output_path}\n" +
            "\n".join("- " + p for p in problems) +
            (f"\ns2svec stderr:\n{_clip(tr.stderr, 1500)}" if tr.stderr.strip() else ""))


def check_reference(kernel: Path, config: Config) -> str:
    """Build and run only the reference (to validate kernels before s2svec works)."""
    meta = parse_meta(kernel.read_text(errors="surrogateescape"))
    ref_bin = _ref_directory(kernel) / f"ref-{config.name}"
    compile_c(kernel, ref_bin, config, meta, ("-lm",))
    rc, out = run_binary(ref_bin, config)
    if rc != 0:
        raise DifferentialFailure(f"{kernel.name} [{config.name}]: reference exits {rc}")
    return out


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="kernel names or paths (default: all)")
    ap.add_argument("-c", "--config", action="append", choices=sorted(CONFIGS))
    ap.add_argument("--reference-only", action="store_true",
                    help="only build and run the original kernels")
    ap.add_argument("--clean", action="store_true", help="remove testsuite/.build first")
    ns = ap.parse_args(argv)
    if ns.clean:
        shutil.rmtree(BUILD, ignore_errors=True)
    kernels = [Path(k) if k.endswith(".c") else KERNELS / f"{k}.c" for k in ns.kernels] or list_kernels()
    configs = [CONFIGS[c] for c in ns.config or CONFIGS]
    failed = 0
    for k in kernels:
        for c in configs:
            try:
                check_reference(k, c) if ns.reference_only else check_kernel(k, c)
                print(f"PASS {k.stem} [{c.name}]")
            except DifferentialFailure as exc:
                failed += 1
                print(f"FAIL {exc}")
    print(f"{failed} failure(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
