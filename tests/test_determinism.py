"""s2svec writes the same output for the same input on every run (make and
ccache rely on it).  Sets of IR objects iterate in the order of their
addresses, which differ from run to run: a pass that walked ``set(users)``
made the refill region of xs_lookup with one phi or two on different runs;
the counter promotion of AVX2 code walked a set of instructions."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_no_pass_iterates_over_a_set() -> None:
    """Deduplicate with ``dict.fromkeys`` (insertion order), never ``set``."""
    loops = re.compile(r"\bfor\b[^\n]*\bin\s+(set|frozenset)\(")
    offenders = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sorted((ROOT / "s2s").rglob("*.py"))
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if loops.search(line)
    ]
    assert not offenders, offenders


@pytest.mark.parametrize(
    "src",
    [
        ROOT / "bench" / "kernels" / "xs_lookup.c",  # refill: SSA repair of many uses
        # AVX2 counters kept in the masks' width (codegen/promote_counters.py
        # walked a set: its casts and splats came in a different order)
        ROOT / "testsuite" / "kernels" / "divergent_liveout_types.c",
    ],
    ids=lambda p: p.stem,
)
def test_same_output_on_every_run(tmp_path: Path, src: Path) -> None:
    outputs = set()
    for run in range(4):
        out = tmp_path / f"out{run}.c"
        subprocess.run(
            [sys.executable, "-m", "s2s", "-I", str(ROOT / "testsuite"), str(src)]
            + ["-o", str(out), "--target", "avx2"],
            check=True,
            capture_output=True,
        )
        outputs.add(out.read_text())
    assert len(outputs) == 1
