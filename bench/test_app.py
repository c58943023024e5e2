"""Tests of the application benchmark (bench/app): xsproxy builds plainly and
through s2svec-cc, its hash is the same for every build and thread count, and
the runner's checking, ratio and table code works.  No timing is judged.

Run with `.venv/bin/pytest bench/test_app.py`; the end-to-end cases build the
application at its small size, two or three builds each (seconds).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

# A module name of its own: bench/run.py and testsuite/fuzz/run.py are
# modules ``run`` too.
_spec = importlib.util.spec_from_file_location(
    "bench_app_run", Path(__file__).resolve().parent / "app" / "run.py"
)
assert _spec is not None and _spec.loader is not None
app = importlib.util.module_from_spec(_spec)
sys.modules["bench_app_run"] = app
_spec.loader.exec_module(app)

needs_tools = pytest.mark.skipif(
    any(shutil.which(t) is None for t in ("gcc", "make")), reason="gcc or make missing"
)
OUTPUT = (
    "xsproxy size=small nuclides=16 gridpoints=256 materials=12 lookups=20000 "
    "threads=1 tables_MiB=0.2 nuclides_per_lookup=4.15\n"
    "time_ns 3093415\ncpu_ns 3100065\nhash ef09774eb2913ec3\n"
    "checksum 667233.9020086017\n"
)


def res(median: float, hash_: str = "00000000000000aa", checksum: float = 100.0):  # -> app.Result
    return app.Result(
        binary=Path("x"), times_ns=[int(median)], hashes=[hash_], checksums=[checksum]
    )


# ---------------------------------------------------------------- the application


def test_header_guard_is_the_applications_form() -> None:
    """The benchmark keeps an include guard of the form real applications use
    (issue 19: s2svec took __XSPROXY_H__ for a target macro)."""
    text = (app.APP_DIR / "xsproxy.h").read_text()
    assert "#ifndef __XSPROXY_H__\n#define __XSPROXY_H__\n" in text


def test_hot_loop_calls_functions_of_its_file() -> None:
    text = (app.APP_DIR / "lookup.c").read_text()
    loop = text[text.index("#pragma omp parallel for simd") :]
    for callee in ("rng_skip", "rng_next", "pick_material", "macro_xs", "lookup_hash"):
        assert f"{callee}(" in loop
        assert re.search(rf"^static \w+ {callee}\(", text, re.M), callee
    for inner in ("grid_search", "micro_xs", "largest_channel", "mix64"):
        assert f"{inner}(" not in loop and re.search(rf"^static \w+ {inner}\(", text, re.M)


def test_makefile_keeps_openmp_and_warnings_when_cflags_are_overridden() -> None:
    text = (app.APP_DIR / "Makefile").read_text()
    assert "OMPFLAGS = -fopenmp" in text and "WARNFLAGS = -Wall" in text
    assert "$(OMPFLAGS) $(WARNFLAGS) -c" in text


# ---------------------------------------------------------------- parsing, commands


def test_parse_output() -> None:
    run = app.parse_output(OUTPUT)
    assert (run.wall_ns, run.cpu_ns, run.hash) == (3093415, 3100065, "ef09774eb2913ec3")
    assert run.checksum == 667233.9020086017
    assert "tables_MiB=0.2" in run.problem
    with pytest.raises(ValueError):
        app.parse_output(OUTPUT.replace("hash", "hush"))


def test_make_command_wraps_only_the_s2s_builds() -> None:
    by_name = {b.name: b for b in app.BUILDS}
    plain = app.make_command(by_name["clang-fast"], ("-march=x86-64-v3",), "/w/s2svec-cc")
    assert plain[:2] == ["make", "-B"]
    assert "CC=clang-19" in plain
    assert "CFLAGS=-O3 -march=x86-64-v3 -ffast-math -fveclib=libmvec" in plain
    s2s = app.make_command(by_name["s2s-gcc-fast"], ("-march=native",), "/w/s2svec-cc")
    assert "CC=/w/s2svec-cc gcc" in s2s
    assert "CFLAGS=-O3 -march=native -ffast-math" in s2s
    # each s2svec-cc build has the flags of a plain build
    for b in app.BUILDS:
        if b.s2s:
            twin = by_name[b.name.removeprefix("s2s-")]
            assert (b.cc, b.flags) == (twin.cc, twin.flags)


def test_s2svec_lines_and_summary() -> None:
    log = (
        "gcc -c lookup.c\n"
        "lookup.c:147:1: remark: loop vectorized for avx512 with 8 lanes (serialized 6)\n"
        "lookup.c:147:1: remark: loop vectorized for avx2 with 4 lanes (serialized 6)\n"
        "lookup.c:149:26: note: call to 'rng_skip' inlined\n"
        "lookup.c:147:1: warning: loop not vectorized: the optimizer was unable to "
        "perform the requested transformation [-Wpass-failed=transform-warning]\n"
        "main.c:3:1: warning: unused [-Wunused]\n"
    )
    lines = app.s2svec_lines(log)
    assert len(lines) == 3  # not the compiler's own warning, not another file
    assert lines[2].endswith("call to 'rng_skip' inlined")
    assert app.s2svec_summary(lines) == "avx512:8,avx2:4"
    assert (
        app.s2svec_summary(
            ["lookup.c:147:1: warning: loop not vectorized: internal error: KeyError"]
        )
        == "scalar"
    )
    assert (
        app.s2svec_summary(
            ["s2svec-cc: warning: lookup.c: s2svec failed; compiling the original file"]
        )
        == "fallback"
    )
    assert app.s2svec_summary([]) == "-"


def test_bad_usage_exits_2() -> None:
    for argv in (
        ["--builds", "gcc"],
        ["--builds", "scalar,icc"],
        ["--targets", "sse"],
        ["--threads", "0"],
        ["--threads", "x"],
        ["--repeats", "0"],
        ["--app-dir", "/nonexistent"],
    ):
        with pytest.raises(SystemExit) as exc:
            app.parse_args(argv)
        assert exc.value.code == 2, argv


# ---------------------------------------------------------------- checking and ratios


def test_verify_takes_the_first_scalar_run_as_reference() -> None:
    tables = {
        ("avx512", 1): {
            "scalar": res(100),
            "gcc": res(50),
            "s2s-gcc": res(40, hash_="00000000000000ab"),
        },
        ("avx512", 2): {
            "scalar": res(50),
            "gcc": res(25, checksum=100.001),
            "s2s-gcc": res(20, checksum=100.0 + 1e-8),
        },
    }
    app.verify(tables)
    assert tables[("avx512", 1)]["gcc"].mismatch is None
    assert "hash" in (tables[("avx512", 1)]["s2s-gcc"].mismatch or "")
    assert "checksum" in (tables[("avx512", 2)]["gcc"].mismatch or "")  # 1e-5 off
    assert tables[("avx512", 2)]["s2s-gcc"].mismatch is None  # 1e-10 off
    assert app.reference(tables) == ("00000000000000aa", 100.0, "scalar avx512 1T")


def test_verify_checks_every_run() -> None:
    flaky = app.Result(
        times_ns=[1, 1], hashes=["00000000000000aa", "00000000000000ff"], checksums=[100.0, 100.0]
    )
    tables = {("avx2", 1): {"scalar": res(10), "clang": flaky}}
    app.verify(tables)
    assert flaky.mismatch is not None


def test_ratios_are_against_the_fastest_plain_compiler_build() -> None:
    table = {
        "scalar": res(200),
        "gcc": res(120),
        "gcc-fast": res(110),
        "clang": res(80),
        "clang-fast": res(100),
        "s2s-gcc": res(64),
        "s2s-clang": res(90),
    }
    assert app.fastest(table, "compiler") == "clang"
    assert app.ratio_to_best(table, "clang") == 1.0
    assert app.ratio_to_best(table, "gcc") == pytest.approx(80 / 120)
    assert app.s2s_vs_best(table) == pytest.approx(1.25)


def test_wrong_or_failed_builds_are_never_best() -> None:
    wrong = res(10)
    wrong.mismatch = "hash differs"
    table = {
        "scalar": res(200),
        "gcc": res(100),
        "clang": wrong,
        "s2s-gcc": app.Result(error="make failed"),
        "s2s-clang": res(50),
    }
    assert app.fastest(table, "compiler") == "gcc"
    assert app.ratio_to_best(table, "clang") is None
    assert app.s2s_vs_best(table) == 2.0
    lines = app.table_lines({("avx2", 1): table}, list(table), {("avx2", "s2s-clang"): "avx2:4"})
    row = lines[-1]
    assert "MISMATCH" in row and "FAIL" in row and "**2.00x**" in row and "clang=avx2:4" in row
    assert len(lines) == 3 and lines[0].count("|") == lines[2].count("|")


def test_plot_writes_png_and_svg(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="bench/app/run.sh installs it (setup.cfg 'bench')")
    tables = {
        ("avx512", 1): {"scalar": res(200), "gcc": res(100), "s2s-gcc": res(80)},
        ("avx512", 2): {"scalar": res(100), "gcc": res(50), "s2s-gcc": res(45)},
    }
    app.write_plot(tmp_path / "p", tables, ["scalar", "gcc", "s2s-gcc"], "t")
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in (tmp_path / "p.svg").read_bytes()


# ---------------------------------------------------------------- end to end


def quick(tmp_path: Path, builds: str, *extra: str) -> tuple[int, dict]:
    out = tmp_path / "r.json"
    status = app.main(
        [
            "--targets",
            "avx2",
            "--size",
            "small",
            "--repeats",
            "1",
            "--builds",
            builds,
            "--build-dir",
            str(tmp_path / "b"),
            "--json",
            str(out),
            *extra,
        ]
    )
    return status, json.loads(out.read_text())


@needs_tools
def test_builds_plainly_and_through_s2svec_cc_with_one_hash(tmp_path: Path) -> None:
    if app.s2svec_cc_command(None) is None:
        pytest.skip("no s2svec-cc (run scripts/setup.sh)")
    status, data = quick(
        tmp_path, "scalar,gcc,s2s-gcc", "--threads", "1,2", "--s2svec-flags=--no-boscc"
    )
    assert status == 0
    assert data["s2svec_flags"] == "--report --no-boscc"
    hashes = {b["hash"] for r in data["results"].values() for b in r["builds"].values()}
    assert hashes == {data["reference"]["hash"]}
    assert set(data["results"]) == {"avx2/1", "avx2/2"}
    # the wrapper ran s2svec on the hot file, with the report on
    assert any("lookup.c:" in line for line in data["builds"]["avx2/s2s-gcc"]["s2svec"])
    assert data["builds"]["avx2/gcc"]["s2svec"] == []
    log = (tmp_path / "b" / "avx2" / "s2s-gcc" / "build.log").read_text()
    assert "-fopenmp" in log and "-Wall" in log


@needs_tools
def test_from_json_prints_the_same_table(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    status, _ = quick(tmp_path, "scalar,gcc", "--threads", "1")
    first = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| avx2")]
    assert status == 0 and len(first) == 1
    assert app.main(["--from-json", str(tmp_path / "r.json")]) == 0
    again = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| avx2")]
    assert again == first


FAKE_WRAPPER = """#!{python}
# A stand-in s2svec-cc that miscompiles: lookup.c's hash gets 1 per lookup more.
import os, subprocess, sys
args = sys.argv[2:]
if "lookup.c" in args:
    text = open("lookup.c").read().replace("hash += lookup_hash", "hash += 1 + lookup_hash")
    open("wrong_lookup.c", "w").write(text)
    args = ["wrong_lookup.c" if a == "lookup.c" else a for a in args]
sys.exit(subprocess.call([sys.argv[1], *args]))
"""


@needs_tools
def test_a_wrong_hash_exits_1(tmp_path: Path) -> None:
    fake = tmp_path / "fake-s2svec-cc"
    fake.write_text(FAKE_WRAPPER.format(python=sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    status, data = quick(tmp_path, "scalar,s2s-gcc", "--threads", "1", "--s2svec-cc", str(fake))
    assert status == 1
    wrong = data["results"]["avx2/1"]["builds"]["s2s-gcc"]
    assert "hash" in wrong["mismatch"] and wrong["ratio_to_best"] is None


@needs_tools
def test_a_failing_build_exits_1(tmp_path: Path) -> None:
    status, data = quick(tmp_path, "scalar,s2s-gcc", "--threads", "1", "--s2svec-cc", "false")
    assert status == 1
    assert data["builds"]["avx2/s2s-gcc"]["error"]


@needs_tools
def test_the_application_rejects_bad_arguments(tmp_path: Path) -> None:
    folder = tmp_path / "app"
    shutil.copytree(app.APP_DIR, folder, ignore=shutil.ignore_patterns("*.py", "diag"))
    subprocess.run(["make", "-s", "CFLAGS=-O1"], cwd=folder, check=True, capture_output=True)
    for argv in (["-s", "huge"], ["-l", "0"], ["-l"], ["-x", "1"]):
        proc = subprocess.run([str(folder / "xsproxy"), *argv], capture_output=True, text=True)
        assert proc.returncode == 2 and "usage" in proc.stderr, argv
