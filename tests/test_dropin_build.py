"""Builds with s2svec in them: the compiler wrapper and the Makefile recipe.

* ``s2svec-cc CC ARGS`` (``s2s/wrapper.py``): each ``-c file.c`` compiled
  from its translation, diagnostics at the user's lines (``#line``),
  dependency files naming the user's files, ``-lmvec -lm`` on x86 link
  steps, the original file compiled (with a warning) when s2svec fails,
  ``S2SVEC_FLAGS`` passed on.
* ``examples/make_project``: built plain, with the manual's ``%_simd.c: %.c``
  rule and with ``make CC="s2svec-cc gcc"`` (and clang-19); all three
  programs print the same; generated files are kept and made again when a
  header changes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
WRAPPER = [sys.executable, "-m", "s2s.wrapper"]
EXAMPLE = ROOT / "examples" / "make_project"

LOOP_THEN_WARNING = """\
#include <math.h>
void f(int n, double *a)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        a[i] = exp(a[i]) * 2.0;
    int unused_on_line_7 = 0;
}
"""

MAIN = """\
#include <stdio.h>
void f(int n, double *a);
int main(void)
{
    double a[37];
    for (int i = 0; i < 37; i++)
        a[i] = i * 0.01;
    f(37, a);
    printf("%.9g %.9g\\n", a[0], a[36]);
    return 0;
}
"""


def env(**extra: str) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="2", **extra)


def wrap(*args: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*WRAPPER, *args], capture_output=True, text=True, cwd=cwd, env=env(**extra), check=False
    )


def write(folder: Path, **files: str) -> None:
    for name, text in files.items():
        (folder / name.replace("__", ".")).write_text(text)


# -- the wrapper --------------------------------------------------------------------------


def test_wrapper_compiles_the_translation_with_diagnostics_at_the_users_lines(
    tmp_path: Path,
) -> None:
    write(tmp_path, k__c=LOOP_THEN_WARNING)
    done = wrap(
        "gcc", "-O2", "-mavx2", "-mfma", "-Wall", "-c", "k.c", cwd=tmp_path, S2SVEC_FLAGS="--report"
    )
    assert done.returncode == 0, done.stderr
    assert "k.c:7:9: warning: unused variable" in done.stderr
    assert "k.c:4:1: remark: loop vectorized for avx2" in done.stderr
    assert "s2svec-cc-" not in done.stderr  # no temporary names
    symbols = subprocess.run(
        ["nm", str(tmp_path / "k.o")], capture_output=True, text=True, check=True
    ).stdout
    assert "_ZGVdN4v_exp" in symbols  # the vector code was compiled


def test_wrapper_debug_information_names_the_users_file(tmp_path: Path) -> None:
    write(tmp_path, k__c=LOOP_THEN_WARNING)
    done = wrap("gcc", "-O1", "-g", "-mavx2", "-mfma", "-c", "k.c", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr  # no fall-back
    symbols = subprocess.run(
        ["nm", "k.o"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert "_ZGVdN4v_exp" in symbols  # built from the translation
    lines = subprocess.run(
        ["objdump", "--dwarf=decodedline", "--dwarf=info", "k.o"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "k.c" in lines and "s2svec-cc-" not in lines


def test_wrapper_dependency_files_name_the_users_file(tmp_path: Path) -> None:
    write(tmp_path, k__c='#include "k.h"\n' + LOOP_THEN_WARNING, k__h="#define K 1\n", main__c=MAIN)
    (tmp_path / "obj").mkdir()
    for args, depfile in (
        (["-MMD", "-MP", "-c", "k.c", "-o", "obj/k.o"], "obj/k.d"),
        (["-MMD", "-MF", "deps.d", "-c", "k.c"], "deps.d"),
        (["-MD", "-c", "k.c"], "k.d"),
        (["-MMD", "main.c", "k.c", "-o", "prog"], "prog.d"),
    ):
        done = wrap("gcc", "-O2", *args, cwd=tmp_path)
        assert done.returncode == 0 and "s2svec-cc" not in done.stderr, done.stderr
        text = (tmp_path / depfile).read_text()
        assert " k.c" in text and "k.h" in text, text
        assert "s2svec-cc-" not in text and "/tmp" not in text.split(":")[1].split()[0]


def test_wrapper_links_vector_math_and_compiles_and_links_in_one_step(tmp_path: Path) -> None:
    write(tmp_path, k__c=LOOP_THEN_WARNING, main__c=MAIN)
    done = wrap("gcc", "-O2", "-mavx2", "-mfma", "k.c", "main.c", "-o", "prog", cwd=tmp_path)
    assert done.returncode == 0, done.stderr  # without -lmvec -lm: undefined _ZGVdN4v_exp
    assert "s2svec-cc" not in done.stderr  # no fall-back
    run = subprocess.run(["./prog"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert run.stdout.startswith("2 ")


def test_wrapper_falls_back_to_the_original_file_with_a_warning(tmp_path: Path) -> None:
    bad_clause = LOOP_THEN_WARNING.replace("omp simd", "omp simd simdlen(0)")
    write(tmp_path, k__c=bad_clause)
    done = wrap("gcc", "-O2", "-c", "k.c", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "simdlen" in done.stderr
    assert "s2svec-cc: warning: k.c: s2svec failed; compiling the original file" in done.stderr
    assert (tmp_path / "k.o").exists()


def test_wrapper_reports_the_compilers_own_errors_once(tmp_path: Path) -> None:
    write(tmp_path, k__c=LOOP_THEN_WARNING + "int broken(void) { return }\n")
    done = wrap("gcc", "-O2", "-c", "k.c", cwd=tmp_path)
    assert done.returncode != 0
    assert "error: expected expression before" in done.stderr  # gcc's message
    assert (
        "s2svec-cc: warning" not in done.stderr
        and "k.c:9:27: error: expected expression\n" not in done.stderr
    )  # not s2svec's as well


def test_wrapper_takes_a_launcher_before_the_compiler(tmp_path: Path) -> None:
    write(tmp_path, k__c=LOOP_THEN_WARNING)
    done = wrap("env", "gcc", "-O2", "-mavx2", "-mfma", "-c", "k.c", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    symbols = subprocess.run(
        ["nm", "k.o"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert "_ZGVdN4v_exp" in symbols


def test_wrapper_usage_and_plain_calls(tmp_path: Path) -> None:
    assert wrap(cwd=tmp_path).returncode == 2
    assert wrap("no-such-compiler-xyz", "-c", "k.c", cwd=tmp_path).returncode == 127
    version = wrap("gcc", "--version", cwd=tmp_path)
    assert version.returncode == 0 and "gcc" in version.stdout.lower()


# -- the example project ------------------------------------------------------------------


def make(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["make", "-s", f"S2SVEC={BIN / 's2svec'}", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env(),
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def run(program: Path) -> str:
    return subprocess.run(
        [str(program)], capture_output=True, text=True, env=env(), check=True
    ).stdout


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    shutil.copytree(EXAMPLE, folder)
    return folder


def test_example_project_builds_the_same_program_three_ways(project: Path) -> None:
    make(project, "prog")
    plain = run(project / "prog")
    assert plain.startswith("y ")
    make(project, "prog_simd")
    assert run(project / "prog_simd") == plain
    generated = (project / "kernels_simd.c").read_text()  # kept, not deleted
    assert "_mm512_" in generated or "_mm256_" in generated
    make(project, "clean")
    done = make(project, f"CC={BIN / 's2svec-cc'} gcc", "S2SVEC_FLAGS=--report", "prog")
    assert run(project / "prog") == plain
    assert "kernels.c:8:1: remark: loop vectorized" in done.stderr
    assert "s2svec-cc: warning" not in done.stderr  # compiled from the translation
    assert (project / "kernels.d").read_text().startswith("kernels.o: kernels.c include/params.h")


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 not installed")
def test_example_project_builds_with_the_wrapper_around_clang_19(project: Path) -> None:
    make(project, "prog")
    plain = run(project / "prog")
    make(project, "clean")
    done = make(project, f"CC={BIN / 's2svec-cc'} clang-19", "S2SVEC_FLAGS=--report", "prog")
    assert "remark: loop vectorized" in done.stderr
    assert "s2svec-cc: warning" not in done.stderr
    assert run(project / "prog") == plain


def test_example_header_change_generates_the_files_again(project: Path) -> None:
    make(project, "prog_simd")
    before = run(project / "prog_simd")
    params = project / "include" / "params.h"
    params.write_text(params.read_text().replace("#define SCALE 0.5", "#define SCALE 0.75"))
    make(project, "prog_simd")
    after = run(project / "prog_simd")
    assert after != before
    make(project, "prog")
    assert run(project / "prog") == after
    assert "0x1.8000000000000p-1" in (project / "kernels_simd.c").read_text()  # SCALE's check: 0.75


@pytest.mark.skipif(
    shutil.which("aarch64-linux-gnu-gcc") is None or shutil.which("qemu-aarch64") is None,
    reason="no aarch64 cross tools",
)
def test_wrapper_around_a_cross_compiler_makes_neon_code(tmp_path: Path) -> None:
    write(tmp_path, k__c=LOOP_THEN_WARNING, main__c=MAIN)
    done = wrap(
        "aarch64-linux-gnu-gcc",
        "-O2",
        "-static",
        "k.c",
        "main.c",
        "-lm",
        "-o",
        "prog",
        cwd=tmp_path,
        S2SVEC_FLAGS="--report",
    )
    assert done.returncode == 0, done.stderr  # no -lmvec: AArch64 glibc 2.36 has none
    assert "remark: loop vectorized for neon" in done.stderr
    assert "avx" not in done.stderr and "s2svec-cc: warning" not in done.stderr
    run = subprocess.run(
        ["qemu-aarch64", "./prog"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    native = wrap("gcc", "-O2", "k.c", "main.c", "-lm", "-o", "prog_x86", cwd=tmp_path)
    assert native.returncode == 0, native.stderr
    reference = subprocess.run(
        ["./prog_x86"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert run.stdout == reference.stdout


SCALABLE_BUILDS = {
    "sve": (
        ("aarch64-linux-gnu-gcc", "-march=armv8-a+sve"),
        [("qemu-aarch64", "-cpu", f"max,sve-default-vector-length={b}") for b in (16, 256)],
    ),
    "rvv": (
        ("clang-19", "--target=riscv64-linux-gnu", "-march=rv64gcv"),
        [("qemu-riscv64", "-cpu", f"rv64,v=true,vlen={v},vext_spec=v1.0") for v in (128, 1024)],
    ),
}


@pytest.mark.parametrize("target", sorted(SCALABLE_BUILDS))
def test_wrapper_makes_scalable_code_from_the_march_flags(target: str, tmp_path: Path) -> None:
    """``-march=...+sve`` / ``-march=rv64gcv`` (with clang's ``--target=``)
    give the scalable target's code, linked without libmvec (their glibc has
    none), and the one binary runs right at the shortest and the longest
    vectors."""
    compiler, runs = SCALABLE_BUILDS[target]
    tools = [compiler[0], *(r[0] for r in runs)]
    if any(shutil.which(t) is None for t in tools):
        pytest.skip(f"needs {', '.join(tools)} (scripts/setup.sh installs them)")
    write(tmp_path, k__c=LOOP_THEN_WARNING, main__c=MAIN)
    done = wrap(
        *compiler, "-O2", "-static", "k.c", "main.c", "-lm", "-o", "prog",
        cwd=tmp_path, S2SVEC_FLAGS="--report",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"remark: loop vectorized for {target}" in done.stderr
    assert "s2svec-cc: warning" not in done.stderr
    native = wrap("gcc", "-O2", "k.c", "main.c", "-lm", "-o", "prog_x86", cwd=tmp_path)
    assert native.returncode == 0, native.stderr
    reference = subprocess.run(
        ["./prog_x86"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    for runner in runs:
        got = subprocess.run(
            [*runner, "./prog"], cwd=tmp_path, capture_output=True, text=True, check=True
        )
        assert got.stdout == reference.stdout, runner


TARGET_SIMD = """\
void f(int n, double *a)
{
#pragma omp target simd map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 2.0;
}
"""


def test_wrapper_around_a_gcc_that_offloads_by_default(tmp_path: Path) -> None:
    """A gcc with an offload compiler installed offloads target regions
    without -foffload= (issue 21 item 7): the wrapper says so to s2svec,
    and the target simd loop stays scalar; -foffload=disable keeps it on
    the host, vectorized."""
    mkoffload = tmp_path / "mkoffload"
    mkoffload.write_text("")
    gcc = tmp_path / "offloading-gcc"
    gcc.write_text(
        "#!/bin/sh\n"
        'case "$1" in\n'
        "  -v) gcc -v 2>&1 | grep -v OFFLOAD_TARGET_NAMES >&2;"
        " echo 'OFFLOAD_TARGET_NAMES=nvptx-none:amdgcn-amdhsa' >&2; exit 0;;\n"
        f"  -print-prog-name=accel/amdgcn-amdhsa/mkoffload) echo {mkoffload}; exit 0;;\n"
        '  -print-prog-name=*) echo "${1#-print-prog-name=}"; exit 0;;\n'
        "esac\n"
        'exec gcc "$@"\n'
    )
    gcc.chmod(0o755)
    write(tmp_path, k__c=TARGET_SIMD)
    done = wrap(str(gcc), "-fopenmp", "-mavx2", "-mfma", "-c", "k.c", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (
        "k.c:3:1: warning: loop not vectorized: '#pragma omp target simd' may run on an "
        "offload device (the build offloads target regions: '-foffload=amdgcn-amdhsa')"
    ) in done.stderr
    done = wrap(
        str(gcc), "-fopenmp", "-foffload=disable", "-mavx2", "-mfma", "-c", "k.c", cwd=tmp_path
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    symbols = subprocess.run(
        ["objdump", "-d", "k.o"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert "ymm" in symbols
