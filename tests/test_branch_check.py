"""The branch check: the build compiles the vector code the report announces,
or s2svec says at the loop that it does not (issue 19, item 3).

``s2svec --check-branches=CC`` preprocesses its output with CC and the
compiler flags it was given; ``s2svec-cc`` always does, with its compiler
and the real flags.  Each case compiles nothing but the preprocessor run,
except the make build at the end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
AVX512_FLAGS = ["-mavx512f", "-mavx512dq", "-mavx512bw", "-mavx512vl", "-mavx2", "-mfma"]

LOOP = """\
void scale(float *a, const float *b, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] = b[i] * 2.0f + 1.0f;
}
"""
AT = "k.c:2:1"


def s2svec(tmp_path: Path, source: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "k.c").write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "s2s", "k.c", "-o", "out.c", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )


def entries(tmp_path: Path) -> dict[str, dict[str, object]]:
    """The JSON report of the last run by target."""
    report = json.loads((tmp_path / "report.json").read_text())
    return {e["target"]: e for e in report}


def checked(tmp_path: Path, source: str, *args: str) -> subprocess.CompletedProcess[str]:
    r = s2svec(tmp_path, source, *args, "--report=json", "--report-file", "report.json")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    return r


# -- the build compiles another branch ----------------------------------------------------


def test_avx512_code_built_with_avx2_flags_takes_the_scalar_loop(tmp_path: Path) -> None:
    r = checked(tmp_path, LOOP, "--target", "avx512", "-mavx2", "-mfma", "--check-branches=gcc")
    assert (
        f"{AT}: warning: no vector code of this loop is compiled with these flags "
        "(this compiler and these flags select none of avx512): the build takes the "
        "scalar loop" in r.stderr
    )
    avx512 = entries(tmp_path)["avx512"]
    assert avx512["vectorized"] is False
    assert avx512["reason"] == "not compiled with these flags: the build takes the scalar loop"


def test_the_files_own_macros_can_disable_the_vector_branch(tmp_path: Path) -> None:
    """The flags select avx2, the file undefines one of its ISA macros: the
    avx2 branch is not compiled."""
    r = checked(
        tmp_path, "#undef __FMA__\n" + LOOP, "-O2", "-mavx2", "-mfma", "--check-branches=gcc"
    )
    assert (
        "k.c:3:1: warning: the avx2 code of this loop is not compiled with these "
        "flags: the build takes the scalar loop" in r.stderr
    )
    assert entries(tmp_path)["avx2"]["vectorized"] is False


ISA_TYPEDEF = """\
#ifdef __AVX512F__
typedef long long T;
#else
typedef int T;
#endif
void add(T *a, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] += 1;
}
"""


def test_avx2_code_of_a_file_that_reads_avx512_macros_is_not_built_for_avx512(
    tmp_path: Path,
) -> None:
    """The avx2 code reads T as int; an AVX-512 build reads long long and
    takes the scalar loop (FileView.assumed): the check says so."""
    r = checked(
        tmp_path, ISA_TYPEDEF, "--target", "avx2", "-march=x86-64-v4", "--check-branches=gcc"
    )
    assert (
        "k.c:7:1: warning: the avx2 code of this loop is not compiled with these "
        "flags: the build takes the scalar loop" in r.stderr
    )


# -- the build compiles the announced branch ------------------------------------------------


@pytest.mark.parametrize(
    "flags,targets,compiled",
    [
        (["-mavx2", "-mfma"], "avx512,avx2", "avx2"),
        (AVX512_FLAGS, "avx512,avx2", "avx512"),
        (["-march=x86-64-v4"], "avx512,avx2,neon", "avx512"),
        (["-march=x86-64-v3"], "avx2", "avx2"),
    ],
)
def test_silent_when_the_build_compiles_the_announced_branch(
    tmp_path: Path, flags: list[str], targets: str, compiled: str
) -> None:
    r = checked(tmp_path, ISA_TYPEDEF, "--target", targets, *flags, "--check-branches=gcc")
    assert "warning" not in r.stderr, r.stderr
    assert all(e["vectorized"] for e in entries(tmp_path).values())
    pre = subprocess.run(
        ["gcc", "-E", "-C", *flags, "out.c"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"/* s2svec branch: {compiled} code of the loop at k.c:7:1 */" in pre


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 not installed")
def test_clang_19_takes_the_avx512_code(tmp_path: Path) -> None:
    """clang 19 builds the AVX-512 code like any compiler (its back-end hang
    on mask logic is avoided in the templates, templates/README.md): no
    warning, the AVX-512 entry stays vectorized."""
    r = checked(tmp_path, LOOP, "-march=x86-64-v4", "--check-branches=clang-19")
    assert "warning" not in r.stderr, r.stderr
    assert entries(tmp_path)["avx512"]["vectorized"] is True
    alone = checked(
        tmp_path, LOOP, "--target", "avx512", "-march=x86-64-v4", "--check-branches=clang-19"
    )
    assert "warning" not in alone.stderr, alone.stderr


DECLARED = """\
#pragma omp declare simd notinbranch
float twice(float x) { return x * 2.0f; }
"""


def test_vector_variants_are_checked_too(tmp_path: Path) -> None:
    r = checked(tmp_path, DECLARED, "--target", "avx2", "-mavx2", "-mfma", "--check-branches=gcc")
    assert "warning" not in r.stderr, r.stderr
    r = checked(tmp_path, DECLARED, "--target", "avx2", "-O2", "--check-branches=gcc")
    assert (
        "k.c:1:1: warning: no vector code of 4 vector variants of 'twice' is compiled "
        "with these flags" in r.stderr
    )
    assert not any(e["vectorized"] for e in json.loads((tmp_path / "report.json").read_text()))


# -- odd input --------------------------------------------------------------------------------


def test_a_missing_compiler_is_a_warning(tmp_path: Path) -> None:
    r = checked(tmp_path, LOOP, "-mavx2", "-mfma", "--check-branches=no-such-cc -O2")
    assert (
        "s2svec: warning: --check-branches: no-such-cc: command not found; the "
        "branches are not checked" in r.stderr
    )
    assert (tmp_path / "out.c").exists() and entries(tmp_path)["avx2"]["vectorized"]


def test_a_failing_preprocessor_is_a_warning(tmp_path: Path) -> None:
    r = checked(tmp_path, LOOP, "-mavx2", "-mfma", "--check-branches=gcc -no-such-flag")
    assert (
        "s2svec: warning: --check-branches: 'gcc -no-such-flag -E' failed on the output ("
        in r.stderr
        and "the branches are not checked" in r.stderr
    )


def test_no_preprocessor_run_without_vector_code(tmp_path: Path) -> None:
    r = checked(tmp_path, "int f(int x) { return x; }\n", "--check-branches=no-such-cc")
    assert r.stderr == ""


@pytest.mark.parametrize("spec", ["", "'gcc"])
def test_a_bad_compiler_command_is_bad_usage(tmp_path: Path, spec: str) -> None:
    r = s2svec(tmp_path, LOOP, f"--check-branches={spec}")
    assert r.returncode == 2 and "--check-branches" in r.stderr


# -- in a build ---------------------------------------------------------------------------------

MAKEFILE = """\
prog: k.o main.o
\t$(CC) $(CFLAGS) $^ -o $@
"""
MAIN = """\
void scale(float *a, const float *b, int n);
int main(void) { float a[9], b[9] = {0}; scale(a, b, 9); return a[8] != 1.0f; }
"""


def make(folder: Path, cflags: str, **env: str) -> subprocess.CompletedProcess[str]:
    wrapper = f"{sys.executable} -m s2s.wrapper gcc"
    return subprocess.run(
        ["make", "-s", f"CC={wrapper}", f"CFLAGS={cflags}"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, PYTHONPATH=str(ROOT), **env),
    )


def test_the_wrapper_warns_at_the_loop_in_a_make_build(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    (tmp_path / "k.c").write_text('#include "k.h"\n' + LOOP)
    (tmp_path / "k.h").write_text(GUARD_HEADER)
    (tmp_path / "main.c").write_text(MAIN)
    done = make(tmp_path, "-O2 -mavx2 -mfma", S2SVEC_FLAGS="--target avx512")
    assert done.returncode == 0, done.stderr
    assert (
        "k.c:3:1: warning: no vector code of this loop is compiled with these flags "
        "(this compiler and these flags select none of avx512)" in done.stderr
    )
    for built in ("k.o", "main.o", "prog"):
        (tmp_path / built).unlink()
    done = make(tmp_path, "-O2 -mavx2 -mfma -MMD", S2SVEC_FLAGS="--report")
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr, done.stderr
    assert "k.c:3:1: remark: loop vectorized for avx2" in done.stderr
    assert subprocess.run(["./prog"], cwd=tmp_path, check=False).returncode == 0


GUARD_HEADER = """\
#ifndef __K_H__
#define __K_H__
void scale(float *a, const float *b, int n);
#endif
"""


def test_the_check_catches_a_user_macro_in_the_branch_conditions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19's build: an include guard taken for a target macro put
    ``!defined(__K_H__)`` on every branch (the view's ``assumed``), and the
    build compiled the scalar loop while the report said "vectorized"."""
    from s2s import driver
    from s2s.branch_check import Build, check_branches
    from s2s.frontend.views import FileView

    real = driver.parse_views

    def guard_assumed(*args: Any, **kwargs: Any) -> dict[str, FileView]:
        views = real(*args, **kwargs)
        for view in views.values():
            view.assumed = {"__K_H__": False}
        return views

    monkeypatch.setattr(driver, "parse_views", guard_assumed)
    (tmp_path / "k.h").write_text(GUARD_HEADER)
    source = tmp_path / "k.c"
    source.write_text('#include "k.h"\n' + LOOP)
    result = driver.run(str(source), driver.Options(targets=["avx2"]))
    assert b"!defined(__K_H__)" in result.output
    warnings = check_branches(
        result.reports,
        result.targets,
        result.output,
        Build(["gcc"], ["-mavx2", "-mfma"], str(source)),
    )
    assert warnings == [
        f"{source}:3:1: warning: the avx2 code of this loop is not compiled "
        "with these flags: the build takes the scalar loop"
    ]
    assert [e.vectorized for e in result.reports] == [False]


def test_the_preprocessor_gets_the_flags_that_change_the_reading() -> None:
    from s2s.compiler_flags import preprocessing_flags, split

    _, flags = split(
        [
            "--target=x86_64-linux-gnu",
            "-O2",
            "-c",
            "-MMD",
            "-MF",
            "k.d",
            "-x",
            "c",
            "-DN=4",
            "-I",
            "inc",
            "-march=native",
            "-save-temps=obj",
            "-fopenmp",
        ]
    )
    assert preprocessing_flags(flags.given, "x86_64-linux-gnu") == [
        "-O2",
        "-DN=4",
        "-I",
        "inc",
        "-march=native",
        "-fopenmp",
    ]
    assert preprocessing_flags(flags.given, "aarch64-linux-gnu")[0] == "--target=x86_64-linux-gnu"
