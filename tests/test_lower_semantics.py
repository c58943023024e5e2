"""Differential tests of the lowering: gcc runs the C loop, the IR
interpreter runs the lowered region once per iteration; memory and the
final values of reduction/lastprivate/linear variables must agree exactly."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_lower_support import lower_one, run_loop

from s2s.ir.interpreter import Memory
from s2s.ir.types import F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Type

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

CTYPES: dict[str, Type] = {
    "double": F64,
    "float": F32,
    "int": I32,
    "unsigned": U32,
    "long": I64,
    "unsigned long": U64,
    "short": I16,
    "unsigned short": U16,
    "char": I8,
    "signed char": I8,
    "unsigned char": U8,
    "long long": I64,
}


def _c_literal(ctype: str, v: Any) -> str:
    if CTYPES[ctype].is_float():
        return repr(float(v)) if math.isfinite(v) else ("(1.0/0.0)" if v > 0 else "(-1.0/0.0)")
    return f"{int(v)}{'u' if ctype.startswith('unsigned') else ''}"


def _fmt(ctype: str) -> tuple[str, str]:
    if CTYPES[ctype].is_float():
        return "%a", "(double)"
    if ctype.startswith("unsigned"):
        return "%llu", "(unsigned long long)"
    return "%lld", "(long long)"


def _parse(ctype: str, text: str) -> Any:
    if CTYPES[ctype].is_float():
        return float(text) if text.lstrip("-") in ("nan", "inf") else float.fromhex(text)
    return int(text)


def check(
    tmp_path: Path,
    pragma: str,
    loop: str,
    n: int,
    arrays: dict[str, tuple[str, list[Any]]],
    scalars: dict[str, tuple[str, Any]] | None = None,
    carried: dict[str, tuple[str, Any]] | None = None,
    prelude: str = "",
    declarators: dict[str, str] | None = None,
) -> None:
    """Run ``loop`` under gcc and through the lowering; compare the results."""
    scalars = scalars or {}
    carried = carried or {}
    declarators = declarators or {}
    params = (
        ["long n"]
        + [declarators.get(a, f"{t} *{a}") for a, (t, _) in arrays.items()]
        + [f"{t} {s}" for s, (t, _) in scalars.items()]
    )
    decls = "".join(f"  {t} {v} = {_c_literal(t, x)};\n" for v, (t, x) in carried.items())
    prints = "".join(
        f'  printf("{_fmt(t)[0]}\\n", {_fmt(t)[1]}{v});\n' for v, (t, _) in carried.items()
    )
    kernel = (
        f"#include <math.h>\n#include <stdio.h>\n{prelude}\n"
        f"void kern({', '.join(params)}) {{\n{decls}  {pragma}\n  {loop}\n{prints}}}\n"
    )
    main = ["int main(void) {"]
    for a, (t, vals) in arrays.items():
        main.append(f"  static {t} {a}_data[] = {{{', '.join(_c_literal(t, v) for v in vals)}}};")
    # void * converts to any object pointer parameter, 2-D ones included.
    call_args = (
        [f"(long){n}"]
        + [f"(void *){a}_data" for a in arrays]
        + [_c_literal(t, v) for t, v in scalars.values()]
    )
    main.append(f"  kern({', '.join(call_args)});")
    for a, (t, vals) in arrays.items():
        fmt, cast = _fmt(t)
        main.append(
            f'  for (int k = 0; k < {len(vals)}; k++) printf("{fmt}\\n", {cast}{a}_data[k]);'
        )
    main.append("  return 0;\n}\n")
    src = tmp_path / "kern.c"
    src.write_text(kernel + "\n".join(main))
    exe = tmp_path / "kern"
    subprocess.run(
        [
            "gcc",
            "-O0",
            "-std=c11",
            "-ffp-contract=off",
            "-Wno-unknown-pragmas",
            "-o",
            str(exe),
            str(src),
            "-lm",
        ],
        check=True,
    )
    lines = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    want_carried = {v: _parse(t, lines.pop(0)) for v, (t, _) in carried.items()}
    want_arrays = {}
    for a, (t, vals) in arrays.items():
        want_arrays[a] = [_parse(t, lines.pop(0)) for _ in vals]

    region = lower_one(tmp_path, kernel)
    mem = Memory()
    values: dict[str, Any] = {"n": n}
    addrs = {}
    for a, (t, vals) in arrays.items():
        addrs[a] = mem.alloc_array(CTYPES[t], vals, a)
        values[a] = addrs[a]
    values.update({s: v for s, (_, v) in scalars.items()})
    values.update({v: x for v, (_, x) in carried.items()})
    final = run_loop(region, values, mem)
    for a, (t, vals) in arrays.items():
        got = mem.read_array(addrs[a], CTYPES[t], len(vals))
        assert _same(got, want_arrays[a]), (a, got, want_arrays[a])
    for v, want in want_carried.items():
        if v in final:
            assert _same([final[v]], [want]), (v, final[v], want)
        elif any(b.role == "linear" and b.c_expr == v for b in region.args):
            pass  # the final value of a linear variable is the code generator's job


def _same(a: list[Any], b: list[Any]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) and isinstance(y, float):
            if math.isnan(x) and math.isnan(y):
                continue
            if x != y or math.copysign(1, x) != math.copysign(1, y):
                return False
        elif x != y:
            return False
    return True


SIGNED = [-7, 0, 3, 127, -128, 100, 55, -1, 42, 9]
DOUBLES = [-2.5, 0.0, 1.25, 3.75, -0.5, 7.0, 10.5, -9.25, 2.0, 0.125]


def test_integer_promotions_and_wrap(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    signed char c = sc[i];
    unsigned char u = uc[i];
    c += 100;                 /* computed in int, wraps into char */
    u *= 3;
    short s = (short)(c * u);
    r[i] = c + u + s + (uc[i] << 1) + (sc[i] >> 1) + ~c;
    q[i] = (unsigned)r[i] % 7u + (r[i] / 3) - (r[i] % 4);
  }""",
        10,
        {
            "sc": ("signed char", SIGNED),
            "uc": ("unsigned char", [abs(x) for x in SIGNED]),
            "r": ("int", [0] * 10),
            "q": ("unsigned", [0] * 10),
        },
    )


def test_signed_unsigned_compare_and_mixed_width(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    int x = a[i];
    unsigned u = 5;
    long w = x * 100000L;
    r[i] = (x < u) + 2 * (w > 3000000000 / 1000) + 4 * (x == -1) + 8 * !x;
    l[i] = w * w - (unsigned long)x;
  }""",
        10,
        {"a": ("int", SIGNED), "r": ("int", [0] * 10), "l": ("unsigned long", [0] * 10)},
    )


def test_float_conversions(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    float f = (float)d[i] / 3.0f;
    int t = (int)(d[i] * 3.3);
    d[i] = f + t + (d[i] > 0 ? 0.1 : -0.1) + (float)1e-3;
    k[i] = t / 2 + (int)f;
  }""",
        10,
        {"d": ("double", DOUBLES), "k": ("int", [0] * 10)},
    )


def test_math_and_select(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    double x = d[i];
    double y = x < 0.0 ? -x : x;
    o[i] = sqrt(y) + fabs(x) + floor(x) + fmin(x, 1.0) + fmax(x, lo) + ceil(x / 2);
  }""",
        10,
        {"d": ("double", DOUBLES), "o": ("double", [0.0] * 10)},
        {"lo": ("double", 0.5)},
    )


def test_reductions(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd reduction(+:s) reduction(*:p) reduction(max:mx) "
        "reduction(min:mn) reduction(&:an) reduction(|:o) reduction(^:x) "
        "reduction(&&:all) reduction(||:any)",
        """for (int i = 0; i < n; i++) {
    s += d[i];
    p *= 1.0 + d[i] / 16.0;
    mx = d[i] > mx ? d[i] : mx;
    mn = fmin(mn, d[i]);
    an &= a[i] | 1;
    o |= a[i];
    x ^= a[i] * 31;
    all = all && a[i] != 0;
    any = any || a[i] > 100;
  }""",
        10,
        {"d": ("double", DOUBLES), "a": ("int", SIGNED)},
        carried={
            "s": ("double", 0.5),
            "p": ("double", 1.0),
            "mx": ("double", -1e9),
            "mn": ("double", 1e9),
            "an": ("int", -1),
            "o": ("int", 0),
            "x": ("int", 0),
            "all": ("int", 1),
            "any": ("int", 0),
        },
    )


def test_pointers(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    const int *p = a + i;
    const int *e = &a[i + 2];
    int *w = &r[0] + i;
    *w = *(p + 1) - p[0] + (int)(e - p) + (p < e) + (p != 0);
    w[0] += (int)sizeof(*p);
  }""",
        8,
        {"a": ("int", SIGNED), "r": ("int", [0] * 10)},
    )


def test_increments(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    int x = a[i]++;
    int y = ++a[i];
    double *q = &d[i];
    (*q)--;
    int z = (x++, x + 1);
    r[i] = x * 10 + y + (int)(--d[i]) + z;
  }""",
        10,
        {"a": ("int", SIGNED), "d": ("double", DOUBLES), "r": ("int", [0] * 10)},
    )


def test_control_flow(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    int v = a[i], steps = 0;
    if (v < 0) { r[i] = -1; continue; }
    while (v > 1) {
      v = (v % 2) ? 3 * v + 1 : v / 2;
      if (++steps > 50) break;
    }
    int acc = 0;
    for (int j = 0; j < 8; j++) {
      if (j == 3) continue;
      switch (j & 3) {
      case 0: acc += j;
      case 1: acc *= 2; break;
      case 2: acc -= 1; break;
      default: acc ^= j;
      }
    }
    do { acc += 5; } while (acc < 0);
    r[i] = steps * 1000 + acc;
  }""",
        10,
        {"a": ("int", SIGNED), "r": ("int", [0] * 10)},
    )


def test_logical_operators_with_loads(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    int ok = idx[i] >= 0 && idx[i] < 10 && a[idx[i]] > 0;
    int alt = idx[i] < 0 || idx[i] >= 10 || a[idx[i]] == 3;
    r[i] = ok * 2 + alt + (!ok ? 10 : a[idx[i]] / 2);
  }""",
        10,
        {
            "a": ("int", SIGNED),
            "idx": ("int", [0, -5, 2, 9, 1000, 3, -1, 8, 4, 2]),
            "r": ("int", [0] * 10),
        },
    )


def test_multidimensional_and_local_arrays(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    double t[2][3] = {{1, 2}, {3, 4, 5}};
    int e[2][2] = {1, 2, 3};
    t[1][i % 3] += m[i][1] * e[1][0] + e[1][1];
    o[i] = t[0][0] + t[0][2] + t[1][i % 3] + m[i][0];
  }""",
        4,
        {"m": ("double", [float(k) for k in range(8)]), "o": ("double", [0.0] * 4)},
        declarators={"m": "double m[][2]"},
    )


def test_struct_locals_and_copies(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    struct pt p = { d[i], { 1, 2 }, i };
    struct pt q;
    q = p;
    q.w[1] += q.x;
    struct pt *pp = &q;
    pp->id *= 3;
    q.x += ((struct pt){ 0.5, { 0 }, 1 }).x + (int){ 2 } + ((int[2]){ 5, 7 })[i & 1];
    o[i] = q.x + q.w[0] + q.w[1] + pp->id;
  }""",
        10,
        {"d": ("double", DOUBLES), "o": ("double", [0.0] * 10)},
        prelude="struct pt { double x; float w[2]; int id; };",
    )


def test_bool_enum_macro_sizeof(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    _Bool b = a[i];
    _Bool z = d[i];
    b += 1;
    r[i] = b + z + TWO * RED + (int)sizeof(struct big) + (b ? BLUE : 0);
  }""",
        10,
        {"a": ("int", SIGNED), "d": ("double", DOUBLES), "r": ("int", [0] * 10)},
        prelude="#define TWO 2\nenum color { RED = 3, BLUE = 7 };\n"
        "struct big { char c; double d; };",
    )


def test_linear_and_lastprivate(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd linear(j:3) lastprivate(lp) private(t)",
        """for (int i = 2; i < n; i += 2) {
    t = a[i] * 2;
    r[j % 10] = t + j;
    lp = t - i;
    j += 3;
  }""",
        9,
        {"a": ("int", SIGNED), "r": ("int", [0] * 10)},
        carried={"j": ("int", 1), "lp": ("int", 0), "t": ("int", 0)},
    )


def test_decreasing_unsigned_loop(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd reduction(+:s)",
        """for (unsigned short k = 9; k != 0; --k) {
    s += a[k] * k;
    r[k] = (short)(a[k] - k);
  }""",
        0,
        {"a": ("int", SIGNED), "r": ("short", [0] * 10)},
        carried={"s": ("long", 0)},
    )


def test_classification_builtins(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    double x = d[i] / z[i];
    r[i] = isnan(x) + 2 * isinf(x) + 4 * (isfinite(x) != 0) + 8 * __builtin_expect(x > 1, 0)
           + 16 * (isinf(x) < 0);
  }""",
        5,
        {
            "d": ("double", [1.0, 0.0, -1.0, 4.0, 2.0]),
            "z": ("double", [0.0, 0.0, 0.0, 2.0, 0.5]),
            "r": ("int", [0] * 5),
        },
    )


def test_pointer_to_array_and_null(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd",
        """for (int i = 0; i < n; i++) {
    double (*rows)[3] = (double (*)[3])m;
    double *nothing = NULL;
    const double *row = rows[i];
    o[i] = row[0] * 100 + row[2] + (nothing == 0) + (rows + i + 1)[0][1];
  }""",
        3,
        {"m": ("double", [float(k) for k in range(12)]), "o": ("double", [0.0] * 3)},
        prelude="#include <stddef.h>",
    )


def test_if_conversion_matches_branches(tmp_path: Path) -> None:
    check(
        tmp_path,
        "#pragma omp simd reduction(max:mx) reduction(+:cnt)",
        """for (int i = 0; i < n; i++) {
    double x = d[i];
    int k = a[i];
    if (x < -1.0) x = -1.0; else if (x > 5.0) { x = 5.0; k *= 3; } else k -= 1;
    if (k & 1) { k <<= 2; if (k > 100) k = 100; }
    if (x > mx) mx = x;
    if (k < 0) cnt++;
    o[i] = x + k;
  }""",
        10,
        {"d": ("double", DOUBLES), "a": ("int", SIGNED), "o": ("double", [0.0] * 10)},
        carried={"mx": ("double", -100.0), "cnt": ("int", 0)},
    )
