"""Tests of the bench runner's parsing, checking and ratio logic (no timing is judged).

Run with `.venv/bin/pytest bench/test_run.py`; the end-to-end cases build the
saxpy kernel and run it once with one repetition (about a second each).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import shutil
import stat
import sys
from pathlib import Path

import pytest

# Loaded under a name of its own: testsuite/fuzz/run.py is also a module
# ``run`` on the path of the same pytest worker.
_spec = importlib.util.spec_from_file_location(
    "bench_run", Path(__file__).resolve().parent / "run.py"
)
assert _spec is not None and _spec.loader is not None
run = importlib.util.module_from_spec(_spec)
sys.modules["bench_run"] = run
_spec.loader.exec_module(run)


def result(median: float, checksum: float = 1.0):  # -> run.Result (a module loaded above)
    return run.Result(times_ns=[int(median)], checksums=[checksum])


# ---------------------------------------------------------------- parsing


def test_parse_header_reads_tolerance_and_class() -> None:
    text = "/* k\n * bench-rtol: 1e-9 (why)\n * bench-class: divergent\n */"
    assert run.parse_header(text) == (1e-9, "divergent")
    assert run.parse_header("bench-rtol: 0\nbench-class: control") == (0.0, "control")


@pytest.mark.parametrize(
    "text",
    [
        "bench-class: control",  # no tolerance
        "bench-rtol: 1e-9",  # no class
        "bench-rtol: 1e-9\nbench-class: fast",  # unknown class
        "bench-rtol: abc\nbench-class: control",  # not a number
        "bench-rtol: 2\nbench-class: control",  # not a relative tolerance
    ],
)
def test_parse_header_rejects_incomplete_headers(text: str) -> None:
    with pytest.raises(ValueError):
        run.parse_header(text)


def test_every_kernel_states_tolerance_and_class() -> None:
    kernels = run.find_kernels(None)
    assert {k.kind for k in kernels} == set(run.KERNEL_CLASSES)
    for kernel in kernels:
        assert 0.0 <= kernel.rtol < 1e-3, kernel.name


def test_parse_run_output() -> None:
    out = "kernel k n=4 reps=1\ntime_ns 120\ncpu_ns 100\nchecksum 12057565\n"
    assert run.parse_run_output(out) == (120, 100, 12057565.0)
    with pytest.raises(ValueError):
        run.parse_run_output("time_ns 120\nchecksum 1.5\n")  # no cpu_ns


def test_target_flags() -> None:
    assert "-mno-avx512f" in run.TARGETS["avx2"].march
    assert run.TARGETS["avx2"].s2svec_targets == "avx2"
    # the AVX-512 output also holds the AVX2 branch (a build without AVX-512)
    assert "avx2" in run.TARGETS["avx512"].s2svec_targets.split(",")
    assert run.host_target() in run.TARGETS


def test_bad_usage_exits_2() -> None:
    for argv in (["--variants", "gcc"], ["--target", "sse"], ["--repeats", "0"]):
        with pytest.raises(SystemExit) as exc:
            run.parse_args(argv)
        assert exc.value.code == 2


# ---------------------------------------------------------------- verification


def test_close_enough_is_relative_and_exact_at_zero_rtol() -> None:
    assert run.close_enough(1000.0, 1000.0 + 1e-7, 1e-9)
    assert not run.close_enough(1000.0, 1000.0 + 1e-5, 1e-9)
    assert not run.close_enough(1.0, 1.0 + 2**-52, 0.0)
    assert run.close_enough(12057565.0, 12057565.0, 0.0)


def test_verify_flags_only_the_wrong_variant() -> None:
    kernel = run.Kernel("k", Path("k.c"), 1e-9, "control")
    results = {"scalar": result(10, 5.0), "gcc": result(5, 5.0), "s2s-gcc": result(4, 5.1)}
    run.verify(kernel, results)
    assert results["gcc"].mismatch is None
    assert results["s2s-gcc"].mismatch is not None
    assert run.speedup(results, "s2s-gcc") is None
    assert run.speedup(results, "gcc") == 2.0


def test_verify_exact_kernel_rejects_any_difference() -> None:
    kernel = run.Kernel("k", Path("k.c"), 0.0, "divergent")
    results = {"scalar": result(10, 257816.0), "s2s-gcc": result(4, 257817.0)}
    run.verify(kernel, results)
    assert "exact" in (results["s2s-gcc"].mismatch or "")


def test_verify_checks_every_run_not_only_the_first() -> None:
    kernel = run.Kernel("k", Path("k.c"), 0.0, "divergent")
    flaky = run.Result(times_ns=[4, 4], checksums=[7.0, 8.0])
    results = {"scalar": result(10, 7.0), "s2s-gcc": flaky}
    run.verify(kernel, results)
    assert flaky.mismatch is not None


# ---------------------------------------------------------------- ratios


def test_s2s_vs_best_takes_the_fastest_of_each_family() -> None:
    results = {
        "scalar": result(100),
        "gcc": result(30),
        "gcc-fast": result(25),
        "clang": result(20),
        "clang-fast": result(50),
        "s2s-gcc": result(10),
        "s2s-clang": result(40),
    }
    assert run.fastest(results, "compiler") == "clang"
    assert run.fastest(results, "s2s") == "s2s-gcc"
    assert run.s2s_vs_best(results) == 2.0


def test_wrong_or_failed_builds_do_not_count_as_fastest() -> None:
    wrong = result(1)
    wrong.mismatch = "checksum differs"
    results = {
        "scalar": result(100),
        "gcc": result(50),
        "clang-fast": wrong,
        "s2s-gcc": run.Result(error="build failed"),
        "s2s-clang": result(25),
    }
    assert run.fastest(results, "compiler") == "gcc"
    assert run.s2s_vs_best(results) == 2.0


def test_s2s_vs_hand_takes_the_fastest_hand_build() -> None:
    results = {
        "scalar": result(100),
        "gcc": result(50),
        "s2s-gcc": result(20),
        "s2s-clang": result(30),
        "hand": result(25),
        "hand-clang": result(10),
    }
    assert run.fastest(results, "hand") == "hand-clang"
    assert run.s2s_vs_hand(results) == 0.5
    assert run.s2s_vs_best(results) == 2.5  # the hand builds are no compiler builds
    del results["hand"], results["hand-clang"]  # a kernel without a hand version
    assert run.s2s_vs_hand(results) is None


def test_implausible_speedup_is_reported() -> None:
    kernel = run.Kernel("k", Path("k.c"), 0.0, "control")
    results = {"scalar": result(100_000), "clang": result(20), "gcc": result(25_000)}
    assert run.warn_implausible(kernel, results) == ["clang"]


def test_geomean_has_no_partial_means() -> None:
    assert run.geomean_or_none([2.0, 8.0]) == pytest.approx(4.0)
    assert run.geomean_or_none([2.0, None]) is None
    assert run.geomean_or_none([]) is None


def test_class_geomean_uses_only_that_class() -> None:
    fast = run.Kernel("a", Path("a.c"), 0.0, "divergent")
    slow = run.Kernel("b", Path("b.c"), 0.0, "divergent")
    results = {
        "a": {"scalar": result(100), "s2s-gcc": result(25)},
        "b": {"scalar": result(100), "s2s-gcc": result(100)},
    }
    assert run.class_geomean([fast, slow], results, "s2s-gcc") == pytest.approx(2.0)


def test_vec_summary_names_targets_and_scalar_loops() -> None:
    kernel = run.Kernel("k", Path("k.c"), 0.0, "divergent")
    kernel.s2s_report = [
        {"target": "avx512", "vectorized": True, "width": 8},
        {"target": "avx2", "vectorized": False, "width": 1},
    ]
    assert run.vec_summary(kernel) == "avx512:8,avx2:scalar"


# ---------------------------------------------------------------- end to end


def fake_s2svec(tmp_path: Path, edit: str) -> str:
    """A stand-in s2svec that copies the input through sed and writes a report."""
    script = tmp_path / "fake_s2svec"
    script.write_text(
        "#!/bin/sh\nin=$1; shift\n"
        "while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift;; "
        "--report-file) rep=$2; shift;; esac; shift; done\n"
        f'sed \'{edit}\' "$in" > "$out"\n'
        'echo \'[{"target": "avx512", "vectorized": true, "width": 16}]\' > "$rep"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not installed")


def quick_run(tmp_path: Path, s2svec: str, *extra: str) -> int:
    return run.main(
        [
            "--kernels",
            "saxpy",
            "--repeats",
            "1",
            "--kernel-reps",
            "1",
            "--variants",
            "scalar,s2s-gcc",
            "--build-dir",
            str(tmp_path),
            "--s2svec",
            s2svec,
            *extra,
        ]
    )


@needs_gcc
def test_matching_run_exits_0_and_writes_json(tmp_path: Path) -> None:
    out_json = tmp_path / "r.json"
    assert quick_run(tmp_path, fake_s2svec(tmp_path, "s/x/x/"), "--json", str(out_json)) == 0
    data = json.loads(out_json.read_text())
    saxpy = data["kernels"]["saxpy"]
    assert saxpy["variants"]["s2s-gcc"]["mismatch"] is None
    assert saxpy["variants"]["s2s-gcc"]["speedup"] > 0
    assert saxpy["class"] == "control"


@needs_gcc
def test_wrong_result_exits_1(tmp_path: Path) -> None:
    wrong = fake_s2svec(tmp_path, "s/a \\* x\\[i\\]/a * x[i] * 1.5f/")
    assert quick_run(tmp_path, wrong) == 1


@needs_gcc
def test_failing_s2svec_exits_1(tmp_path: Path) -> None:
    assert quick_run(tmp_path, "false") == 1


@needs_gcc
def test_plot_writes_png_and_svg(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="bench/run.sh installs it (setup.cfg 'bench')")
    stem = tmp_path / "speedup"
    assert quick_run(tmp_path, fake_s2svec(tmp_path, "s/x/x/"), "--plot", str(stem)) == 0
    assert (tmp_path / "speedup.png").read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in (tmp_path / "speedup.svg").read_bytes()


# ---------------------------------------------------------------- hand-written versions

SAXPY_HAND = """#include <immintrin.h>
__attribute__((noinline))
void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i]%s;
}
"""


def test_hand_versions_are_found_per_target() -> None:
    kernels = {k.name: k for k in run.find_kernels(None)}
    have = {
        name for name, k in kernels.items() if run.hand_file(k, run.TARGETS["avx512"]) is not None
    }
    assert len(have) >= 3
    assert all(kernels[n].kind == "divergent" for n in have)
    assert run.hand_file(kernels["saxpy"], run.TARGETS["avx512"]) is None
    for path in (run.HAND_DIR).glob("*/*.c"):  # every hand file replaces a kernel
        assert path.parent.name in run.TARGETS, path
        assert path.stem in kernels, path


@pytest.mark.parametrize("path", sorted(run.HAND_DIR.glob("*/*.c")), ids=lambda p: p.stem)
def test_hand_program_keeps_the_kernel_harness(path: Path) -> None:
    kernel = run.KERNEL_DIR / path.name
    text = run.hand_program(kernel, path)
    start, end = run.function_span(kernel.read_text())
    original = kernel.read_text()
    assert original[:start] in text and original[end:] in text  # harness unchanged
    assert original[start:end] not in text  # the kernel's own function is gone
    assert text.count("__attribute__((noinline))") == 1
    assert f'#line 1 "bench/hand/{path.parent.name}/{path.name}"' in text


def test_hand_program_rejects_another_function(tmp_path: Path) -> None:
    hand = tmp_path / "saxpy.c"
    hand.write_text(SAXPY_HAND.replace("void saxpy", "void daxpy") % "")
    with pytest.raises(ValueError, match="daxpy"):
        run.hand_program(run.KERNEL_DIR / "saxpy.c", hand)


def test_function_span_balances_braces() -> None:
    text = "int g;\n__attribute__((noinline))\nvoid f(void)\n{\n    if (g) { g++; }\n}\nint main"
    start, end = run.function_span(text)
    assert text[start:end].endswith("}\n}") and text[end:] == "\nint main"
    with pytest.raises(ValueError):
        run.function_span("__attribute__((noinline)) void f(void) { {")


def hand_table(results: dict, names: list[str] | None = None) -> str:
    """The table print_table prints for one divergent kernel 'k'."""
    kernel = run.Kernel("k", Path("k.c"), 0.0, "divergent")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run.print_table([kernel], {"k": results}, names or list(results))
    return out.getvalue()


def table_row(text: str, first: str) -> list[str]:
    return next(line for line in text.splitlines() if line.startswith(first + " ")).split()


def test_table_has_an_s2s_hand_column_only_with_hand_variants() -> None:
    both = {"scalar": result(100), "gcc": result(50), "s2s-gcc": result(20), "hand": result(10)}
    text = hand_table(both)
    assert table_row(text, "kernel")[-5:-2] == ["s2s/best", "s2s/hand", "noise"]
    assert table_row(text, "k")[-4:-2] == ["2.50x", "0.50x"]  # s2s/best, s2s/hand
    del both["hand"]
    assert "s2s/hand" not in hand_table(both)


def test_table_shows_a_dash_for_a_kernel_without_hand_version() -> None:
    results = {"scalar": result(100), "s2s-gcc": result(20)}  # build_kernel made no 'hand'
    assert run.cell(results, "hand") == "-"
    text = hand_table(results, ["scalar", "s2s-gcc", "hand"])
    assert table_row(text, "k")[2:4] == ["5.00x", "-"]  # s2s-gcc, hand
    assert "s2s/hand" in text


@needs_gcc
def test_missing_hand_version_is_not_a_failure(tmp_path: Path) -> None:
    out_json = tmp_path / "r.json"
    s2s = fake_s2svec(tmp_path, "s/x/x/")
    argv = ("--variants", "scalar,s2s-gcc,hand", "--json", str(out_json))
    assert quick_run(tmp_path, s2s, *argv) == 0
    saxpy = json.loads(out_json.read_text())["kernels"]["saxpy"]
    assert "hand" not in saxpy["variants"]
    assert saxpy["hand_source"] is None and saxpy["s2s_vs_hand"] is None


@needs_gcc
@pytest.mark.parametrize(("edit", "status"), [("", 0), (" * 1.5f", 1)])
def test_hand_variant_is_built_and_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str, status: int
) -> None:
    hand_dir = tmp_path / "hand"
    for target in run.TARGETS:
        (hand_dir / target).mkdir(parents=True)
        (hand_dir / target / "saxpy.c").write_text(SAXPY_HAND % edit)
    monkeypatch.setattr(run, "HAND_DIR", hand_dir)
    out_json = tmp_path / "r.json"
    s2s = fake_s2svec(tmp_path, "s/x/x/")
    argv = ("--variants", "scalar,s2s-gcc,hand", "--json", str(out_json))
    assert quick_run(tmp_path, s2s, *argv) == status
    saxpy = json.loads(out_json.read_text())["kernels"]["saxpy"]
    hand = saxpy["variants"]["hand"]
    assert hand["error"] is None
    assert (hand["mismatch"] is None) == (status == 0)
    assert saxpy["hand_source"].endswith("hand/" + run.host_target() + "/saxpy.c")
    assert (saxpy["s2s_vs_hand"] is None) == (status == 1)


@needs_gcc
@pytest.mark.skipif(run.host_target() != "avx512", reason="the hand versions need AVX-512")
def test_a_real_hand_version_matches_the_scalar_build(tmp_path: Path) -> None:
    argv = ["--kernels", "iterlog", "--repeats", "1", "--kernel-reps", "1"]
    argv += ["--variants", "scalar,hand", "--build-dir", str(tmp_path), "--target", "avx512"]
    assert run.main(argv) == 0
