"""declare simd output builds the way OpenMP programs are built.

A two-object program (``main.c``, ``defs.c`` and the header ``simd.h``)
holds every kind of declare simd function: the pragma on the definition,
only on a declaration in the header (``hcube``), static and static inline
functions called from simd loops of their own file (one defined after the
loop), a C99 inline definition in the header whose external definition is
in ``defs.c`` (``twice``), and an ``extern inline`` definition (``ext``).
Both files go through s2svec and are built by gcc 12 and clang-19, without
OpenMP flags, with ``-fopenmp-simd`` and with ``-fopenmp``, on x86-64 (the
vector branches with ``-march=native``; the ``#else`` branches with plain
``-O2``, where gcc vectorizes the original loops itself and calls the
variants) and on AArch64 (cross-built, under qemu).  Each program must print
what the original program prints, built plainly.

gcc makes its own simd clones of a declare simd definition under
``-fopenmp``/``-fopenmp-simd``; s2svec's redeclaration with ``__noclone__``
keeps them out.  ``nm`` shows that the object's variants are s2svec's: the
object defines exactly the variants s2svec wrote, with the same sizes as in
the build without OpenMP flags (where the compiler makes no clones at all).
Variants of static functions are local symbols, as gcc's clones of them are.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

HEADER = r"""
/* declare simd only here: defs.c defines hcube without the pragma */
#pragma omp declare simd notinbranch
double hcube(double x);

/* a C99 inline definition: defs.c holds the external one */
#pragma omp declare simd notinbranch
inline double twice(double x) { return x + x; }

#pragma omp declare simd
double plain(double x);

#pragma omp declare simd uniform(s) notinbranch
float ext(float x, float s);
"""

DEFS = r"""
#include "simd.h"
double hcube(double x) { return x * x * x; }
extern double twice(double x);   /* makes this the external definition of twice */
#pragma omp declare simd
__attribute__((noinline)) double plain(double x)
{
    if (x > 1.0) return x * 0.5;
    return x - 3.0;
}
#pragma omp declare simd uniform(s) notinbranch
extern inline float ext(float x, float s) { return x * s + 1.0f; }
"""

MAIN = r"""
#include <stdio.h>
#include "simd.h"
#pragma omp declare simd notinbranch
static double sq(double x) { return x * x; }
#pragma omp declare simd
static inline double halve(double x) { return x > 0.0 ? x * 0.5 : -x; }
static double late(double x);
#define N 1003
double a[N], r1[N], r2[N], r3[N], r4[N], r5[N], r6[N];
float f[N], r7[N];

static void kernel(int n)
{
#pragma omp simd
    for (int i = 0; i < n; i++) r1[i] = sq(a[i]) + late(a[i]);
#pragma omp simd
    for (int i = 0; i < n; i++) { if (a[i] < 1.0) r2[i] = halve(a[i]); else r2[i] = 7.0; }
#pragma omp simd
    for (int i = 0; i < n; i++) r3[i] = hcube(a[i]);
#pragma omp simd
    for (int i = 0; i < n; i++) r4[i] = twice(a[i]);
#pragma omp simd
    for (int i = 0; i < n; i++) { if (a[i] > -0.5) r5[i] = plain(a[i]); else r5[i] = 0.0; }
#pragma omp simd
    for (int i = 0; i < n; i++) r6[i] = plain(a[i]);
#pragma omp simd
    for (int i = 0; i < n; i++) r7[i] = ext(f[i], 0.75f);
}

/* defined after the loop that calls it */
#pragma omp declare simd notinbranch
static double late(double x) { return x + 0.25; }

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (double)(i % 13) * 0.25 - 1.0;
        f[i] = (float)(i % 7) - 2.5f;
    }
    kernel(N);
    for (int i = 0; i < N; i++)
        printf("%a %a %a %a %a %a %a\n", r1[i], r2[i], r3[i], r4[i], r5[i], r6[i], r7[i]);
    return 0;
}
"""

STATIC_FUNCTIONS = ("sq", "halve", "late")


@dataclass(frozen=True)
class Abi:
    name: str
    linker: tuple[str, ...]
    """Links the objects (and runs nothing)."""
    runner: tuple[str, ...]
    nm: str
    arch_macro: str


X86 = Abi("x86_64", ("gcc",), (), "nm", "__x86_64__")
AARCH64 = Abi(
    "aarch64",
    ("aarch64-linux-gnu-gcc", "-static"),
    ("qemu-aarch64",),
    "aarch64-linux-gnu-nm",
    "__aarch64__",
)


@dataclass(frozen=True)
class Build:
    name: str
    cc: tuple[str, ...]
    flags: tuple[str, ...]
    abi: Abi


BUILDS = [
    Build("gcc-native", ("gcc",), ("-O2", "-march=native"), X86),
    Build("gcc-O2", ("gcc",), ("-O2",), X86),
    Build("clang19-native", ("clang-19",), ("-O2", "-march=native"), X86),
    Build("clang19-O2", ("clang-19",), ("-O2",), X86),
    Build("gcc-neon", ("aarch64-linux-gnu-gcc",), ("-O2",), AARCH64),
    Build("clang19-neon", ("clang-19", "--target=aarch64-linux-gnu"), ("-O2",), AARCH64),
]
OPENMP = ["", "-fopenmp-simd", "-fopenmp"]


def _have(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (scripts/setup.sh installs it)")


def _run(cmd: list[str], cwd: Path) -> str:
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    assert r.returncode == 0, f"{' '.join(cmd)}\n{r.stderr}"
    return r.stdout


def _openmp(cc: tuple[str, ...], flag: str) -> list[str]:
    """clang gets gcc's OpenMP runtime (the program calls none of it)."""
    if flag == "-fopenmp" and "clang" in cc[0]:
        return ["-fopenmp=libgomp"]
    return [flag] if flag else []


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The program and s2svec's translations of its two files."""
    d = tmp_path_factory.mktemp("declare_build")
    (d / "simd.h").write_text(HEADER)
    (d / "defs.c").write_text(DEFS)
    (d / "main.c").write_text(MAIN)
    for stem in ("main", "defs"):
        _run([sys.executable, "-m", "s2s", f"{stem}.c", "-o", f"{stem}_simd.c"], d)
    return d


def _reference(sources: Path, abi: Abi) -> str:
    binary = f"ref-{abi.name}"
    if not (sources / binary).exists():
        _run([*abi.linker, "-O2", "main.c", "defs.c", "-o", binary], sources)
    return _run([*abi.runner, f"./{binary}"], sources)


def _symbols(nm: str, obj: Path) -> dict[str, tuple[str, str]]:
    """Defined symbol -> its nm type letter and size."""
    out = _run([nm, "--defined-only", "-S", str(obj)], obj.parent)
    return {
        parts[-1]: (parts[-2], parts[1] if len(parts) == 4 else "")
        for parts in (line.split() for line in out.splitlines())
        if len(parts) >= 3
    }


def _compile(sources: Path, build: Build, openmp: str, stem: str) -> Path:
    """s2svec's output of ``stem``.c built by ``build`` with ``openmp`` (once)."""
    obj = sources / f"{stem}-{build.name}{openmp}.o"
    if not obj.exists():
        _run(
            [
                *build.cc,
                *build.flags,
                *_openmp(build.cc, openmp),
                "-ffp-contract=off",
                "-c",
                f"{stem}_simd.c",
                "-o",
                obj.name,
            ],
            sources,
        )
    return obj


def _variants_written(text: str, arch_macro: str) -> set[str]:
    """The variants s2svec's output defines for one architecture: the
    definitions inside its ``#if defined(<arch>)`` blocks."""
    names: set[str] = set()
    depth, inside = 0, False
    lines = text.splitlines()
    for line, following in zip(lines, lines[1:] + [""]):
        if line.startswith("#if"):
            inside = inside or (depth == 0 and line == f"#if defined({arch_macro})")
            depth += 1
        elif line.startswith("#endif"):
            depth -= 1
            inside = inside and depth > 0
        elif inside and following == "{" and (m := re.search(r"\b(_ZGV\w+)\(", line)):
            names.add(m.group(1))
    return names


@pytest.mark.parametrize("openmp", OPENMP, ids=lambda f: f or "plain")
@pytest.mark.parametrize("build", BUILDS, ids=lambda b: b.name)
def test_output_builds_with_openmp_flags(sources: Path, build: Build, openmp: str) -> None:
    _have(build.cc[0], *build.abi.linker[:1], *build.abi.runner, build.abi.nm)
    expected = _reference(sources, build.abi)
    main, defs = (_compile(sources, build, openmp, stem) for stem in ("main", "defs"))
    binary = f"{build.name}{openmp}"
    _run(
        [
            *build.abi.linker,
            *([openmp] if openmp else []),
            main.name,
            defs.name,
            "-o",
            binary,
            "-lm",
        ],
        sources,
    )
    assert _run([*build.abi.runner, f"./{binary}"], sources) == expected

    written = _variants_written((sources / "defs_simd.c").read_text(), build.abi.arch_macro)
    variants = {n: v for n, v in _symbols(build.abi.nm, defs).items() if n.startswith("_ZGV")}
    assert written and variants.keys() == written, (
        f"the object's variants are not the ones s2svec wrote: {sorted(variants)}"
    )
    assert all(kind == "T" for kind, _ in variants.values())
    if openmp:  # the same code as where the compiler makes no clones at all
        plain = _symbols(build.abi.nm, _compile(sources, build, "", "defs"))
        assert variants == {n: v for n, v in plain.items() if n.startswith("_ZGV")}
    statics = {
        n: kind
        for n, (kind, _) in _symbols(build.abi.nm, main).items()
        if n.startswith("_ZGV") and n.rsplit("_", 1)[1] in STATIC_FUNCTIONS
    }
    assert all(kind == "t" for kind in statics.values()), f"global static variants: {statics}"


@pytest.mark.parametrize("abi", [X86, AARCH64], ids=lambda a: a.name)
def test_gcc_openmp_callers_link_with_s2svec_variants(sources: Path, abi: Abi) -> None:
    """The original main.c built by gcc -O3 -fopenmp-simd calls the variants
    of defs.c's functions; s2svec's defs.c built with -fopenmp-simd defines
    them (and no gcc clones), and the program prints the plain program's
    results."""
    cc = abi.linker[0]
    _have(cc, *abi.runner, abi.nm)
    expected = _reference(sources, abi)
    native = ["-march=native"] if abi is X86 else []
    flags = ["-O3", "-fopenmp-simd", "-ffp-contract=off", *native]
    tag = f"gcc-caller-{abi.name}"
    _run([cc, *flags, "-c", "main.c", "-o", f"main-{tag}.o"], sources)
    _run([cc, *flags, "-c", "defs_simd.c", "-o", f"defs-{tag}.o"], sources)
    undefined = _run([abi.nm, "-u", f"main-{tag}.o"], sources)
    assert re.search(r"_ZGV\w+_(hcube|twice|plain|ext)\b", undefined), (
        "gcc's loops call none of defs.c's variants: the test proves nothing"
    )
    _run([*abi.linker, f"main-{tag}.o", f"defs-{tag}.o", "-o", tag, "-lm"], sources)
    assert _run([*abi.runner, f"./{tag}"], sources) == expected


def test_line_directives_after_variants(tmp_path: Path) -> None:
    """With --line-directives, a diagnostic in code after a function's
    variants (and its noclone redeclaration) names the input's line."""
    _have("gcc")
    src = tmp_path / "lines.c"
    src.write_text(
        "#pragma omp declare simd notinbranch\n"
        "static double sq(double x) { return x * x; }\n"
        "int after(void)\n"
        "{\n"
        "    int unused_here;\n"
        "    return (int)sq(2.0);\n"
        "}\n"
    )
    _run([sys.executable, "-m", "s2s", "lines.c", "-o", "out.c", "--line-directives"], tmp_path)
    r = subprocess.run(
        ["gcc", "-Wall", "-fopenmp-simd", "-c", "out.c", "-o", "out.o"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert re.search(r"lines\.c:5:\d+: warning: unused variable .unused_here.", r.stderr), r.stderr


EMISSION_CASES = [
    ("inline double f(double x){return x;}\n", "-std=gnu17", False),
    ("inline double f(double x){return x;}\n", "-std=gnu89", True),
    ("inline double f(double x){return x;}\ndouble f(double);\n", "-std=gnu17", True),
    (
        "#define EXT extern\ninline double f(double x){return x;}\nEXT double f(double);\n",
        "-std=gnu17",
        True,
    ),
    (
        "#define INL inline\ninline double f(double);\nINL double f(double x){return x;}\n",
        "-std=gnu17",
        False,
    ),
    ("extern inline double f(double x){return x;}\n", "-std=gnu17", True),
    ("extern inline double f(double x){return x;}\n", "-fgnu89-inline", False),
    (
        "__attribute__((gnu_inline)) extern inline double f(double x){return x;}\n",
        "-std=gnu17",
        False,
    ),
    (
        "inline double f(double x){return x;}\nvoid g(void){ extern double f(double); }\n",
        "-std=gnu17",
        False,
    ),
    ("static inline double f(double x){return x;}\n", "-std=gnu17", True),
    ("double f(double x){return x;}\n", "-std=gnu17", True),
]


@pytest.mark.parametrize("text,mode,emitted", EMISSION_CASES)
def test_which_definitions_gcc_emits(tmp_path: Path, text: str, mode: str, emitted: bool) -> None:
    """frontend.linkage agrees with gcc 12 on whether a definition (and so
    its simd clones) is emitted."""
    import clang.cindex as ci

    from s2s.frontend.linkage import is_emitted

    _have("gcc")
    src = tmp_path / "f.c"
    src.write_text(
        "#pragma omp declare simd notinbranch\n" + text + "double use(double x) { return f(x); }\n"
    )
    args = ["-std=gnu17", mode] if mode.startswith("-f") else [mode]
    _run(["gcc", "-O0", "-fopenmp-simd", *args, "-c", "f.c", "-o", "f.o"], tmp_path)
    gcc_clones = "_ZGVbN2v_f" in _symbols("nm", tmp_path / "f.o")
    assert gcc_clones == emitted
    tu = ci.Index.create().parse(
        str(src), args=args, options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    )
    definition = next(
        c for c in tu.cursor.get_children() if c.spelling == "f" and c.is_definition()
    )
    assert is_emitted(definition) == emitted


@pytest.mark.parametrize("openmp", ["-fopenmp-simd", "-fopenmp"])
def test_wrapper_builds_the_translation_with_openmp_flags(sources: Path, openmp: str) -> None:
    """``s2svec-cc gcc -fopenmp...`` compiles s2svec's translation (it fell
    back to the original file when gcc's clones clashed with s2svec's
    variants), and the object has s2svec's variants."""
    _have("gcc")
    obj = f"wrapped{openmp}.o"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "s2s.wrapper",
            "gcc",
            "-O2",
            "-march=native",
            openmp,
            "-c",
            "defs.c",
            "-o",
            obj,
        ],
        capture_output=True,
        text=True,
        cwd=sources,
    )
    assert r.returncode == 0 and "s2svec-cc" not in r.stderr, r.stderr
    variants = {n for n in _symbols("nm", sources / obj) if n.startswith("_ZGV")}
    assert variants == _variants_written((sources / "defs_simd.c").read_text(), "__x86_64__")
