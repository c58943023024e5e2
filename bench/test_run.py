"""Tests of the bench runner's checking logic (no timing is judged here).

Run with `.venv/bin/pytest bench/test_run.py`; the end-to-end cases build and
run the saxpy kernel once (about a second).
"""
from __future__ import annotations

import json
import shutil
import stat
import sys
import xml.dom.minidom
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402


def test_close_enough_is_relative_and_exact_at_zero_rtol() -> None:
    assert run.close_enough(1000.0, 1000.0 + 1e-7, 1e-9)
    assert not run.close_enough(1000.0, 1000.0 + 1e-5, 1e-9)
    assert not run.close_enough(1.0, 1.0 + 2**-52, 0.0)


def test_every_kernel_states_a_tolerance() -> None:
    for kernel in run.find_kernels(None):
        assert 0.0 < kernel.rtol < 1e-3, kernel.name


def test_verify_flags_only_the_wrong_variant() -> None:
    kernel = run.Kernel("k", Path("k.c"), 1e-9)
    results = {"scalar": run.Result(times_ns=[10], checksums=[5.0]),
               "gcc-omp": run.Result(times_ns=[5], checksums=[5.0]),
               "s2s-gcc": run.Result(times_ns=[4], checksums=[5.1])}
    run.verify(kernel, results)
    assert results["gcc-omp"].mismatch is None
    assert results["s2s-gcc"].mismatch is not None
    assert run.speedup(results, "s2s-gcc") is None
    assert run.speedup(results, "gcc-omp") == 2.0


def test_s2s_vs_best_compares_the_faster_of_each_side() -> None:
    results = {"gcc-omp": run.Result(times_ns=[30]), "clang-omp": run.Result(times_ns=[20]),
               "s2s-gcc": run.Result(times_ns=[10]), "s2s-clang": run.Result(times_ns=[40])}
    assert run.s2s_vs_best(results) == 2.0


def fake_s2svec(tmp_path: Path, edit: str) -> str:
    """A stand-in s2svec that copies the input through sed and writes a report."""
    script = tmp_path / "fake_s2svec"
    script.write_text(
        "#!/bin/sh\nin=$1; shift\n"
        "while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift;; "
        "--report-file) rep=$2; shift;; esac; shift; done\n"
        f"sed '{edit}' \"$in\" > \"$out\"\n"
        "echo '[{\"vectorized\": true, \"width\": 16}]' > \"$rep\"\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not installed")


@needs_gcc
def test_matching_run_exits_0_and_writes_json_and_svg(tmp_path: Path) -> None:
    out_json, out_svg = tmp_path / "r.json", tmp_path / "r.svg"
    status = run.main(["--kernels", "saxpy", "--repeats", "1",
                       "--variants", "scalar,s2s-gcc", "--build-dir", str(tmp_path),
                       "--s2svec", fake_s2svec(tmp_path, "s/x/x/"),
                       "--json", str(out_json), "--plot", str(out_svg)])
    assert status == 0
    data = json.loads(out_json.read_text())
    assert data["kernels"]["saxpy"]["variants"]["s2s-gcc"]["mismatch"] is None
    xml.dom.minidom.parse(str(out_svg))


@needs_gcc
def test_wrong_result_exits_1(tmp_path: Path) -> None:
    wrong = fake_s2svec(tmp_path, "s/a \\* x\\[i\\]/a * x[i] * 1.5f/")
    status = run.main(["--kernels", "saxpy", "--repeats", "1",
                       "--variants", "scalar,s2s-gcc", "--build-dir", str(tmp_path),
                       "--s2svec", wrong])
    assert status == 1


@needs_gcc
def test_failing_s2svec_exits_1(tmp_path: Path) -> None:
    status = run.main(["--kernels", "saxpy", "--repeats", "1",
                       "--variants", "scalar,s2s-gcc", "--build-dir", str(tmp_path),
                       "--s2svec", "false"])
    assert status == 1
