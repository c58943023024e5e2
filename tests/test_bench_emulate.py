"""The bench's emulated-target runs (bench/run.py --emulate): correctness, instruction counts.

Each scalable target's output of two bench kernels (a divergent one, a
plain one) is built once and run under qemu at every vector length of the
target, the checksums compared with the scalar build's; a checksum that
differs at one length must fail the run.  Instruction counts
(--count-instructions) are read from a hand-written qemu log, and measured
on saxpy: the scalar build runs more instructions than s2svec's vector code,
and two repetitions run twice the instructions of one.
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


# A qemu -d in_asm,exec,nochain log: main calls the kernel (a gcc clone of
# it), which calls log; main then calls log itself, and the kernel again.
QEMU_LOG = """\
----------------
IN: main
0x00400100:  94000010  bl       #0x400140

Trace 0: 0x7f0000000100 [0000000000000000/0000000000400100/00000001/00000200] main
----------------
IN: kernel.constprop.0
0x00400140:  d2800000  movz     x0, #0
0x00400144:  94000020  bl       #0x4001c4

Trace 0: 0x7f0000000200 [0000000000000000/0000000000400140/00000001/00000200] kernel.constprop.0
----------------
IN: log
0x004001c4:  d503201f  nop
0x004001c8:  d65f03c0  ret

Trace 0: 0x7f0000000300 [0000000000000000/00000000004001c4/00000001/00000200] log
----------------
IN: kernel.constprop.0
0x00400148:  d65f03c0  ret

Trace 0: 0x7f0000000400 [0000000000000000/0000000000400148/00000001/00000200] kernel.constprop.0
----------------
IN: main
0x00400104:  d503201f  nop
0x00400108:  94000010  bl       #0x4001c4

Trace 0: 0x7f0000000500 [0000000000000000/0000000000400104/00000001/00000200] main
Trace 0: 0x7f0000000300 [0000000000000000/00000000004001c4/00000001/00000200] log
"""
CALL_AGAIN = "\n".join(line for line in QEMU_LOG.splitlines() if line.startswith("Trace")) + "\n"


def test_instruction_count_follows_the_kernel_into_callees_and_stops_at_its_return() -> None:
    # kernel 2 + log 2 + kernel 1; main's own instructions and log call are not counted
    assert bench.count_in_log(QEMU_LOG.splitlines(True), "kernel") == 5
    assert bench.count_in_log((QEMU_LOG + CALL_AGAIN).splitlines(True), "kernel") == 10


def test_the_kernel_function_is_the_noinline_one() -> None:
    names = {k.name: bench.kernel_function(k.source.read_text()) for k in bench.find_kernels(None)}
    assert names["saxpy"] == "saxpy" and names["mandel_f"] == "mandel_row", names


@pytest.mark.parametrize("target", ["sve", "rvv"])
def test_instruction_counts_of_saxpy(target: str, tmp_path: Path) -> None:
    if _tools(target):
        pytest.skip(f"needs {', '.join(_tools(target))} (scripts/setup.sh installs them)")
    kernel = bench.find_kernels(["saxpy"])[0]
    tool = bench.s2svec_command(None)
    once = bench.count_kernel(target, kernel, tool, tmp_path)
    twice = bench.count_kernel(target, kernel, tool, tmp_path, reps=2)
    assert once.error is None and twice.error is None, (once.error, twice.error)
    shortest, longest = bench.EMULATED[target].runs[0][0], bench.EMULATED[target].runs[-1][0]
    assert once.scalar and once.scalar > 4 * once.s2s[longest], once
    assert once.s2s[longest] < once.s2s[shortest], once  # more lanes, fewer trips
    assert twice.scalar and abs(twice.scalar - 2 * once.scalar) <= 0.01 * once.scalar
    for table, table2 in ((once.compiler, twice.compiler), (once.s2s, twice.s2s)):
        for length, count in table.items():
            assert count > 0 and abs(table2[length] - 2 * count) <= 0.01 * count, (length, once)
