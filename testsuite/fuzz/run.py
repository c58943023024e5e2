"""Run generated programs through s2svec and the build matrix; summarize failures.

    python testsuite/fuzz/run.py --count 100 [--start SEED] [--jobs 2]
                                 [--configs rotate:3|main|all|NAME,...] [--out DIR]

Each program (testsuite/fuzz/generate.py, one per seed) is checked like a
testsuite kernel by testsuite/differential.py's ``check_source``: s2svec
runs once per output variant (with only the targets the chosen
configurations compile; the kernels check the output with every target), the
original is built and run once per ABI, and the candidate is built and run
for every chosen configuration and compared exactly (float reductions within
their stated tolerance). Each failure is classified (s2svec crash or error
exit, compile error, compiler crash, wrong output, candidate crash, timeout,
or a broken reference, which is a generator bug); the reasons s2svec gave
for loops it left scalar are collected. With ``--out DIR`` failing programs
are kept as ``DIR/failures/seed<N>.c`` with ``seed<N>.txt`` (what failed and
how), and the summary goes to ``DIR/summary.txt`` and ``DIR/summary.json``.

Configurations per program: ``all`` (the whole matrix), ``main`` (the main
configurations), ``rotate:K`` (K configurations chosen by seed so that
consecutive seeds cycle through every configuration: x86 AVX2 branch, x86
AVX-512 branch and the emulated targets, NEON, SVE and RISC-V V, in turn),
or a comma list of names (NAME+VARIANT:
an output variant of differential.py, e.g. gcc-v4+x2 for two vectors per
trip everywhere).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import shutil
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import differential as dt  # noqa: E402  found through the sys.path entry above
from generate import Options, generate, small_options  # noqa: E402  likewise

FUZZ_BUILD = dt.BUILD / "fuzz"
RUN_TIMEOUT = 60.0


@dataclass
class ConfigResult:
    config: str
    kind: str  # ok | skipped | a dt.Problem kind
    detail: str = ""


@dataclass
class ProgramResult:
    seed: int
    source: str
    features: list[str]
    results: list[ConfigResult]
    regions: int = 0
    vectorized: dict[str, int] = field(default_factory=dict)
    """Per target: regions vectorized."""
    reasons: list[str] = field(default_factory=list)
    """Why regions stayed scalar: one entry per region and target."""
    variants: list[int] = field(default_factory=lambda: [0, 0])
    """declare simd variants in the report: [vectorized, all]."""
    calls: dict[str, int] = field(default_factory=dict)
    """Calls in vectorized loops by how they went (vector_variant, serialized, ...)."""
    seconds: float = 0.0

    @property
    def failures(self) -> list[ConfigResult]:
        return [r for r in self.results if r.kind not in ("ok", "skipped")]


# ---------------------------------------------------------------------------
# Which configurations a program runs with


def config_groups() -> list[list[str]]:
    """Runnable configurations by the code they exercise: the AVX2 branch on
    x86, the AVX-512 branch, the emulated ones (NEON, SVE, RISC-V V under
    qemu; skipped ones left out)."""
    groups: dict[str, list[str]] = {"avx2": [], "avx512": [], "emulated": []}
    for name, cfg in dt.CONFIGS.items():
        group = "emulated" if cfg.target in ("neon", "sve", "rvv") else cfg.target
        if dt.skip_reason(cfg) is None and group in groups:
            groups[group].append(name)
    return [g for g in groups.values() if g]


def rotation(seed: int, count: int) -> list[str]:
    """`count` configurations for `seed`: the groups take slots in turn, and
    the m-th slot of a group that has `per` slots per seed takes member
    (seed * per + m) mod size, so consecutive seeds cycle through every
    configuration of every group equally often."""
    groups = config_groups()
    chosen: list[str] = []
    for slot in range(count):
        gi = slot % len(groups)
        g = groups[gi]
        per = len(range(gi, count, len(groups)))
        name = g[(seed * per + slot // len(groups)) % len(g)]
        if name not in chosen:
            chosen.append(name)
    return chosen


def _known(name: str) -> bool:
    try:
        dt.config_named(name)
    except KeyError:
        return False
    return True


def select_configs(spec: str, seed: int) -> list[str]:
    if spec == "all":
        return [n for n, c in dt.CONFIGS.items() if dt.skip_reason(c) is None]
    if spec == "main":
        return [n for n in dt.CONFIGS if n in dt.MAIN_CONFIGS]
    if spec.startswith("rotate"):
        _, _, k = spec.partition(":")
        return rotation(seed, int(k or 3))
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if not _known(n)]
    if unknown:
        raise ValueError(f"unknown configurations {unknown} (see differential.py --list-configs)")
    return names


# ---------------------------------------------------------------------------
# One program


def program_path(seed: int, build: Path = FUZZ_BUILD, options: Options | None = None) -> Path:
    """Write the program of `seed` and its headers (unchanged text is not
    rewritten: caching)."""
    build.mkdir(parents=True, exist_ok=True)
    path = build / f"fuzz{seed}.c"
    generate(seed, options).write(path)
    return path


CI_OPTIONS = small_options()
"""Smaller programs for the CI batch (tests/test_fuzz.py): 2 loops on average."""


def run_program(
    seed: int,
    configs: Iterable[str],
    build: Path = FUZZ_BUILD,
    options: Options | None = None,
    run_timeout: float = RUN_TIMEOUT,
) -> ProgramResult:
    start = time.monotonic()
    path = program_path(seed, build, options)
    prog_features = _features(path.read_text())
    results = []
    configs = list(configs)
    # One s2svec run with only the targets the chosen configurations compile
    # (s2svec is most of a program's time; the kernels keep the whole output).
    runnable = [c for c in map(dt.config_named, configs) if dt.skip_reason(c) is None]
    variant = dt.variant_of_targets(c.target for c in runnable if c.variant == "all" and c.target)
    narrowed = {c.name: replace(c, variant=variant) if c.variant == "all" else c for c in runnable}
    for name in configs:
        cfg = narrowed.get(name)
        if cfg is None:
            why = dt.skip_reason(dt.config_named(name))
            results.append(ConfigResult(name, "skipped", why or ""))
            continue
        problems = dt.check_source(path, cfg, build=build, run_timeout=run_timeout)
        if problems:
            detail = "\n".join(f"[{p.kind}] {p.text}" for p in problems)
            results.append(ConfigResult(name, problems[0].kind, detail))
        else:
            results.append(ConfigResult(name, "ok"))
    res = ProgramResult(seed, str(path), prog_features, results)
    read_report(res, dt.transform(path, variant, build).report or [])
    res.seconds = time.monotonic() - start
    return res


def read_report(res: ProgramResult, report: list[dict]) -> None:
    """Loops vectorized per target and why not; declare simd variants
    (entries of kind "function", one per variant and target) counted apart."""
    loops = [e for e in report if e.get("kind") != "function"]
    for e in loops:
        if e.get("vectorized"):
            res.vectorized[e["target"]] = res.vectorized.get(e["target"], 0) + 1
            for how, n in (e.get("calls") or {}).items():
                res.calls[how] = res.calls.get(how, 0) + n
        else:
            res.reasons.append(f"{e.get('target')}: {e.get('reason')}")
    # per target, one entry per loop (loops of one macro use share a line)
    per_target: dict[str, int] = {}
    for e in loops:
        per_target[e.get("target", "")] = per_target.get(e.get("target", ""), 0) + 1
    res.regions = max(per_target.values(), default=0)
    for e in report:
        if e.get("kind") == "function":
            res.variants[0] += bool(e.get("vectorized"))
            res.variants[1] += 1
            if not e.get("vectorized"):
                res.reasons.append(f"{e.get('target')}: declare simd function: {e.get('reason')}")


def _features(text: str) -> list[str]:
    m = re.search(r"\* features: ([^*]*)\*/", text)
    return m.group(1).split() if m else []


# ---------------------------------------------------------------------------
# Summaries


def normalize_reason(reason: str) -> str:
    """Group reasons that differ only in names, numbers and object ids."""
    r = re.sub(r"'[^']*'", "'…'", reason)
    r = re.sub(r"<[A-Za-z]+ \d+ : [^>]*>", "<value>", r)
    r = re.sub(r"\b\d+\b", "N", r)
    return r


def summarize(results: list[ProgramResult]) -> str:
    lines: list[str] = []
    n = len(results)
    failing = [r for r in results if r.failures]
    runs = collections.Counter()
    fails: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        for c in r.results:
            runs[c.config] += c.kind != "skipped"
            if c.kind not in ("ok", "skipped"):
                fails[c.config][c.kind] += 1
    lines.append(
        f"{n} programs, {len(failing)} with failures, "
        f"{sum(runs.values())} program x configuration runs"
    )
    lines.append("")
    lines.append("per configuration: runs, failures by kind")
    for name in [*dt.CONFIGS, *(n for n in runs if n not in dt.CONFIGS)]:
        if runs[name]:
            kinds = ", ".join(f"{k} {v}" for k, v in fails[name].most_common()) or "-"
            lines.append(f"  {name:24} {runs[name]:5}   {kinds}")
    if failing:
        lines.append("")
        lines.append("failing programs (seed: configuration kind; first line of the problem)")
        for r in failing:
            for c in r.failures:
                first = c.detail.splitlines()[0] if c.detail else ""
                lines.append(f"  seed {r.seed}: {c.config} {c.kind}; {first[:160]}")
    targets = sorted({t for r in results for t in r.vectorized} | {"avx2", "avx512", "neon"})
    regions = sum(r.regions for r in results)
    lines.append("")
    lines.append(
        f"annotated loops: {regions}; vectorized per target: "
        + ", ".join(f"{t} {sum(r.vectorized.get(t, 0) for r in results)}" for t in targets)
    )
    variants = [sum(r.variants[i] for r in results) for i in (0, 1)]
    calls = collections.Counter()
    for r in results:
        calls.update(r.calls)
    lines.append(
        f"declare simd variants vectorized: {variants[0]} of {variants[1]}; calls in "
        "vectorized loops: " + (", ".join(f"{k} {v}" for k, v in sorted(calls.items())) or "none")
    )
    reasons = collections.Counter(
        normalize_reason(x.split(": ", 1)[1]) for r in results for x in r.reasons
    )
    if reasons:
        lines.append("why loops stayed scalar (region x target, most common first):")
        for reason, count in reasons.most_common(20):
            lines.append(f"  {count:5}  {reason[:150]}")
    if failing:
        feats = collections.Counter(f for r in failing for f in r.features)
        every = collections.Counter(f for r in results for f in r.features)
        lines.append("")
        lines.append("features of failing programs (failing/all programs with it):")
        ranked = sorted(feats, key=lambda f: (-feats[f] / every[f], -feats[f]))
        lines.append("  " + ", ".join(f"{f} {feats[f]}/{every[f]}" for f in ranked[:25]))
    return "\n".join(lines)


def save_failure(r: ProgramResult, out: Path) -> None:
    d = out / "failures"
    d.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(r.source, d / f"seed{r.seed}.c")
    for header in re.findall(r'^#include "(fz_\w+\.h)"', Path(r.source).read_text(), re.M):
        shutil.copyfile(Path(r.source).with_name(header), d / header)  # the program's own
    text = [f"seed {r.seed}: python testsuite/fuzz/generate.py {r.seed}", ""]
    for c in r.failures:
        text += [f"== {c.config} ({dt.config_named(c.config).describe()}): {c.kind}", c.detail, ""]
    (d / f"seed{r.seed}.txt").write_text("\n".join(text))


# ---------------------------------------------------------------------------
# Command line


def seed_list(text: str) -> list[int]:
    """``1,5,10-20``: the seeds, ranges inclusive."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            first, _, last = part.strip().partition("-")
            seeds += range(int(first), int(last or first) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of seeds and ranges: {text!r}") from None
    return seeds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--count", type=int, default=20, help="number of programs")
    ap.add_argument(
        "--seeds",
        type=seed_list,
        help="explicit comma list of seeds and ranges A-B (overrides --start/--count)",
    )
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--configs",
        default="rotate:3",
        help="all | main | rotate[:K] | comma list (default rotate:3)",
    )
    ap.add_argument("--out", type=Path, help="keep failing programs and the summary here")
    ap.add_argument(
        "--keep-builds", action="store_true", help="keep build directories of passing programs"
    )
    ap.add_argument("--timeout", type=float, default=RUN_TIMEOUT, help="seconds per run")
    ap.add_argument(
        "--small",
        action="store_true",
        help="the CI batch's smaller programs (1-3 loops, 2-6 statements)",
    )
    ap.add_argument(
        "--no-narrow-index",
        action="store_true",
        help="generate.py --no-narrow-index (hide one known bug class)",
    )
    ns = ap.parse_args(argv)
    seeds = ns.seeds if ns.seeds else list(range(ns.start, ns.start + ns.count))
    build = (ns.out / "build") if ns.out else FUZZ_BUILD
    options = small_options() if ns.small else Options()
    if ns.no_narrow_index:
        options.narrow_index = False
        options.command += " --no-narrow-index"
    results: list[ProgramResult] = []

    def one(seed: int) -> ProgramResult:
        try:
            r = run_program(
                seed, select_configs(ns.configs, seed), build, options, run_timeout=ns.timeout
            )
        except Exception as exc:  # a runner bug must not end the campaign
            r = ProgramResult(seed, "", [], [ConfigResult("-", "runner", repr(exc))])
        if ns.out and r.failures and r.source:
            save_failure(r, ns.out)
        if ns.out and not ns.keep_builds and not r.failures:
            for d in build.glob(f"fuzz{seed}-*"):
                shutil.rmtree(d, ignore_errors=True)
            Path(build / f"fuzz{seed}.c").unlink(missing_ok=True)
        return r

    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, ns.jobs)) as pool:
        for r in pool.map(one, seeds):
            results.append(r)
            vec = sum(r.vectorized.values())
            status = (
                "ok"
                if not r.failures
                else "FAIL " + ", ".join(f"{c.config}: {c.kind}" for c in r.failures)
            )
            print(
                f"seed {r.seed}: {status}  ({len(r.results)} configs, {vec} of "
                f"{3 * r.regions} region-targets vectorized, {r.seconds:.1f}s)",
                flush=True,
            )
    summary = summarize(results) + f"\n\nwall time {time.monotonic() - t0:.0f}s"
    print()
    print(summary)
    if ns.out:
        ns.out.mkdir(parents=True, exist_ok=True)
        (ns.out / "summary.txt").write_text(summary + "\n")
        (ns.out / "summary.json").write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 1 if any(r.failures for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
