"""s2svec in real builds: the compiler's flags and OpenMP programs as they are.

* The compiler's flags (``s2s/compiler_flags.py``): ``-D -U -I -isystem
  -iquote -include -std=`` reach the parser in command-line order, joined or
  separate; ``-O2 -g -Wall -f* -M* -c -pipe -pthread`` and unknown flags are
  accepted and change nothing; ``-m*``/``-march=``/``--target=TRIPLE`` pick
  the targets when ``--target`` is absent.
* Files including ``<omp.h>`` parse and vectorize with and without
  ``-fopenmp`` (s2svec's own ``s2s/include/omp.h`` is first on the parser's
  path, also ahead of gcc's include folder given with ``-I``); ``parallel for
  simd`` keeps its threads when built with ``gcc -fopenmp``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from s2s.codegen.target import selections
from s2s.compiler_flags import FlagError, host_target_of, split, targets_for

ROOT = Path(__file__).resolve().parents[1]
S2SVEC = [sys.executable, "-m", "s2s"]

ONE_LOOP = """\
void scale(int n, double *a, double s)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        a[i] = a[i] * s;
}
"""


def s2svec(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [*S2SVEC, *args], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


def vectorized_targets(report: str) -> list[str]:
    return [entry["target"] for entry in json.loads(report) if entry["vectorized"]]


# -- the table of flags -----------------------------------------------------------------


def test_split_keeps_parser_flags_in_order_joined_or_separate() -> None:
    own, flags = split(
        [
            "-DA=1",
            "-I",
            "inc",
            "x.c",
            "-UA",
            "-isystem",
            "sys",
            "-iquote",
            "q",
            "-include",
            "h.h",
            "-Ijoined",
            "-D",
            "B",
            "-o",
            "y.c",
            "-std=gnu11",
            "--report=json",
        ]
    )
    assert own == ["x.c", "-o", "y.c", "--report=json"]
    assert flags.parser == [
        ("-D", "A=1"),
        ("-I", "inc"),
        ("-U", "A"),
        ("-isystem", "sys"),
        ("-iquote", "q"),
        ("-include", "h.h"),
        ("-I", "joined"),
        ("-D", "B"),
    ]
    assert flags.std == "gnu11"


def test_split_takes_the_values_of_ignored_flags_with_them() -> None:
    own, flags = split(
        [
            "-O2",
            "-g3",
            "-Wall",
            "-Wno-unused",
            "-fPIC",
            "-MMD",
            "-MP",
            "-MF",
            "x.d",
            "-MT",
            "x.o",
            "-c",
            "-pipe",
            "-pthread",
            "-x",
            "c",
            "-Xfoo",
            "-Xlinker",
            "--as-needed",
            "-lm",
            "-L",
            "lib",
            "--param",
            "a=1",
            "--param=b=2",
            "--sysroot=/",
            "x.c",
            "-o",
            "y.c",
        ]
    )
    assert own == ["x.c", "-o", "y.c"]
    assert flags.parser == [("--sysroot", "/")] and flags.machine == []
    assert "-Xfoo" in flags.ignored and "x.d" not in own


@pytest.mark.parametrize(
    "argv, why",
    [
        (["-I"], "missing argument to '-I'"),
        (["x.c", "-MF"], "missing argument to '-MF'"),
        (["-std=c55"], "invalid value 'c55'"),
    ],
)
def test_split_rejects_a_flag_without_its_value(argv: list[str], why: str) -> None:
    with pytest.raises(FlagError, match=why):
        split(argv)


@pytest.mark.parametrize(
    "argv, offload",
    [
        (["-fopenmp"], None),
        (
            ["-fopenmp", "-fopenmp-targets=nvptx64-nvidia-cuda"],
            "-fopenmp-targets=nvptx64-nvidia-cuda",
        ),
        (["-fopenmp", "--offload-arch=gfx90a"], "--offload-arch=gfx90a"),
        (["-fopenmp", "-foffload=nvptx-none"], "-foffload=nvptx-none"),
        (["-fopenmp", "-foffload=nvptx-none", "-foffload=disable"], None),
        (["-fopenmp", "-foffload-options=-lm"], None),
        # the device compiler's flags are not the host's: -march=sm_70 chooses no target
        (
            ["-fopenmp-targets=nvptx64", "-Xopenmp-target", "-march=sm_70"],
            "-fopenmp-targets=nvptx64",
        ),
        (
            ["-Xopenmp-target=nvptx64", "-march=sm_70", "-fopenmp-targets=nvptx64"],
            "-fopenmp-targets=nvptx64",
        ),
    ],
)
def test_offload_flags(argv: list[str], offload: str | None) -> None:
    """Flags that make the build offload target regions (issue 21 item 7)."""
    own, flags = split([*argv, "x.c", "-o", "y.c"])
    assert own == ["x.c", "-o", "y.c"]
    assert flags.offload == offload and flags.machine == []
    assert flags.given == argv


@pytest.mark.parametrize(
    "flags, expected",
    [
        ([], None),
        (["-m64", "-mtune=generic"], None),
        (["-mavx2", "-mfma"], ["avx2"]),
        (["-march=haswell"], ["avx2"]),
        (["-march=x86-64-v3"], ["avx2"]),
        (["-mavx512f", "-mavx512bw"], ["avx512", "avx2"]),
        (["-march=x86-64-v4"], ["avx512", "avx2"]),
        (["-march=icelake-server"], ["avx512", "avx2"]),
        (["-march=skylake-avx512", "-mno-avx512f"], ["avx2"]),
        (["-march=x86-64-v2"], None),
        (["-march=native"], ["avx2"]),  # host "avx2" below
        (["--target=aarch64-linux-gnu"], ["neon"]),
        (["--target=x86_64-linux-gnu"], ["avx512", "avx2"]),
        (["--target=x86_64-pc-linux-gnu", "-mavx2"], ["avx2"]),
        (["-march=armv8.2-a+fp16"], ["neon"]),
        (["-mcpu=cortex-a72"], ["neon"]),
        (["-march=armv8.2-a+sve"], ["sve", "neon"]),
        (["-march=armv9-a"], ["sve", "neon"]),
        (["-mcpu=neoverse-v1"], ["sve", "neon"]),
        (["-march=armv8-a+sve+nosve"], ["neon"]),
        (["--target=aarch64-linux-gnu", "-march=armv8-a+sve2"], ["sve", "neon"]),
        (["--target=riscv64-linux-gnu", "-march=rv64gcv"], ["rvv"]),
        (["-march=rv64gc"], ["rvv"]),
    ],
)
def test_machine_flags_choose_the_targets(flags: list[str], expected: list[str] | None) -> None:
    _, parsed = split(flags)
    assert targets_for(parsed.machine, "avx2", list(selections())) == expected


@pytest.mark.parametrize(
    "machine, cpuinfo, expected",
    [
        ("x86_64", "flags\t: fpu sse2 avx avx2 fma bmi2 avx512f avx512bw", "avx512"),
        ("x86_64", "flags\t: fpu sse2 avx avx2 fma", "avx2"),
        ("aarch64", "Features\t: fp asimd evtstrm aes", "neon"),
        ("aarch64", "Features\t: fp asimd sve sve2", "sve"),
        ("x86_64", "flags\t: fpu sse2 avx", None),
    ],
)
def test_host_target_from_cpuinfo(machine: str, cpuinfo: str, expected: str | None) -> None:
    """-march=native and --target host: the widest target whose cpuinfo
    flag (its target.toml) the host has."""
    table = list(selections())
    if expected is None:
        with pytest.raises(ValueError, match="none of the supported ISAs"):
            host_target_of(machine, cpuinfo, table)
    else:
        assert host_target_of(machine, cpuinfo, table) == expected


def test_every_target_says_how_flags_select_it() -> None:
    """A target is data: each target.toml has its [select] table."""
    from s2s.driver import known_targets

    assert sorted(s.name for s in selections()) == known_targets()


def test_target_list_and_clang_triple_share_the_option_name() -> None:
    own, flags = split(
        ["--target=avx2,neon", "--target=aarch64-linux-gnu", "-target", "x86_64-linux-gnu"]
    )
    assert own == ["--target=avx2,neon"]
    assert flags.machine == ["--target=aarch64-linux-gnu", "--target=x86_64-linux-gnu"]


# -- on the command line ----------------------------------------------------------------

ORDERED = (
    """\
#include "quoted.h"
#include <sys_only.h>
#if !defined(FROM_INCLUDE) || QUOTED != 7 || SYS != 3
#error the -include, -iquote or -isystem flag did not reach the parser
#endif
#ifdef GONE
#error -U did not follow -D
#endif
#if BACK != 2
#error -D after -U did not win
#endif
#if __STDC_VERSION__ != 201112L
#error -std=gnu11 did not reach the parser
#endif
"""
    + ONE_LOOP
)


def test_preprocessor_flags_reach_the_parser_in_order(tmp_path: Path) -> None:
    (tmp_path / "q").mkdir()
    (tmp_path / "s").mkdir()
    (tmp_path / "q" / "quoted.h").write_text("#define QUOTED 7\n")
    (tmp_path / "s" / "sys_only.h").write_text("#define SYS 3\n")
    (tmp_path / "pre.h").write_text("#define FROM_INCLUDE 1\n")
    (tmp_path / "k.c").write_text(ORDERED)
    done = s2svec(
        "-DGONE",
        "-UGONE",
        "-UBACK",
        "-D",
        "BACK=2",
        "-iquote",
        "q",
        "-isystems",
        "-include",
        "pre.h",
        "-std=gnu11",
        "k.c",
        "-o",
        "k_simd.c",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert '#include "quoted.h"' in (tmp_path / "k_simd.c").read_text()
    swapped = s2svec(
        "-DGONE",
        "-UBACK",
        "-D",
        "BACK=2",
        "-iquote",
        "q",
        "-isystems",
        "-include",
        "pre.h",
        "-std=gnu11",
        "k.c",
        "-o",
        "-",
        cwd=tmp_path,
    )
    assert swapped.returncode == 1 and "-U did not follow -D" in swapped.stderr


def test_other_compiler_flags_do_not_change_the_output(tmp_path: Path) -> None:
    (tmp_path / "k.c").write_text(ONE_LOOP)
    plain = s2svec("k.c", "-o", "plain.c", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    flagged = s2svec(
        "-O3",
        "-g",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-fPIC",
        "-fno-strict-aliasing",
        "-MMD",
        "-MP",
        "-MF",
        "k.d",
        "-MT",
        "k.o",
        "-c",
        "-pipe",
        "-pthread",
        "-ffast-math",
        "-Xunknown",
        "-frobnicate",
        "-pedantic",
        "k.c",
        "-o",
        "flagged.c",
        cwd=tmp_path,
    )
    assert flagged.returncode == 0, flagged.stderr
    assert flagged.stderr == ""
    assert (tmp_path / "flagged.c").read_bytes() == (tmp_path / "plain.c").read_bytes()
    assert not (tmp_path / "k.d").exists()  # -MF's value is not a file to write


@pytest.mark.parametrize(
    "flags, expected",
    [
        (["-mavx2", "-mfma"], ["avx2"]),
        (["-march=x86-64-v4"], ["avx512", "avx2"]),
        (["--target=aarch64-linux-gnu"], ["neon"]),
        (["-mavx2", "--target=neon"], ["neon"]),  # --target LIST wins
        ([], ["avx512", "avx2", "rvv", "sve", "neon"]),
    ],
)
def test_machine_flags_choose_the_targets_of_the_output(
    tmp_path: Path, flags: list[str], expected: list[str]
) -> None:
    (tmp_path / "k.c").write_text(ONE_LOOP)
    done = s2svec(
        *flags, "k.c", "-o", "out.c", "--report=json", "--report-file", "r.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert vectorized_targets((tmp_path / "r.json").read_text()) == expected


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-I"], "missing argument to '-I'"),
        (["-U", "1x"], "-U '1x': macro name must be an identifier"),
        (["-D", "=1"], "-D '=1'"),
        (["-std=c55"], "invalid value 'c55'"),
    ],
)
def test_bad_compiler_flags_are_bad_usage(tmp_path: Path, argv: list[str], message: str) -> None:
    (tmp_path / "k.c").write_text(ONE_LOOP)
    done = s2svec("k.c", "-o", "out.c", *argv, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out.c").exists()


# -- OpenMP programs --------------------------------------------------------------------

OPENMP_PROGRAM = r"""#include <stdio.h>
#include <omp.h>

double work(int n, const double *x, double *y)
{
    double s = 0.0;
#pragma omp parallel for simd reduction(+:s)
    for (int i = 0; i < n; i++) {
        y[i] = x[i] * 2.0 + 1.0;
        s += y[i];
    }
    return s;
}

int main(void)
{
    static double x[1003], y[1003];
    for (int i = 0; i < 1003; i++)
        x[i] = i * 0.5;
    int threads = 0;
#pragma omp parallel
    {
#pragma omp single
        threads = omp_get_num_threads();
    }
    double s = work(1003, x, y);
    printf("threads %d max %d sum %.17g y %.17g\n", threads, omp_get_max_threads(), s, y[1002]);
    return 0;
}
"""

CLANG19_INCLUDE = "/usr/lib/llvm-19/lib/clang/19/include"
GCC_INCLUDE = subprocess.run(
    ["gcc", "-print-file-name=include"], capture_output=True, text=True, check=False
).stdout.strip()


def _build_and_run(src: Path, exe: Path, flags: list[str]) -> str:
    subprocess.run(
        ["gcc", "-O2", "-fopenmp", "-ffp-contract=off", *flags, str(src), "-o", str(exe)],
        check=True,
        capture_output=True,
        text=True,
    )
    env = dict(os.environ, OMP_NUM_THREADS="2")
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True, env=env).stdout


@pytest.mark.parametrize(
    "flags",
    [
        [],  # without -fopenmp
        ["-fopenmp"],
        ["-fopenmp", "-I", GCC_INCLUDE],  # gcc's omp.h folder named explicitly
        ["-fopenmp", f"-I{CLANG19_INCLUDE}"],  # clang-19's (scripts/setup.sh installs it)
    ],
)
def test_openmp_program_vectorizes_and_keeps_its_threads(tmp_path: Path, flags: list[str]) -> None:
    src = tmp_path / "omp_prog.c"
    src.write_text(OPENMP_PROGRAM)
    done = s2svec(
        *flags,
        "-mavx2",
        "-mfma",
        str(src),
        "-o",
        str(tmp_path / "out.c"),
        "--report=json",
        "--report-file",
        str(tmp_path / "r.json"),
    )
    assert done.returncode == 0, done.stderr
    assert vectorized_targets((tmp_path / "r.json").read_text()) == ["avx2"]
    out = (tmp_path / "out.c").read_text()
    assert "#include <omp.h>" in out and "_mm256_" in out
    assert out.count("#pragma omp parallel for") == 2  # the vector loop's and the original's
    reference = _build_and_run(src, tmp_path / "ref", ["-mavx2", "-mfma"])
    vector = _build_and_run(tmp_path / "out.c", tmp_path / "vec", ["-mavx2", "-mfma"])
    assert reference.startswith("threads 2 max 2 ")
    assert vector == reference


def test_parser_omp_header_is_not_put_into_the_output(tmp_path: Path) -> None:
    src = tmp_path / "k.c"
    src.write_text("#include <omp.h>\n" + ONE_LOOP)
    done = s2svec(str(src), "-o", "-")
    assert done.returncode == 0, done.stderr
    assert "S2SVEC_OMP_H" not in done.stdout and "omp_get_wtick" not in done.stdout


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 not installed")
def test_openmp_program_builds_with_clang_19(tmp_path: Path) -> None:
    src = tmp_path / "omp_prog.c"
    src.write_text(OPENMP_PROGRAM)
    done = s2svec("-fopenmp", "-mavx2", "-mfma", str(src), "-o", str(tmp_path / "out.c"))
    assert done.returncode == 0, done.stderr
    subprocess.run(
        [
            "clang-19",
            "-O2",
            "-fopenmp",
            "-mavx2",
            "-mfma",
            "-ffp-contract=off",
            str(tmp_path / "out.c"),
            "-o",
            str(tmp_path / "vec"),
        ],
        check=True,
    )
    env = dict(os.environ, OMP_NUM_THREADS="2")
    out = subprocess.run(
        [str(tmp_path / "vec")], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert out.startswith("threads 2 max 2 ")


# -- --line-directives, --help, the text report -------------------------------------------

LOOP_THEN_WARNING = """\
void f(int n, double *a)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        a[i] = a[i] * 2.0;
    int unused_on_line_6 = 0;
}
int g(void) { return "line 8"; }
"""


def test_line_directives_keep_the_users_line_numbers(tmp_path: Path) -> None:
    src = tmp_path / "k.c"
    src.write_text(LOOP_THEN_WARNING)
    out = tmp_path / "translated.c"
    done = s2svec("--line-directives", "-mavx2", str(src), "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith(f'#line 1 "{src}"\n') and "_mm256_" in text
    built = subprocess.run(
        ["gcc", "-c", "-Wall", "-mavx2", "-mfma", str(out), "-o", str(tmp_path / "k.o")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert f"{src}:6:9: warning: unused variable" in built.stderr
    assert f"{src}:8:22: " in built.stderr and "translated.c" not in built.stderr
    plain = s2svec("-mavx2", str(src), "-o", "-")
    assert "#line" not in plain.stdout  # only when asked


def test_line_directive_names_are_c_strings() -> None:
    from s2s.driver import line_directive

    assert line_directive(3, 'a "b"\\c.c') == '#line 3 "a \\"b\\"\\\\c.c"'


def test_text_report_on_stderr_says_each_thing_once(tmp_path: Path) -> None:
    src = tmp_path / "k.c"
    src.write_text(
        ONE_LOOP
        + """\
void g(int n, int *a)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (a[i] > 3)
            goto skip;
        a[i] = 2;
    skip:
        ;
    }
}
"""
    )
    done = s2svec("--target=avx2,neon", str(src), "-o", "/dev/null", "--report")
    assert done.returncode == 0
    lines = done.stderr.splitlines()
    assert [line for line in lines if "goto" in line] == [
        f"{src}:12:13: warning: loop not vectorized: 'goto' in simd loop"
    ]
    assert f"{src}:3:1: remark: loop vectorized for avx2 with 4 lanes (contiguous 2)" in lines
    to_file = s2svec(
        "--target=avx2,neon", str(src), "-o", "/dev/null", "--report", "--report-file", "-"
    )
    assert to_file.stdout.count("remark: loop not vectorized") == 2  # the file has all


def test_help_shows_the_flags_the_wrapper_and_the_makefile_rule() -> None:
    done = s2svec("--help")
    assert done.returncode == 0
    for text in (
        "-isystem -iquote",
        "-march=native",
        "--target=TRIPLE",
        "-O* -g* -W* -f* -M*",
        'make CC="s2svec-cc gcc"',
        "S2SVEC_FLAGS",
        "%_simd.c: %.c",
        "s2svec $(CPPFLAGS) $(CFLAGS) $< -o $@",
        ".PRECIOUS",
        "--line-directives",
    ):
        assert text in done.stdout, text


def test_fopenmp_defines_openmp_for_the_parse(tmp_path: Path) -> None:
    src = tmp_path / "k.c"
    src.write_text(
        "#ifndef _OPENMP\n#error built without OpenMP\n#endif\n#include <omp.h>\n" + ONE_LOOP
    )
    assert s2svec("-fopenmp", str(src), "-o", "-").returncode == 0
    without = s2svec(str(src), "-o", "-")
    assert without.returncode == 1 and "built without OpenMP" in without.stderr
    undone = s2svec("-fopenmp", "-U_OPENMP", str(src), "-o", "-")
    assert undone.returncode == 1  # -U after -fopenmp removes it, as with gcc
