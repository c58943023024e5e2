"""Mangled names of declare simd variants against what gcc 12 emits (``nm``).

Each declaration is compiled by gcc (x86-64) and aarch64-linux-gnu-gcc with
``-fopenmp-simd``; the ``_ZGV`` symbols of the object must be exactly the
variants s2s.frontend.declare_simd computes for that architecture.  gcc 12
makes no SVE variants: their names (``_ZGVsMx...``) are checked against the
ones clang-19 writes into its IR under ``-march=armv8-a+sve``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from s2s.frontend.declare_simd import collect
from s2s.frontend.parse import parse_file
from s2s.frontend.pragmas import find_pragmas
from s2s.vfabi import ParamKind

DECLS = [
    "#pragma omp declare simd\nfloat f(float x) { return x; }",
    "#pragma omp declare simd\ndouble f(double x) { return x; }",
    "#pragma omp declare simd\nint f(int x) { return x; }",
    "#pragma omp declare simd\nchar f(char x) { return x; }",
    "#pragma omp declare simd\nshort f(short x) { return x; }",
    "#pragma omp declare simd\nlong f(long x) { return x; }",
    "#pragma omp declare simd\nunsigned char f(unsigned char x) { return x; }",
    "#pragma omp declare simd notinbranch\nfloat f(float x) { return x; }",
    "#pragma omp declare simd inbranch\ndouble f(double x) { return x; }",
    "#pragma omp declare simd simdlen(8) notinbranch\ndouble f(double x) { return x; }",
    "#pragma omp declare simd simdlen(4)\nfloat f(float x) { return x; }",
    "#pragma omp declare simd simdlen(32) inbranch\nfloat f(float x) { return x; }",
    "#pragma omp declare simd uniform(p) linear(i:2) aligned(p:32)\n"
    "int f(int *p, int i, char c) { return p[i] + c; }",
    "#pragma omp declare simd uniform(s) linear(i:s)\nchar f(int s, int i) { return i * s; }",
    "#pragma omp declare simd linear(val(v):3) linear(u)\n"
    "short f(short *r, short *v, int *u) { return *r + *v + *u; }",
    "#pragma omp declare simd linear(p:-2) uniform(n)\n"
    "double f(double *p, int n) { return *p * n; }",
    "#pragma omp declare simd linear(i:-1)\nint f(int i) { return i; }",
    "#pragma omp declare simd\nvoid f(float *a, int x) { a[x] = 0; }",
    "#pragma omp declare simd uniform(a) linear(x)\nlong f(long *a, long x) { return a[x]; }",
    "#pragma omp declare simd uniform(a) aligned(a:64) linear(i:1)\n"
    "double f(double *a, double b, long i) { return a[i] * b; }",
    "#pragma omp declare simd\nfloat f(float x, float y, float z) { return x + y * z; }",
    "#pragma omp declare simd notinbranch\n#pragma omp declare simd simdlen(16) inbranch\n"
    "float f(float x) { return x; }",
    "#pragma omp declare simd\nint f(int x);\n#pragma omp declare simd notinbranch\n"
    "int f(int x) { return x; }",
    "#pragma omp declare simd uniform(k)\nunsigned f(unsigned x, unsigned k) { return x >> k; }",
]


def _gcc_names(tmp_path: Path, code: str, cc: str) -> set[str]:
    if shutil.which(cc) is None:
        pytest.skip(f"{cc} is not installed (scripts/setup.sh installs it)")
    src = tmp_path / "d.c"
    src.write_text(code + "\n")
    obj = tmp_path / f"d.{cc}.o"
    subprocess.run([cc, "-O1", "-fopenmp-simd", "-w", "-c", str(src), "-o", str(obj)], check=True)
    out = subprocess.run(["nm", str(obj)], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if "_ZGV" in line}


def _ours(tmp_path: Path, code: str, isas: str) -> set[str]:
    src = tmp_path / "d.c"
    src.write_text(code + "\n")
    parsed = parse_file(str(src), [], [], "gnu17")
    fns = collect(find_pragmas(parsed), parsed.data)
    return {v.mangled for fn in fns.values() for v in fn.variants if v.isa.letter in isas}


@pytest.mark.parametrize("code", DECLS)
@pytest.mark.parametrize("cc,isas", [("gcc", "bcde"), ("aarch64-linux-gnu-gcc", "n")])
def test_names_match_gcc(tmp_path: Path, code: str, cc: str, isas: str) -> None:
    assert _ours(tmp_path, code, isas) == _gcc_names(tmp_path, code, cc)


def _clang_sve_names(tmp_path: Path, code: str) -> set[str]:
    """The vector-length agnostic SVE variants clang-19 names (gcc 12 makes
    none): the attributes it writes on the function under +sve."""
    if shutil.which("clang-19") is None:
        pytest.skip("clang-19 is not installed (scripts/setup.sh installs it)")
    src = tmp_path / "d.c"
    src.write_text(code + "\n")
    ir = subprocess.run(
        [
            "clang-19",
            "--target=aarch64-linux-gnu",
            "-march=armv8-a+sve",
            "-fopenmp-simd",
            "-w",
            "-S",
            "-emit-llvm",
            "-o",
            "-",
            str(src),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(re.findall(r'"(_ZGVsMx[^"(]*)"', ir))


@pytest.mark.parametrize("code", DECLS)
def test_sve_names_match_clang(tmp_path: Path, code: str) -> None:
    """The SVE variant (_ZGVsMx...: always masked, no simdlen) is named as
    clang-19 names it."""
    assert _ours(tmp_path, code, "s") == _clang_sve_names(tmp_path, code)


def test_table_covers_every_letter(tmp_path: Path) -> None:
    """The table above exercises every parameter letter s2svec emits in C."""
    seen = "".join(n for code in DECLS for n in _ours(tmp_path, code, "bcden"))
    for part in ("v", "u", "l2", "ln16", "ln1", "ls0", "l6", "a32", "a64", "_ZGVbM", "_ZGVnN"):
        assert part in seen, part


@pytest.mark.parametrize(
    "kind,text",
    [
        (ParamKind("v"), "v"),
        (ParamKind("u", align=16), "ua16"),
        (ParamKind("l"), "l"),
        (ParamKind("l", 8), "l8"),
        (ParamKind("l", -4), "ln4"),
        (ParamKind("ls", 2), "ls2"),
        (ParamKind("R", 4), "R4"),
        (ParamKind("U"), "U"),
        (ParamKind("L", 8, 32), "L8a32"),
    ],
)
def test_parameter_letters(kind: ParamKind, text: str) -> None:
    """The ABI's letters, also those C cannot produce (R/U/L need C++
    references: gcc's C front end rejects ref and uval)."""
    assert kind.mangle() == text
