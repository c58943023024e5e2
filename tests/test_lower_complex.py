"""Lowering of C99 complex values (s2s/frontend/lower_complex.py).

The printed IR of the basic forms, and the semantics against gcc: the C
loop built by gcc, the lowered region run by the IR interpreter once per
iteration, with the helper calls (s2s/ir/complex_calls.py) taken from the
helpers the code generator emits (templates/common/complex.j2), compiled
into a shared library; every part of every result bit for bit (NaNs as
NaNs), on inputs with infinities, NaNs and zeros of both signs."""

from __future__ import annotations

import ctypes
import math
import shutil
import struct
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_lower_support import ir_text, lower_one, run_loop, unsupported_of

from s2s.codegen.generate import complex_helpers
from s2s.codegen.target import load_target
from s2s.ir.complex_calls import COMPLEX_CALLS
from s2s.ir.interpreter import UNDEF, Memory, Scalar
from s2s.ir.types import F32, F64, FloatType
from s2s.ir.values import Call

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def test_complex_times_real_and_sum_exact_ir(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const double _Complex *a, const double *x, double _Complex *out) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    out[i] = a[i] * x[i] + out[i];
}
""",
    )
    assert (
        ir_text(r)
        == """\
struct.complex.f64 = { f64 re @0, f64 im @8 } size 16

func @f.4(i32 %i, ptr<struct.complex.f64> %out, ptr<struct.complex.f64> %a, ptr<f64> %x) -> () {
entry:
  %0 = cast %i to i64
  %1 = gep %out, %0
  %2 = gep %a, %0
  %re = fieldaddr %2, re
  %3 = load %re
  %im = fieldaddr %2, im
  %4 = load %im
  %5 = gep %x, %0
  %6 = load %5
  %7 = mul %3, %6
  %8 = mul %4, %6
  %re.1 = fieldaddr %1, re
  %9 = load %re.1
  %im.1 = fieldaddr %1, im
  %10 = load %im.1
  %11 = add %7, %9
  %12 = add %8, %10
  store %11, %re.1
  store %12, %im.1
  br ret
ret:
  ret
}
"""
    )
    assert [(a.c_expr, a.c_type) for a in r.args][1:] == [
        ("out", "_Complex double *"),
        ("a", "const _Complex double *"),
        ("x", "const double *"),
    ]


def test_product_of_complex_values_recovers_nan_parts_per_lane(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, const float _Complex *a, float _Complex *out) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    out[i] = a[i] * out[i];
}
""",
    )
    text = ir_text(r)
    assert "%cmul.nan = and %" in text
    assert "condbr %cmul.nan, cmul.nan, cmul.end" in text
    calls = [i for i in r.fn.instructions() if isinstance(i, Call)]
    assert [(c.callee, c.pure, c.parent.name) for c in calls] == [
        ("s2s_cmulf_re", True, "cmul.nan"),
        ("s2s_cmulf_im", True, "cmul.nan"),
    ]
    assert all(c.type == F32 and len(c.operands) == 4 for c in calls)


def test_complex_variable_from_before_the_loop_is_read_by_address(tmp_path: Path) -> None:
    r = lower_one(
        tmp_path,
        """
void f(int n, double _Complex s, double *out) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    out[i] = __imag__ (s * out[i]);
}
""",
    )
    assert [(a.c_expr, a.c_type) for a in r.args][1:] == [
        ("out", "double *"),
        ("&s", "_Complex double *"),
    ]


# -- semantics against gcc ----------------------------------------------------------------

SPECIAL = [0.0, -0.0, 1.0, -2.5, math.inf, -math.inf, math.nan, 0.75, 3e300, -1e-310]
N = len(SPECIAL) ** 2


def _complex_inputs(shift: int) -> list[float]:
    """Pairs (re, im) covering every pair of special values."""
    out = []
    for k in range(N):
        out += [SPECIAL[k % len(SPECIAL)], SPECIAL[(k // len(SPECIAL) + shift) % len(SPECIAL)]]
    return out


@pytest.fixture(scope="module")
def helper_library(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    """Every helper the code generator can emit, compiled as it emits them."""
    if shutil.which("gcc") is None:
        pytest.skip("needs gcc")
    d = tmp_path_factory.mktemp("helpers")
    needs = {(kind, name) for name in COMPLEX_CALLS for kind in ("complex", "complex_pair")}
    src = d / "helpers.c"
    src.write_text(
        "\n".join(complex_helpers(load_target("avx2"), needs)).replace("static inline ", "") + "\n"
    )
    lib = d / "helpers.so"
    subprocess.run(
        [
            "gcc",
            "-O2",
            "-ffp-contract=off",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-shared",
            "-fPIC",
            "-o",
            str(lib),
            str(src),
            "-lm",
        ],
        check=True,
    )
    return ctypes.CDLL(str(lib))


def _externals(lib: ctypes.CDLL) -> dict[str, Callable[..., Any]]:
    libm = ctypes.CDLL("libm.so.6")
    out: dict[str, Callable[..., Any]] = {}
    for name in ("hypot", "atan2"):  # cabs and carg
        fn = getattr(libm, name)
        fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_double] * 2
        out[name] = fn
    for name, call in COMPLEX_CALLS.items():
        c = ctypes.c_float if call.real == F32 else ctypes.c_double
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = c, [c] * (2 * call.operands)
        out[name] = fn
    return out


def _gcc_results(
    tmp_path: Path, kernel: str, arrays: dict[str, tuple[str, list[float]]], n: int = N
) -> dict[str, list[float]]:
    main = ["#include <stdio.h>", "#include <string.h>", kernel, "int main(void) {"]
    for name, (ctype, values) in arrays.items():
        lits = ", ".join(_literal(v) for v in values)
        main.append(f"  static {ctype} {name}[] = {{{lits}}};")
    main.append(f"  f({n}, {', '.join('(void *)' + a for a in arrays)});")
    for name, (ctype, values) in arrays.items():
        fmt = "%08x" if ctype == "float" else "%016llx"
        size = 4 if ctype == "float" else 8
        main.append(
            f"  for (int k = 0; k < {len(values)}; k++) {{ unsigned long long bits = 0; "
            f'memcpy(&bits, &{name}[k], {size}); printf("{fmt}\\n", bits); }}'
        )
    main.append("  return 0;\n}")
    src = tmp_path / "main.c"
    src.write_text("\n".join(main) + "\n")
    exe = tmp_path / "main"
    subprocess.run(
        [
            "gcc",
            "-O2",
            "-std=gnu11",
            "-ffp-contract=off",
            "-Wno-unknown-pragmas",
            "-o",
            str(exe),
            str(src),
            "-lm",
        ],
        check=True,
    )
    words = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    out: dict[str, list[float]] = {}
    for name, (ctype, values) in arrays.items():
        fmt = "<f" if ctype == "float" else "<d"
        ifmt = "<I" if ctype == "float" else "<Q"
        out[name] = [
            struct.unpack(fmt, struct.pack(ifmt, int(words.pop(0), 16)))[0] for _ in values
        ]
    return out


def _literal(v: float) -> str:
    if math.isnan(v):
        return '__builtin_nan("")'
    if math.isinf(v):
        return "__builtin_inf()" if v > 0 else "-__builtin_inf()"
    return repr(v)


def _same(got: Scalar, want: float) -> bool:
    assert got is not UNDEF
    if math.isnan(got) or math.isnan(want):
        return math.isnan(got) and math.isnan(want)
    return got == want and math.copysign(1.0, got) == math.copysign(1.0, want)


# Each case: a loop body over i (double _Complex *a, *b, double *x, double _Complex *o,
# float _Complex *fo), run by gcc and through the lowering.
BODIES = {
    "add_sub_real_operands": "o[i] = a[i] + x[i]; o[i] += 2; o[i] = x[i] - o[i] - b[i];",
    "product": "o[i] = a[i] * b[i]; fo[i] = (float _Complex)a[i] * (float _Complex)b[i];",
    "product_real_and_imaginary_unit": "o[i] = x[i] * a[i] * 0.5 + b[i] * __extension__ 1.0i;",
    "division": "o[i] = a[i] / b[i] + a[i] / x[i] + x[i] / b[i];",
    "float_division": "fo[i] = (float _Complex)a[i] / (float _Complex)b[i];",
    "compound": "double _Complex z = a[i]; z *= b[i]; z -= x[i]; z /= 4.0; z += 3; o[i] = z;",
    "negate_conjugate": "o[i] = -a[i] + ~b[i] + __builtin_conj(a[i]) * 2.0;",
    "parts": "double _Complex z = a[i]; __real__ z = __builtin_cimag(b[i]); "
    "__imag__ z *= x[i]; o[i] = z + __builtin_creal(a[i]) + __imag__ b[i] "
    "- __builtin_complex(x[i], -x[i]);",
    "compare_and_truth": "o[i] = (a[i] == b[i]) + 2 * (a[i] != x[i]) + 4 * !a[i] "
    "+ 8 * (_Bool)b[i] + (a[i] ? 16 : 0) + (a[i] && b[i] ? 32 : 0);",
    "conditional_and_conversions": "fo[i] = x[i] > 0 ? a[i] : (float _Complex)x[i]; "
    "o[i] = (double _Complex)fo[i] + (float)x[i];",
    "library": "o[i] = __builtin_cexp(a[i]) + __builtin_cpow(a[i], b[i]) * __builtin_csqrt(b[i])"
    " + __builtin_cabs(a[i]) + __builtin_carg(b[i]) * __extension__ 1.0i;",
}


@needs_gcc
@pytest.mark.parametrize("name", list(BODIES))
def test_semantics_against_gcc(tmp_path: Path, helper_library: ctypes.CDLL, name: str) -> None:
    kernel = (
        "void f(long n, const double _Complex *a, const double _Complex *b, "
        "const double *x, double _Complex *o, float _Complex *fo) {\n"
        "  #pragma omp simd\n"
        f"  for (long i = 0; i < n; i++) {{ {BODIES[name]} }}\n}}\n"
    )
    x = [SPECIAL[(k * 7 + 3) % len(SPECIAL)] for k in range(N)]
    arrays = {
        "a": ("double", _complex_inputs(0)),
        "b": ("double", _complex_inputs(3)),
        "x": ("double", x),
        "o": ("double", [0.0] * 2 * N),
        "fo": ("float", [0.0] * 2 * N),
    }
    want = _gcc_results(tmp_path, kernel, arrays)
    region = lower_one(tmp_path, kernel)
    mem = Memory()
    values: dict[str, Any] = {"n": N}
    addresses = {}
    for a, (ctype, data) in arrays.items():
        t: FloatType = F32 if ctype == "float" else F64
        addresses[a] = values[a] = mem.alloc_array(t, data, a)
    run_loop(region, values, mem, _externals(helper_library))
    for a in ("o", "fo"):
        t = F32 if a == "fo" else F64
        got = mem.read_array(addresses[a], t, 2 * N)
        bad = [k for k in range(2 * N) if not _same(got[k], want[a][k])]
        assert not bad, (a, bad[:4], [(got[k], want[a][k]) for k in bad[:4]])


@needs_gcc
def test_glibc_cmplx_macro_is_the_pair(tmp_path: Path, helper_library: ctypes.CDLL) -> None:
    """glibc defines CMPLX for gcc only: the parser sees an undeclared
    function returning int, gcc the complex value; lowered as gcc's."""
    kernel = (
        "#include <complex.h>\n"
        "void f(long n, const double *x, double _Complex *o) {\n"
        "  #pragma omp simd\n"
        "  for (long i = 0; i < n; i++) {\n"
        "    double _Complex z = CMPLX(x[i], -x[i]);\n"
        "    o[i] = z * CMPLX(0.5, x[i]) + (double _Complex)CMPLXF(1, x[i]);\n  }\n"
        "}\n"
    )
    x = list(SPECIAL)
    arrays = {"x": ("double", x), "o": ("double", [0.0] * 2 * len(x))}
    want = _gcc_results(tmp_path, kernel, arrays, len(x))
    region = lower_one(tmp_path, kernel)
    mem = Memory()
    addr_x = mem.alloc_array(F64, x, "x")
    addr_o = mem.alloc_array(F64, [0.0] * 2 * len(x), "o")
    run_loop(region, {"n": len(x), "x": addr_x, "o": addr_o}, mem, _externals(helper_library))
    got = mem.read_array(addr_o, F64, 2 * len(x))
    assert all(_same(g, w) for g, w in zip(got, want["o"])), (got, want["o"])


def test_glibc_cmplx_used_as_an_int_is_unsupported(tmp_path: Path) -> None:
    exc = unsupported_of(
        tmp_path,
        """#include <complex.h>
void f(int n, const double *x, int *o) {
  #pragma omp simd
  for (int i = 0; i < n; i++) o[i] = CMPLX(x[i], 1.0) + 1;  /* complex to gcc */
}
""",
    )
    assert exc.message.startswith("'CMPLX' used other than as a complex value in simd loop")
    assert exc.location is not None and (exc.location.line, exc.location.column) == (4, 38)


def test_complex_reduction_stays_scalar_with_a_reason(tmp_path: Path) -> None:
    exc = unsupported_of(
        tmp_path,
        """
double _Complex f(int n, const double _Complex *a) {
  double _Complex s = 0;
  #pragma omp simd reduction(+:s)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
""",
    )
    assert exc.message == "reduction variable 's' of type '_Complex double' is not supported"


def test_helpers_type_check_with_clang(tmp_path: Path) -> None:
    """The emitted helpers compile warning-free with every compiler of the matrix."""
    needs = {(kind, name) for name in COMPLEX_CALLS for kind in ("complex", "complex_pair")}
    src = tmp_path / "h.c"
    src.write_text("\n".join(complex_helpers(load_target("neon"), needs)) + "\n")
    missing = [c for c in ("gcc", "clang", "clang-19") if shutil.which(c) is None]
    for cc in (c for c in ("gcc", "clang", "clang-19") if c not in missing):
        subprocess.run(
            [
                cc,
                "-std=c99",
                "-O2",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-Wno-unused-function",
                "-c",
                "-o",
                str(tmp_path / "h.o"),
                str(src),
            ],
            check=True,
        )
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (scripts/setup.sh installs it)")
