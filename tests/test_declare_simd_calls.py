"""Which declare simd variant a vectorized loop calls (the report's
``calls``), beyond the differential kernels' results: a loop whose width is
not the default simdlen of its own ISA's variants calls another ISA's
variant of its width when that variant's registers hold the loop's vectors
as they are (testsuite/kernels/declare_simd_other_isa.c: a double loop of 4
lanes on AVX2 calls float ``halve``'s SSE variant ``_ZGVbN4v_halve``, as
gcc does); masked calls only where both sides pass masks alike; a loop
takes the lanes of variants narrower than its default width
(testsuite/kernels/declare_simd_narrower_variant.c)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "testsuite" / "kernels" / "declare_simd_other_isa.c"


def _loop_calls(kernel: Path, tmp_path: Path) -> tuple[list[dict[str, Any]], str]:
    """The report entries of the loops, and the output."""
    report = tmp_path / "r.json"
    out = tmp_path / "o.c"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "s2s",
            str(kernel),
            "-o",
            str(out),
            "-I",
            str(ROOT / "testsuite"),
            "--report=json",
            "--report-file",
            str(report),
            "--target",
            "avx512,avx2,neon",  # the fixed-width variants (b, c, d, e, n)
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    loops = [e for e in json.loads(report.read_text()) if e.get("kind") != "function"]
    return loops, out.read_text()


def test_loops_call_other_isa_variants_of_their_width(tmp_path: Path) -> None:
    entries, text = _loop_calls(KERNEL, tmp_path)
    loops = {(e["name"].partition(":")[0], e["target"]): e for e in entries}
    calls = {
        key: (e["width"], e["calls"].get("vector_variant", 0), e["calls"].get("serialized", 0))
        for key, e in loops.items()
    }
    # the masked call's arm stores contiguously: on avx2 and neon it has an
    # all-true copy (transform.all_true) calling the unmasked variant; the
    # report counts the calls of the source, each once (the two names are
    # the call site's detail, checked in the text below)
    assert calls == {
        ("mixed", "avx2"): (4, 1, 0),
        ("masked", "avx2"): (4, 1, 0),
        ("mixed", "avx512"): (8, 1, 0),
        ("masked", "avx512"): (8, 0, 1),
        ("mixed", "neon"): (2, 1, 0),
        ("masked", "neon"): (2, 1, 0),
    }
    for name in ("_ZGVbN4v_halve((__m128)", "_ZGVbM4v_halve((__m128)", "_ZGVdN8v_halve((__m256)"):
        assert name in text, name


def test_loops_take_the_lanes_of_narrower_variants(tmp_path: Path) -> None:
    """simdlen(4) functions called from int and float loops: the loops run
    4 lanes on AVX-512 and AVX2 (16 and 8 by default) and call the variants,
    the masked one also from AVX2's all-true copy (every lane set)."""
    kernel = ROOT / "testsuite" / "kernels" / "declare_simd_narrower_variant.c"
    loops, text = _loop_calls(kernel, tmp_path)
    calls = {
        (e["line"], e["target"]): (
            e["width"],
            e["calls"]["vector_variant"],
            e["calls"]["serialized"],
        )
        for e in loops
    }
    assert calls == {
        (line, target): (4, 1, 0) for line in (25, 28) for target in ("avx512", "avx2", "neon")
    }
    for name in ("_ZGVeN4vv_mix(", "_ZGVeM4vu_scale(", "_ZGVdM4vu_scale(", "_ZGVnM4vu_scale("):
        assert name in text, name
