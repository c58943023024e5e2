"""The fixed-seed fuzz batch: generated programs checked differentially.

Each of the 130 programs (testsuite/fuzz/generate.py, the smaller CI size:
1-3 annotated loops of 2-6 statements) goes through s2svec and is built and
run with three configurations of the matrix, one per vector branch (x86
AVX2, x86 AVX-512, and NEON, SVE or RISC-V V under qemu), rotated over the
seeds so that every configuration sees many programs (``run.rotation``); the
output must equal the reference's exactly (float reductions within their
stated tolerance).  Any failure fails the test: a wrong result, a crash or
error of s2svec, a compiler error or crash, a hang, or a reference that does
not run (a generator bug).  Nothing is skipped.  Most programs hold
divergent control flow (loops with per-lane trip counts and several exits,
break out of nested loops, continue, switch, per-lane stacks and histograms,
short-circuit guards) and calls to declare simd
functions; test_batch_holds_the_divergent_constructs keeps it so.

    .venv/bin/pytest -q -n 2 tests/test_fuzz.py
    .venv/bin/pytest -q tests/test_fuzz.py -k 'seed_17]'
    .venv/bin/python testsuite/fuzz/run.py --small --seeds 17 --configs all  # a seed, whole matrix
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite" / "fuzz"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import run
from generate import generate
from test_fuzz_generator import (
    BUILD_FEATURES,
    DECLARE_SIMD_FEATURES,
    DIVERGENT_FEATURES,
    PRAGMA_FORMS,
)

CI_SEEDS = range(130)
CONFIGS_PER_SEED = 3
RUN_TIMEOUT = 20.0  # seconds; a program's reference runs in well under one (qemu included)


@pytest.mark.parametrize("seed", CI_SEEDS, ids=lambda s: f"seed_{s}")
def test_generated_program(seed: int) -> None:
    configs = run.rotation(seed, CONFIGS_PER_SEED)
    assert len(configs) == CONFIGS_PER_SEED or len(run.config_groups()) < CONFIGS_PER_SEED
    result = run.run_program(seed, configs, options=run.CI_OPTIONS, run_timeout=RUN_TIMEOUT)
    assert [c.config for c in result.results] == configs
    problems = [
        f"{c.config} ({run.dt.CONFIGS[c.config].describe()}): {c.kind}\n{c.detail}"
        for c in result.failures
    ]
    assert not problems, (
        f"fuzz seed {seed} ({result.source}; regenerate with "
        f"python testsuite/fuzz/generate.py {seed} --small):\n" + "\n\n".join(problems)
    )


def test_batch_covers_every_configuration() -> None:
    """Over the CI seeds every runnable configuration sees at least 10 programs."""
    seen: dict[str, int] = {}
    for seed in CI_SEEDS:
        for name in run.rotation(seed, CONFIGS_PER_SEED):
            seen[name] = seen.get(name, 0) + 1
    runnable = {n for g in run.config_groups() for n in g}
    assert set(seen) == runnable
    assert min(seen.values()) >= 10, seen


def test_batch_holds_the_divergent_constructs() -> None:
    """Each divergent construct and declare simd call kind is in at least 10
    programs of the batch (a change of weights or sizes must not drop one)."""
    seen: dict[str, int] = {}
    for seed in CI_SEEDS:
        for f in generate(seed, run.CI_OPTIONS).features:
            seen[f] = seen.get(f, 0) + 1
    few = {
        f: seen.get(f, 0)
        for f in DIVERGENT_FEATURES + DECLARE_SIMD_FEATURES + BUILD_FEATURES + PRAGMA_FORMS
        if seen.get(f, 0) < 10
    }
    assert not few, f"constructs in fewer than 10 of the {len(CI_SEEDS)} CI programs: {few}"
