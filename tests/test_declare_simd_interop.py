"""declare simd interop with gcc and clang, both ways, on AVX-512, AVX2 and NEON;
and the vector-length agnostic variants of SVE and RISC-V V (at the end).

(a) A caller compiled by gcc/clang-19 with ``-fopenmp-simd`` declares the
    functions with the same pragmas, vectorizes its loops and links against
    the variants s2svec emitted into the translated definition file.
(b) s2svec translates the caller (the functions only declared: extern), its
    loops call the variants gcc generated from the definition file.

Each program must print what the scalar program prints (caller without
``-fopenmp-simd`` + scalar definitions), and the caller's object must really
reference ``_ZGV`` symbols (else the test would prove nothing).  The
functions avoid a gcc 12 caller bug found on the way: with
``-march=native`` its loop calling ``double g(const double *, int, double)``
(uniform, linear int, varying double) on converted float data computes
wrong results with gcc's own variants too, and so does the same loop on
double data (its ``_ZGVeN8ulv_g`` calls); under gcc with AVX-512 the ``g``
loop is left out (``-DNO_G``).  clang-19 vectorizes none of these loops
(``loop not vectorized``: clang 19 writes the variant names into
attributes its loop vectorizer does not read), so a clang-19 caller calls
the scalar functions, which must still link and give the same results; the
other way, s2svec's loops built by clang-19 call gcc's variants.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEFS = r"""
#pragma omp declare simd
float f(float x)
{
    if (x > 1.0f) return x * 2.0f;
    return x - 3.0f;
}

#pragma omp declare simd uniform(a) linear(i:1) notinbranch
double g(const double *a, int i, double s) { return a[i] * s + (double)i; }

#pragma omp declare simd
double powi(double b, long e)
{
    double r = 1.0;
    while (e > 0) {
        if (e & 1) r *= b;
        b *= b;
        e >>= 1;
    }
    return r;
}

#pragma omp declare simd notinbranch
int band(double x, long k) { return x > 0.5 ? (int)k * 3 : (int)k - (int)(x * 4.0); }
"""

CALLER = r"""
#include <stdio.h>
#pragma omp declare simd
float f(float x);
#pragma omp declare simd uniform(a) linear(i:1) notinbranch
double g(const double *a, int i, double s);
#pragma omp declare simd
double powi(double b, long e);
#pragma omp declare simd notinbranch
int band(double x, long k);
#define N 1003
float in[N], o1[N], o2[N]; double d[N], o3[N], o4[N]; long e[N]; int o5[N];
void kern(int n)
{
#pragma omp simd
    for (int i = 0; i < n; i++) o1[i] = f(in[i]);
#pragma omp simd
    for (int i = 0; i < n; i++) { if (in[i] > 0.2f) o2[i] = f(in[i]); else o2[i] = -1.0f; }
#ifndef NO_G
#pragma omp simd
    for (int i = 0; i < n; i++) o3[i] = g(d, i, d[i] * 0.5);
#endif
#pragma omp simd
    for (int i = 0; i < n; i++) o4[i] = powi(d[i], e[i]);
#pragma omp simd
    for (int i = 0; i < n; i++) o5[i] = band(d[i], e[i]);
}
int main(void)
{
    for (int i = 0; i < N; i++) {
        in[i] = (float)(i % 7) * 0.5f - 1.0f; d[i] = (double)(i % 11) * 0.25 - 1.0;
        e[i] = (i * 7) % 13;
    }
    kern(N);
    for (int i = 0; i < N; i++) printf("%a %a %a %a %d\n", o1[i], o2[i], o3[i], o4[i], o5[i]);
    return 0;
}
"""

X86 = [("avx512", ["-march=native"]), ("avx2", ["-mavx2", "-mfma"])]


def _have(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (scripts/setup.sh installs it)")


def _run(cmd: list[str]) -> str:
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, f"{' '.join(cmd)}\n{r.stderr}"
    return r.stdout


def _avx512() -> bool:
    return " avx512f" in Path("/proc/cpuinfo").read_text()


def _files(tmp: Path) -> tuple[Path, Path]:
    (tmp / "defs.c").write_text(DEFS)
    (tmp / "caller.c").write_text(CALLER)
    return tmp / "defs.c", tmp / "caller.c"


def _s2svec(src: Path, out: Path) -> None:
    _run([sys.executable, "-m", "s2s", str(src), "-o", str(out)])


def _calls_variants(obj: Path, nm: str = "nm", *names: str) -> None:
    undefined = _run([nm, "-u", str(obj)])
    assert "_ZGV" in undefined, "the caller calls no vector variant"
    for name in names:
        assert f"_{name}\n" in undefined, f"the caller calls no vector variant of {name}"


def _reference(tmp: Path, cc: list[str], run: list[str]) -> str:
    defs, caller = _files(tmp)
    _run(cc + ["-O2", str(caller), str(defs), "-o", str(tmp / "ref")])
    return _run(run + [str(tmp / "ref")])


@pytest.mark.parametrize("isa,flags", X86)
@pytest.mark.parametrize("caller_cc", ["gcc", "clang-19"])
def test_gcc_and_clang_callers_use_s2svec_variants(
    tmp_path: Path, isa: str, flags: list[str], caller_cc: str
) -> None:
    _have(caller_cc)
    if isa == "avx512" and not _avx512():
        pytest.skip("the host has no AVX-512")
    expected = _reference(tmp_path, ["gcc"], [])
    defs, caller = _files(tmp_path)
    _s2svec(defs, tmp_path / "defs_simd.c")
    common = ["-ffp-contract=off", *flags]
    _run(["gcc", "-O2", *common, "-c", str(tmp_path / "defs_simd.c"), "-o", str(tmp_path / "d.o")])
    no_g = ["-DNO_G"] if (caller_cc, isa) == ("gcc", "avx512") else []
    expected = _reference(tmp_path, ["gcc", *no_g], [])
    _run(
        [
            caller_cc,
            "-O3",
            "-fopenmp-simd",
            *common,
            *no_g,
            "-c",
            str(caller),
            "-o",
            str(tmp_path / "c.o"),
        ]
    )
    if caller_cc == "gcc":
        _calls_variants(tmp_path / "c.o")
    # clang-19 records the variants only in attributes its vectorizer does not
    # read: its loops stay scalar and call the scalar functions, which the
    # translated file must still define with their results.
    _run(["gcc", str(tmp_path / "c.o"), str(tmp_path / "d.o"), "-o", str(tmp_path / "t")])
    assert _run([str(tmp_path / "t")]) == expected


@pytest.mark.parametrize("isa,flags", X86)
@pytest.mark.parametrize("output_cc", ["gcc", "clang-19"])
def test_s2svec_loops_call_gcc_variants(
    tmp_path: Path, isa: str, flags: list[str], output_cc: str
) -> None:
    _have(output_cc)
    if isa == "avx512" and not _avx512():
        pytest.skip("the host has no AVX-512")
    expected = _reference(tmp_path, ["gcc"], [])
    defs, caller = _files(tmp_path)
    _s2svec(caller, tmp_path / "caller_simd.c")
    common = ["-ffp-contract=off", *flags]
    _run(["gcc", "-O3", "-fopenmp-simd", *common, "-c", str(defs), "-o", str(tmp_path / "d.o")])
    _run(
        [
            output_cc,
            "-O2",
            *common,
            "-c",
            str(tmp_path / "caller_simd.c"),
            "-o",
            str(tmp_path / "c.o"),
        ]
    )
    # band's double (AVX-512) and long (AVX2: gcc's AVX variant) parameters
    # take two registers of its variants: the loop's vector is passed in halves
    _calls_variants(tmp_path / "c.o", "nm", "band")
    _run(["gcc", str(tmp_path / "c.o"), str(tmp_path / "d.o"), "-o", str(tmp_path / "t")])
    assert _run([str(tmp_path / "t")]) == expected


STRUCT_DEFS = r"""
struct coef { double a, b; int k; };
#pragma omp declare simd uniform(c)
double poly(struct coef c, double x) { if (x > 0.5) return c.a * x + c.b; return c.b - x * c.k; }
#pragma omp declare simd uniform(z) notinbranch
float rot(_Complex float z, float x) { return __real__ z * x - __imag__ z; }
"""

# An ABI caller written by hand: the uniform struct and complex values go as
# the scalar function takes them, the varying ones in vectors (masks: a lane
# of all ones is active).
STRUCT_CALLER = r"""
#include <immintrin.h>
#include <stdio.h>
struct coef { double a, b; int k; };
double poly(struct coef c, double x);
float rot(_Complex float z, float x);
__m128d _ZGVbN2uv_poly(struct coef, __m128d);
__m128d _ZGVbM2uv_poly(struct coef, __m128d, __m128d);
__m256d _ZGVdN4uv_poly(struct coef, __m256d);
__m256d _ZGVdM4uv_poly(struct coef, __m256d, __m256d);
__m256 _ZGVdN8uv_rot(_Complex float, __m256);
#ifdef __AVX512F__
__m512d _ZGVeN8uv_poly(struct coef, __m512d);
__m512 _ZGVeN16uv_rot(_Complex float, __m512);
#endif
#define N 64
int main(void)
{
    struct coef c = {1.5, -0.25, 3};
    _Complex float z = 2.0f - 0.5f * __extension__ 1.0iF;
    double x[N], r[N];
    float y[N], s[N];
    int bad = 0;
    for (int i = 0; i < N; i++) {
        x[i] = (i % 11) * 0.125 - 0.25;
        y[i] = (float)(i % 7) * 0.5f - 1.0f;
    }
    for (int i = 0; i < N; i += 2)
        _mm_storeu_pd(r + i, _ZGVbN2uv_poly(c, _mm_loadu_pd(x + i)));
    for (int i = 0; i < N; i++) bad += r[i] != poly(c, x[i]);
    for (int i = 0; i < N; i += 4)
        _mm256_storeu_pd(r + i, _ZGVdN4uv_poly(c, _mm256_loadu_pd(x + i)));
    for (int i = 0; i < N; i++) bad += r[i] != poly(c, x[i]);
    for (int i = 0; i < N; i += 2) {  /* lane 1 of every other call inactive */
        __m128d m = _mm_castsi128_pd(_mm_set_epi64x((i & 2) ? 0 : -1, -1));
        _mm_storeu_pd(r + i, _ZGVbM2uv_poly(c, _mm_loadu_pd(x + i), m));
        bad += r[i] != poly(c, x[i]) || (!(i & 2) && r[i + 1] != poly(c, x[i + 1]));
    }
    for (int i = 0; i < N; i += 4) {
        __m256d m = _mm256_castsi256_pd(_mm256_set_epi64x(0, -1, (i & 4) ? 0 : -1, -1));
        _mm256_storeu_pd(r + i, _ZGVdM4uv_poly(c, _mm256_loadu_pd(x + i), m));
        bad += r[i] != poly(c, x[i]) || r[i + 2] != poly(c, x[i + 2]);
        bad += !(i & 4) && r[i + 1] != poly(c, x[i + 1]);
    }
    for (int i = 0; i < N; i += 8)
        _mm256_storeu_ps(s + i, _ZGVdN8uv_rot(z, _mm256_loadu_ps(y + i)));
    for (int i = 0; i < N; i++) bad += s[i] != rot(z, y[i]);
#ifdef __AVX512F__
    for (int i = 0; i < N; i += 8)
        _mm512_storeu_pd(r + i, _ZGVeN8uv_poly(c, _mm512_loadu_pd(x + i)));
    for (int i = 0; i < N; i++) bad += r[i] != poly(c, x[i]);
    for (int i = 0; i < N; i += 16)
        _mm512_storeu_ps(s + i, _ZGVeN16uv_rot(z, _mm512_loadu_ps(y + i)));
    for (int i = 0; i < N; i++) bad += s[i] != rot(z, y[i]);
#endif
    printf("%d wrong lanes\n", bad);
    return bad != 0;
}
"""


@pytest.mark.parametrize("defs_by", ["s2svec-gcc", "s2svec-clang-19", "gcc"])
def test_uniform_struct_and_complex_parameters(tmp_path: Path, defs_by: str) -> None:
    """Variants of functions with a uniform struct or complex parameter (gcc
    makes them too: ``_ZGVdN4uv_poly``) give every active lane the scalar
    function's result, s2svec's built by gcc or clang-19, and gcc's own
    (the same caller, so both follow one ABI)."""
    _have("clang-19")
    flags = ["-march=native"] if _avx512() else ["-mavx2", "-mfma"]
    common = ["-O2", "-ffp-contract=off", *flags]
    (tmp_path / "defs.c").write_text(STRUCT_DEFS)
    (tmp_path / "caller.c").write_text(STRUCT_CALLER)
    if defs_by == "gcc":
        defs, cc = tmp_path / "defs.c", ["gcc", "-fopenmp-simd"]
    else:
        defs, cc = tmp_path / "defs_simd.c", [defs_by.removeprefix("s2svec-")]
        _s2svec(tmp_path / "defs.c", defs)
    _run([*cc, *common, "-c", str(defs), "-o", str(tmp_path / "d.o")])
    exe = tmp_path / "t"
    _run(["gcc", *common, str(tmp_path / "caller.c"), str(tmp_path / "d.o"), "-o", str(exe)])
    assert _run([str(exe)]) == "0 wrong lanes\n"


@pytest.mark.parametrize("direction", ["gcc-caller", "s2svec-caller", "s2svec-caller-clang19"])
def test_neon_both_ways(tmp_path: Path, direction: str) -> None:
    """AArch64 AdvSIMD (cross-built, static, under qemu).  gcc 12 makes no
    AArch64 variants of ``g`` (mixed sizes), so its loop calls ``g`` per lane.
    ``s2svec-caller-clang19``: s2svec's loops built by clang-19 call gcc's
    variants."""
    cc = "aarch64-linux-gnu-gcc"
    _have(cc)
    _have("qemu-aarch64")
    caller_cc = [cc]
    if direction == "s2svec-caller-clang19":
        _have("clang-19")
        caller_cc = ["clang-19", "--target=aarch64-linux-gnu"]
    expected = _reference(tmp_path, [cc, "-static"], ["qemu-aarch64"])
    defs, caller = _files(tmp_path)
    if direction == "gcc-caller":
        _s2svec(defs, tmp_path / "defs_simd.c")
        defs, caller_flags, defs_flags = tmp_path / "defs_simd.c", ["-O3", "-fopenmp-simd"], ["-O2"]
    else:  # s2svec-caller, s2svec-caller-clang19
        _s2svec(caller, tmp_path / "caller_simd.c")
        caller, caller_flags, defs_flags = (
            tmp_path / "caller_simd.c",
            ["-O2"],
            ["-O3", "-fopenmp-simd"],
        )
    _run([cc, *defs_flags, "-ffp-contract=off", "-c", str(defs), "-o", str(tmp_path / "d.o")])
    _run(
        [
            *caller_cc,
            *caller_flags,
            "-ffp-contract=off",
            "-c",
            str(caller),
            "-o",
            str(tmp_path / "c.o"),
        ]
    )
    _calls_variants(
        tmp_path / "c.o", "aarch64-linux-gnu-nm" if shutil.which("aarch64-linux-gnu-nm") else "nm"
    )
    _run([cc, "-static", str(tmp_path / "c.o"), str(tmp_path / "d.o"), "-o", str(tmp_path / "t")])
    assert _run(["qemu-aarch64", str(tmp_path / "t")]) == expected


# -- SVE: the vector-length agnostic variants (_ZGVsMx...) ----------------------------
# gcc 12 makes no SVE variants and clang-19's loops call none, so the caller
# is written against the AArch64 Vector Function ABI by hand: its vectors are
# built the ABI's way (a float of a function whose widest data is double is
# *unpacked*: loaded into the low half of 64-bit containers, svld1uw), its
# mask is a svbool_t of the widest data size, and each active lane's result
# must equal the scalar function's (inactive lanes are unspecified).
SVE_DEFS = r"""
#pragma omp declare simd uniform(s)
double g(double x, float y, double s)
{
    double r = x * s;
    if (y > 0.5f) r += (double)y * 2.0;
    else r -= y;
    return r;
}

#pragma omp declare simd
short k(short a, signed char b)
{
    int r = a;
    while (r > 100) r -= b > 0 ? b : 7;
    return (short)r;
}

#pragma omp declare simd
float w(float x) { return x < 0.0f ? -x : x * 0.5f; }
"""

SVE_CALLER = r"""
#include <arm_sve.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
double g(double x, float y, double s);
short k(short a, signed char b);
float w(float x);
svfloat64_t _ZGVsMxvvu_g(svfloat64_t x, svfloat32_t y, double s, svbool_t m);
svint16_t _ZGVsMxvv_k(svint16_t a, svint8_t b, svbool_t m);
svfloat32_t _ZGVsMxv_w(svfloat32_t x, svbool_t m);
#define MAX 256
int main(void)
{
    int bad = 0, checked = 0;
    for (int pattern = 0; pattern < 3; pattern++) {
        double x[MAX], r[MAX]; float y[MAX], v[MAX], rv[MAX]; short a[MAX], ra[MAX];
        signed char b[MAX];
        for (int i = 0; i < MAX; i++) {
            x[i] = i * 0.75 - 9.0; y[i] = (float)(i % 5) * 0.3f; v[i] = (float)(i % 9) - 4.0f;
            a[i] = (short)(i * 37 % 900); b[i] = (signed char)(i % 11 - 3);
        }
        int n = (int)svcntd();  /* g: widest data 64 bits */
        svbool_t m = svcmpne_n_u64(svptrue_b64(), svindex_u64(0, 1), 0);
        if (pattern == 1) m = svwhilelt_b64_s32(0, n - 1);
        svuint64_t bit1 = svand_n_u64_x(svptrue_b64(), svindex_u64(0, 1), 2);
        if (pattern == 2) m = svcmpeq_n_u64(svptrue_b64(), bit1, 0);
        uint32_t ybits[MAX];
        memcpy(ybits, y, sizeof ybits);
        svfloat32_t yu = svreinterpret_f32_u64(svld1uw_u64(svptrue_b64(), ybits));
        svst1_f64(svptrue_b64(), r, _ZGVsMxvvu_g(svld1_f64(svptrue_b64(), x), yu, 1.5, m));
        uint64_t on[MAX];
        svst1_u64(svptrue_b64(), on, svdup_n_u64_z(m, 1));
        for (int i = 0; i < n; i++)
            if (on[i]) { checked++; bad += r[i] != g(x[i], y[i], 1.5); }
        n = (int)svcnth();  /* k: widest data 16 bits, b unpacked */
        svbool_t mh = pattern == 1 ? svwhilelt_b16_s32(0, n - 3) : svptrue_b16();
        svint8_t bu = svreinterpret_s8_s16(svld1sb_s16(svptrue_b16(), b));
        svst1_s16(svptrue_b16(), ra, _ZGVsMxvv_k(svld1_s16(svptrue_b16(), a), bu, mh));
        uint16_t onh[MAX];
        svst1_u16(svptrue_b16(), onh, svdup_n_u16_z(mh, 1));
        for (int i = 0; i < n; i++)
            if (onh[i]) { checked++; bad += ra[i] != k(a[i], b[i]); }
        n = (int)svcntw();  /* w: packed floats */
        svbool_t mw = pattern == 2 ? svpfalse_b() : svwhilelt_b32_s32(0, n - pattern);
        svst1_f32(svptrue_b32(), rv, _ZGVsMxv_w(svld1_f32(svptrue_b32(), v), mw));
        uint32_t onw[MAX];
        svst1_u32(svptrue_b32(), onw, svdup_n_u32_z(mw, 1));
        for (int i = 0; i < n; i++)
            if (onw[i]) { checked++; bad += rv[i] != w(v[i]); }
    }
    printf("%d of %d lanes differ\n", bad, checked);
    return bad != 0 || checked == 0;
}
"""

SVE_LENGTHS = (16, 64, 256)  # bytes: 128, 512 and 2048-bit vectors


@pytest.mark.parametrize(
    "defs_cc,caller_cc,targets",
    [
        ("aarch64-linux-gnu-gcc", "clang-19", "sve,neon"),
        ("clang-19", "aarch64-linux-gnu-gcc", "sve,neon"),
        ("aarch64-linux-gnu-gcc", "clang-19", "neon"),
    ],
)
def test_sve_variants_follow_the_abi(
    tmp_path: Path, defs_cc: str, caller_cc: str, targets: str
) -> None:
    """s2svec's _ZGVsMx variants, built by one compiler, called through the
    ABI by a caller built by the other, at three vector lengths: vectorized
    (``--target sve,neon``) and, without the sve target, the wrapper's
    lane-by-lane body (every object built with SVE defines them)."""
    for tool in ("aarch64-linux-gnu-gcc", "clang-19", "qemu-aarch64"):
        _have(tool)
    (tmp_path / "defs.c").write_text(SVE_DEFS)
    (tmp_path / "caller.c").write_text(SVE_CALLER)
    chosen = ["--target", targets]
    _run(
        [
            sys.executable,
            "-m",
            "s2s",
            str(tmp_path / "defs.c"),
            "-o",
            str(tmp_path / "d.c"),
            *chosen,
        ]
    )
    text = (tmp_path / "d.c").read_text()
    for name in ("_ZGVsMxvvu_g", "_ZGVsMxvv_k", "_ZGVsMxv_w"):
        assert f"{name}(" in text, name
    assert ("sve code of _ZGVsMxvvu_g" in text) == ("sve" in targets)

    def cc(name: str) -> list[str]:
        triple = ["--target=aarch64-linux-gnu"] if name == "clang-19" else []
        return [name, *triple, "-O2", "-march=armv8-a+sve", "-ffp-contract=off"]

    _run([*cc(defs_cc), "-c", str(tmp_path / "d.c"), "-o", str(tmp_path / "d.o")])
    _run([*cc(caller_cc), "-c", str(tmp_path / "caller.c"), "-o", str(tmp_path / "c.o")])
    exe = tmp_path / "t"
    _run(
        [
            "aarch64-linux-gnu-gcc",
            "-static",
            str(tmp_path / "c.o"),
            str(tmp_path / "d.o"),
            "-o",
            str(exe),
        ]
    )
    for vl in SVE_LENGTHS:
        out = _run(["qemu-aarch64", "-cpu", f"max,sve-default-vector-length={vl}", str(exe)])
        assert out.startswith("0 of "), f"{vl * 8}-bit vectors: {out}"


SCALABLE = {
    # target: (the reference/linking compiler, the s2svec output's build, qemu, lengths)
    "sve": (
        "aarch64-linux-gnu-gcc",
        ["clang-19", "--target=aarch64-linux-gnu", "-march=armv8-a+sve"],
        "qemu-aarch64",
        [f"max,sve-default-vector-length={b}" for b in SVE_LENGTHS],
    ),
    "rvv": (
        "riscv64-linux-gnu-gcc",
        ["clang-19", "--target=riscv64-linux-gnu", "-march=rv64gcv"],
        "qemu-riscv64",
        [f"rv64,v=true,vlen={v},vext_spec=v1.0" for v in (128, 1024)],
    ),
}


@pytest.mark.parametrize("target", sorted(SCALABLE))
def test_scalable_loops_call_variants_of_another_file(tmp_path: Path, target: str) -> None:
    """Loops translated for SVE or RISC-V V whose functions are only
    declared call the vector-length agnostic variants (_ZGVsMx, _ZGVrMx)
    s2svec made in the definitions' file, at several vector lengths."""
    gcc, build, qemu, cpus = SCALABLE[target]
    for tool in (gcc, "clang-19", qemu):
        _have(tool)
    expected = _reference(tmp_path, [gcc, "-static"], [qemu])
    defs, caller = _files(tmp_path)
    chosen = ["--target", target]
    _run([sys.executable, "-m", "s2s", str(defs), "-o", str(tmp_path / "d.c"), *chosen])
    _run([sys.executable, "-m", "s2s", str(caller), "-o", str(tmp_path / "c.c"), *chosen])
    flags = [*build, "-O2", "-ffp-contract=off", "-c"]
    _run([*flags, str(tmp_path / "d.c"), "-o", str(tmp_path / "d.o")])
    _run([*flags, str(tmp_path / "c.c"), "-o", str(tmp_path / "c.o")])
    prefix = "_ZGVsMx" if target == "sve" else "_ZGVrMx"
    assert prefix in _run(["nm", "-u", str(tmp_path / "c.o")])  # ELF symbols: any nm
    exe = tmp_path / "t"
    _run([gcc, "-static", str(tmp_path / "c.o"), str(tmp_path / "d.o"), "-o", str(exe)])
    for cpu in cpus:
        assert _run([qemu, "-cpu", cpu, str(exe)]) == expected, cpu
