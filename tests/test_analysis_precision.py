"""The divergence analysis against the naive baseline on every testsuite kernel.

Naive = absolute control dependence (seed 001 Section 7.5): every value in a
block control dependent on a divergent branch is varying.  Our analysis must
give every value a shape at least as precise (lower or equal in the lattice),
and be strictly more precise somewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from s2s.analysis.divergence import compute_divergence
from s2s.analysis.naive import naive_divergence
from s2s.analysis.shapes import region_arg_shapes
from s2s.diagnostics import Unsupported
from s2s.frontend.lower import lower_loop
from s2s.frontend.parse import parse_file
from s2s.frontend.pragmas import find_pragmas
from s2s.transform.canonicalize import canonicalize

ROOT = Path(__file__).resolve().parent.parent
KERNELS = sorted((ROOT / "testsuite" / "kernels").glob("*.c")) + sorted(
    p for p in (ROOT / "bench").rglob("*.c") if "build" not in p.parts and "hand" not in p.parts
)


def command_line_defines(path: Path) -> list[str]:
    """The -D options a kernel's ``s2s-test: args="..."`` metadata passes."""
    m = re.search(r'args="([^"]*)"', path.read_text(errors="surrogateescape").split("\n", 1)[0])
    words = m.group(1).split() if m else []
    return [w[2:] or nxt for w, nxt in zip(words, words[1:] + [""]) if w.startswith("-D")]


def regions_of(path: Path):
    """Every kernel must parse: a parse failure fails the test."""
    # bench/app/diag's files are built in a copy of bench/app: its headers too
    includes = [str(path.parent), str(path.parent.parent), str(ROOT / "testsuite")]
    parsed = parse_file(str(path), includes, command_line_defines(path), "gnu17")
    out = []
    for pragma in find_pragmas(parsed):
        if pragma.clauses.directive == "declare simd":
            continue
        try:
            region = lower_loop(parsed, pragma)
            canonicalize(region.fn)
        except Unsupported:
            continue
        out.append(region)
    return out


def compare(region) -> tuple[int, int]:
    """(values where ours is strictly better, uniform values ours - naive)."""
    shapes = region_arg_shapes(region)  # as the pipeline starts from them
    ours = compute_divergence(region.fn, shapes)
    naive = naive_divergence(region.fn, shapes)
    better = 0
    for inst in region.fn.instructions():
        a, b = ours.shape_of(inst), naive.shape_of(inst)
        assert a <= b, f"{region.name}: %{inst.name} ours {a} naive {b}"
        better += a != b
    gained = sum(ours.shape_of(i).is_uniform for i in region.fn.instructions()) - sum(
        naive.shape_of(i).is_uniform for i in region.fn.instructions()
    )
    for block in region.fn.blocks:
        if ours.is_divergent_branch(block):
            assert naive.is_divergent_branch(block)
    return better, gained


BETTER: dict[Path, int] = {}


@pytest.mark.parametrize("path", KERNELS, ids=[p.name for p in KERNELS])
def test_at_least_as_precise_as_naive(path):
    BETTER[path] = sum(compare(region)[0] for region in regions_of(path))


def test_strictly_more_precise_on_some_kernel():
    for path in KERNELS:
        if path not in BETTER:  # run alone (e.g. with -k): analyze here
            BETTER[path] = sum(compare(region)[0] for region in regions_of(path))
        if BETTER[path] > 0:
            return
    pytest.fail("no kernel where the analysis beats the naive baseline")
