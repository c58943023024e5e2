"""The bench's correctness run for emulated targets (bench/run.py --emulate).

Each scalable target's output of two bench kernels (a divergent one, a
plain one) is built once and run under qemu at every vector length of the
target, the checksums compared with the scalar build's; a checksum that
differs at one length must fail the run.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# A module name of its own: testsuite/fuzz/run.py is a module ``run`` too.
_spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_run"] = bench
_spec.loader.exec_module(bench)


def _tools(name: str) -> list[str]:
    em = bench.EMULATED[name]
    return [t for t in {em.ref[0], em.out[0], *(r[0] for _, r in em.runs)} if not shutil.which(t)]


@pytest.mark.parametrize("target", ["sve", "rvv"])
def test_emulated_output_matches_at_every_vector_length(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if _tools(target):
        pytest.skip(f"needs {', '.join(_tools(target))} (scripts/setup.sh installs them)")
    kernels = bench.find_kernels(["mandel_f", "saxpy"])
    tool = bench.s2svec_command(None)
    status = bench.check_emulated(target, kernels, tool, tmp_path)
    out = capsys.readouterr().out
    assert status == 0, out
    longest = {"sve": "2048-bit", "rvv": "VLEN 1024"}[target]
    assert out.count("match") == 2 and longest in out, out


def test_a_checksum_differing_at_one_vector_length_fails(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    if _tools("sve"):
        pytest.skip(f"needs {', '.join(_tools('sve'))} (scripts/setup.sh installs them)")
    kernel = bench.find_kernels(["saxpy"])[0]
    real = bench.run_binary

    def wrong_at_512(cmd: list[str]) -> tuple[int, int, float]:
        got = real(cmd)
        return (
            (got[0], got[1], got[2] * 2 + 1) if "max,sve-default-vector-length=64" in cmd else got
        )

    monkeypatch.setattr(bench, "run_binary", wrong_at_512)
    status = bench.emulated_status("sve", kernel, bench.s2svec_command(None), tmp_path)
    assert status.startswith("MISMATCH at 512-bit"), status
