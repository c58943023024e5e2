"""Each target's code comes from the file as that target's compiler sees it,
and the build must see the loop's macros as s2svec did (issue 10, items 4, 5, 7).

The checks compile s2svec's output with the real compilers: a check that is
not emitted, or one that fires on a matching build, fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from s2s.codegen.target import load_target
from s2s.frontend.parse import parse_file
from s2s.frontend.views import conditional_names, parse_views

TARGETS = [load_target(n) for n in ("avx512", "avx2", "neon")]
COMPILE = {
    "avx512": [
        "gcc",
        "-c",
        "-O1",
        "-mavx512f",
        "-mavx512dq",
        "-mavx512bw",
        "-mavx512vl",
        "-mavx2",
        "-mfma",
    ],
    "avx2": ["gcc", "-c", "-O1", "-mavx2", "-mfma"],
    "neon": ["aarch64-linux-gnu-gcc", "-c", "-O1"],
}


def s2svec(tmp_path: Path, source: str, *args: str) -> subprocess.CompletedProcess[str]:
    src = tmp_path / "k.c"
    src.write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "s2s", str(src), "-o", str(tmp_path / "out.c"), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )


def compiles(tmp_path: Path, target: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        COMPILE[target]
        + list(flags)
        + [str(tmp_path / "out.c"), "-o", str(tmp_path / f"out-{target}.o")],
        capture_output=True,
        text=True,
    )


# -- one parse per target view -------------------------------------------------------

TYPEDEF_BY_ARCH = """\
#ifdef __aarch64__
typedef int T;
#else
typedef long long T;
#endif
void f(T *a, const T *b, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] = b[i] + 1;
}
"""


def test_each_target_reads_its_own_typedef(tmp_path: Path) -> None:
    r = s2svec(tmp_path, TYPEDEF_BY_ARCH)
    assert r.returncode == 0, r.stderr
    out = (tmp_path / "out.c").read_text()
    neon = out[out.index("defined(__ARM_NEON)") :]
    assert "vld1q_s32" in neon and "vld1q_s64" not in neon
    assert "_mm512_loadu_si512" in out  # x86: 64-bit elements, 8 per 512 bits
    assert "avx512, 8 lanes" in out and "avx2, 4 lanes" in out


TYPEDEF_BY_ISA = """\
#ifdef __AVX512F__
typedef long long T;
#else
typedef int T;
#endif
void f(T *a, const T *b, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] = b[i] + 1;
}
"""


@pytest.mark.parametrize("flags", [["-mavx2", "-mfma"], ["-march=x86-64-v4"]])
def test_a_targets_code_is_compiled_only_where_the_file_reads_alike(
    tmp_path: Path, flags: list[str]
) -> None:
    """The AVX2 code reads T as int; under AVX-512 flags the compiler reads
    long long, so the AVX2 branch of --target avx2 must not be compiled
    there (the scalar loop is): its guard says !defined(__AVX512F__)."""
    r = s2svec(tmp_path, TYPEDEF_BY_ISA, "--target", "avx2")
    assert r.returncode == 0, r.stderr
    pre = subprocess.run(
        ["gcc", "-E", "-P", *flags, str(tmp_path / "out.c")], capture_output=True, text=True
    )
    assert pre.returncode == 0, pre.stderr
    vector = "_mm256_" in pre.stdout.split("void f(")[1]
    assert vector == ("-mavx2" in flags), pre.stdout[-2000:]


def test_x86_targets_share_a_parse_unless_the_code_tests_isa_macros(tmp_path: Path) -> None:
    plain = tmp_path / "plain.c"
    plain.write_text("int f(int x) { return x; }\n")
    views = parse_views(str(plain), [], [], "gnu17", TARGETS)
    assert views["avx512"] is views["avx2"] and views["neon"] is not views["avx2"]
    isa = tmp_path / "isa.c"
    isa.write_text("#ifdef __AVX512F__\nint wide;\n#endif\n")
    assert "__AVX512F__" in conditional_names(parse_file(str(isa), [], [], "gnu17"))
    views = parse_views(str(isa), [], [], "gnu17", TARGETS)
    assert views["avx512"] is not views["avx2"]


ISA_CONSTANT = """\
#ifdef __AVX512F__
#define STEP 3
#else
#define STEP 5
#endif
void f(int *a, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] += STEP;
}
"""


def test_isa_macro_values_differ_per_target(tmp_path: Path) -> None:
    r = s2svec(tmp_path, ISA_CONSTANT, "--target", "avx512,avx2")
    assert r.returncode == 0, r.stderr
    out = (tmp_path / "out.c").read_text()
    avx512 = out[out.index("avx512, 16 lanes") : out.index("avx2, 8 lanes")]
    avx2 = out[out.index("avx2, 8 lanes") :]
    assert "_mm512_set1_epi32((int)(3))" in avx512 and "_mm256_set1_epi32(5)" in avx2


def test_a_target_whose_parse_fails_stays_scalar(tmp_path: Path) -> None:
    source = "#ifdef __aarch64__\n#error no arm here\n#endif\n" + ISA_CONSTANT
    r = s2svec(tmp_path, source, "--report")
    assert r.returncode == 0, r.stderr
    assert "k.c:2:2: warning: the file does not parse as the compiler of neon sees it" in r.stderr
    assert "no arm here" in r.stderr
    out = (tmp_path / "out.c").read_text()
    assert "__ARM_NEON" not in out and "defined(__AVX2__)" in out
    assert "Traceback" not in r.stderr


def test_a_file_that_parses_for_no_target_is_an_error(tmp_path: Path) -> None:
    r = s2svec(tmp_path, "int f( {\n" + ISA_CONSTANT)
    assert r.returncode == 1 and "k.c:1:" in r.stderr and "error:" in r.stderr
    assert not (tmp_path / "out.c").exists()


def test_loop_only_in_one_targets_code(tmp_path: Path) -> None:
    source = (
        "void f(int *a, int n) {\n#ifdef __aarch64__\n#pragma omp simd\n"
        "    for (int i = 0; i < n; i++) a[i] += 1;\n#endif\n}\n"
    )
    r = s2svec(tmp_path, source, "--report=json")
    assert r.returncode == 0, r.stderr
    out = (tmp_path / "out.c").read_text()
    assert "vaddq_s32" in out and "_mm256" not in out
    for target in ("avx2", "avx512", "neon"):
        assert compiles(tmp_path, target).returncode == 0


# -- macros the vector code depends on -----------------------------------------------

WEIGHTED = """\
#ifndef WEIGHT
#define WEIGHT 0.5
#endif
#define SCALE 3u
#define SQ(x) ((x) * (x))
#define FWEIGHT 0.1f
void f(double *a, const double *b, unsigned *c, float *d, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) {
        a[i] = SQ(b[i]) * WEIGHT;
        c[i] = c[i] * SCALE;
        d[i] = d[i] * FWEIGHT;
    }
}
"""


@pytest.mark.parametrize("target", ["avx512", "avx2", "neon"])
def test_macro_checks_pass_on_the_same_macros(tmp_path: Path, target: str) -> None:
    r = s2svec(tmp_path, WEIGHTED, "--target", target)
    assert r.returncode == 0, r.stderr
    out = (tmp_path / "out.c").read_text()
    assert "s2svec_macro_WEIGHT_changed" in out and "s2svec_macro_SCALE_changed" in out
    assert "s2svec_macro_FWEIGHT_changed" in out and "#ifndef SQ" in out
    done = compiles(tmp_path, target, "-Wall", "-Wextra", "-pedantic", "-Werror")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("flag,macro", [("-DWEIGHT=0.25", "WEIGHT"), ("-DWEIGHT=0.5f", "WEIGHT")])
@pytest.mark.parametrize("compiler", ["gcc", "clang", "clang-19"])
def test_macro_checks_fail_loudly_on_other_values(
    tmp_path: Path, flag: str, macro: str, compiler: str
) -> None:
    r = s2svec(tmp_path, WEIGHTED, "--target", "avx2")
    assert r.returncode == 0, r.stderr
    done = subprocess.run(
        [
            compiler,
            "-c",
            "-mavx2",
            "-mfma",
            flag,
            str(tmp_path / "out.c"),
            "-o",
            str(tmp_path / "o.o"),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and f"s2svec_macro_{macro}_changed" in done.stderr


def test_defines_given_to_s2svec_are_checked_too(tmp_path: Path) -> None:
    r = s2svec(tmp_path, WEIGHTED, "--target", "avx2", "-D", "WEIGHT=0.25")
    assert r.returncode == 0, r.stderr
    assert compiles(tmp_path, "avx2", "-DWEIGHT=0.25").returncode == 0
    assert compiles(tmp_path, "avx2").returncode != 0


CONDITIONAL = """\
void f(int *a, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) {
#ifdef FAST
        a[i] = 1;
#elif defined(SLOW)
        a[i] = 2;
#else
        a[i] = 3;
#endif
    }
}
"""


@pytest.mark.parametrize(
    "generated,built,ok",
    [
        ((), (), True),
        ((), ("-DSLOW",), False),
        (("-D", "SLOW"), ("-DSLOW",), True),
        (("-D", "SLOW"), ("-DFAST",), False),
        (("-D", "FAST"), ("-DFAST", "-DSLOW"), True),
    ],
)
def test_conditionals_in_the_loop_must_take_the_same_branch(
    tmp_path: Path, generated: tuple[str, ...], built: tuple[str, ...], ok: bool
) -> None:
    r = s2svec(tmp_path, CONDITIONAL, "--target", "avx2", *generated)
    assert r.returncode == 0, r.stderr
    done = compiles(tmp_path, "avx2", *built)
    assert (done.returncode == 0) == ok, done.stderr
    if not ok:
        assert "generated without this branch" in done.stderr


def test_conditional_crossing_the_loop_keeps_it_scalar(tmp_path: Path) -> None:
    source = (
        "void f(int *a, int n) {\n#pragma omp simd\n    for (int i = 0; i < n; i++)\n"
        "#ifdef X\n        a[i] = 1;\n#else\n        a[i] = 2;\n#endif\n}\n"
    )
    r = s2svec(tmp_path, source, "--target", "avx2")
    assert r.returncode == 0, r.stderr
    assert compiles(tmp_path, "avx2").returncode == 0


# -- nested and included loops -------------------------------------------------------

NESTED = """\
void f(double *a, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) {
#pragma omp simd
        for (int j = 0; j < 4; j++) a[i * 4 + j] += 1.0;
    }
}
"""


def test_nested_simd_pragmas_vectorize_the_outer_loop_once(tmp_path: Path) -> None:
    r = s2svec(tmp_path, NESTED, "--report=json")
    assert r.returncode == 0, r.stderr
    assert (
        "k.c:4:1: warning: loop not vectorized: it is nested in the simd loop at line 2" in r.stderr
    )
    for target in ("avx2", "avx512", "neon"):
        done = compiles(tmp_path, target)
        assert done.returncode == 0, done.stderr


def test_simd_loops_in_an_included_c_file_get_a_warning(tmp_path: Path) -> None:
    (tmp_path / "part.c").write_text(NESTED)
    (tmp_path / "guarded.h").write_text("#pragma omp declare simd\nint g(int);\n")
    r = s2svec(tmp_path, '#include "part.c"\n#include "guarded.h"\nint h(void) { return 0; }\n')
    assert r.returncode == 0, r.stderr
    assert "k.c:1:10: warning: simd loops in the included file" in r.stderr
    assert "part.c" in r.stderr and "guarded.h" not in r.stderr


def test_an_included_loop_whose_directive_is_a_macro_gets_the_warning(tmp_path: Path) -> None:
    """libgomp's for-2.h writes '#pragma omp F S', each test defining F
    (it went unmentioned: the warning looked for the word simd)."""
    (tmp_path / "loops.h").write_text(
        "void f(int *a, int n) {\n#pragma omp F S\n  for (int i = 0; i < n; i++) a[i]++;\n}\n"
    )
    code = '#define F parallel for simd\n#define S\n#include "loops.h"\n'
    r = s2svec(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert "k.c:3:10: warning: simd loops in the included file" in r.stderr
    r = s2svec(tmp_path, code.replace("for simd", "for"))
    assert r.returncode == 0 and "included file" not in r.stderr, r.stderr


# -- include guards and other user macros are not target macros (issue 19, item 3) -------

GUARDED_HEADER = """\
#ifndef {guard}
#define {guard}
void scale(float *a, const float *b, int n);
#endif
"""

SCALE = """\
void scale(float *a, const float *b, int n) {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] = b[i] * 2.0f + 1.0f;
}
"""

SCALE_MAIN = """\
#include <stdio.h>
void scale(float *a, const float *b, int n);
int main(void) {
    float a[37], b[37];
    for (int i = 0; i < 37; i++) b[i] = (float)i;
    scale(a, b, 37);
    printf("%g %g\\n", a[0], a[36]);
    return 0;
}
"""

X86_FLAGS = {
    "avx512": ["-mavx512f", "-mavx512dq", "-mavx512bw", "-mavx512vl", "-mavx2", "-mfma"],
    "avx2": ["-mavx2", "-mfma"],
}


def guarded_source(tmp_path: Path, guard: str, where: str) -> str:
    """A file holding SCALE with an include guard in a header or around itself."""
    if where == "header":
        (tmp_path / "scale.h").write_text(GUARDED_HEADER.format(guard=guard))
        return '#include "scale.h"\n' + SCALE
    return f"#ifndef {guard}\n#define {guard}\n{SCALE}#endif\n"


def host_has(flag: str) -> bool:
    return f" {flag}" in Path("/proc/cpuinfo").read_text()


@pytest.mark.parametrize("where", ["header", "main file"])
@pytest.mark.parametrize("guard", ["__FOO_H__", "__FOO_H", "_FOO_H_"])
def test_include_guards_never_guard_the_vector_code(tmp_path: Path, guard: str, where: str) -> None:
    r = s2svec(tmp_path, guarded_source(tmp_path, guard, where), "--report")
    assert r.returncode == 0, r.stderr
    out = (tmp_path / "out.c").read_text()
    conditions = [line for line in out.splitlines() if line.startswith(("#if ", "#elif "))]
    assert conditions and not any(guard in line for line in conditions), conditions
    for target, flags in X86_FLAGS.items():
        pre = subprocess.run(
            ["gcc", "-E", "-P", *flags, str(tmp_path / "out.c")],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert pre.returncode == 0, pre.stderr
        body = pre.stdout[pre.stdout.rindex("void scale(") :]
        wide = {"avx512": "_mm512_loadu_ps", "avx2": "_mm256_loadu_ps"}
        assert wide[target] in body and all(
            w not in body for t, w in wide.items() if t != target
        ), body


@pytest.mark.parametrize("guard", ["__FOO_H__", "_FOO_H_"])
def test_a_guarded_program_runs_the_vector_code(tmp_path: Path, guard: str) -> None:
    """Built with the avx2 flags, scale() holds ymm instructions and computes
    what the scalar program computes."""
    if not host_has("avx2"):
        pytest.skip("the host has no AVX2")
    r = s2svec(tmp_path, guarded_source(tmp_path, guard, "header"))
    assert r.returncode == 0, r.stderr
    (tmp_path / "main.c").write_text(SCALE_MAIN)
    subprocess.run(
        ["gcc", "-O1", *X86_FLAGS["avx2"], "-c", "out.c", "-o", "out.o"], cwd=tmp_path, check=True
    )
    dump = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", "out.o"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "%ymm" in dump.split("<scale>:")[1]
    subprocess.run(["gcc", "out.o", "main.c", "-o", "prog"], cwd=tmp_path, check=True)
    ran = subprocess.run(["./prog"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert ran.stdout == "1 73\n"


def test_include_guards_do_not_split_the_x86_parse(tmp_path: Path) -> None:
    source = tmp_path / "k.c"
    source.write_text(guarded_source(tmp_path, "__FOO_H__", "header"))
    views = parse_views(str(source), [], [], "gnu17", TARGETS)
    assert views["avx512"] is views["avx2"] and views["avx2"].assumed == {}
    assert "__FOO_H__" in views["avx2"].names


def test_only_macros_the_compilers_predefine_per_target_tell_targets_apart() -> None:
    from s2s.frontend.target_macros import target_macros

    avx2, avx512, neon = (load_target(n).parse_args for n in ("avx2", "avx512", "neon"))
    macros = target_macros((avx2, avx512, neon))
    assert {"__AVX512F__", "__AVX512VL__"} <= macros.differ(avx2, avx512)
    assert "__AVX2__" not in macros.differ(avx2, avx512)
    assert {"__aarch64__", "__x86_64__", "__AVX512F__", "__ARM_NEON"} <= macros.toggled
    for user in ("__FOO_H__", "__FOO_H", "_FOO_H_", "__unreadable__", "WEIGHT"):
        assert user not in macros.varying
