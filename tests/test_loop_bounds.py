"""Loop bounds near the limits of the loop variable's type (issue 10, item 2).

s2svec reads a canonical loop as OpenMP does (docs/user/c-support.rst, "Loop bounds"):

* ``!=`` with step +1 / -1 is ``<`` / ``>``;
* the iteration count comes from the bounds in the type the comparison is
  evaluated in (``unsigned char c < 300`` compares in int), and iteration k
  gives the variable the value ``(T)(lb + k*step)``;
* when some iteration would need a value the variable's type T cannot hold,
  no iteration runs (OpenMP leaves it unspecified; gcc 12 runs none at run
  time, clang-19 runs the wrapped values); only the value after the last
  iteration may wrap (``c <= 255`` ends with c == 0).

``expected`` is that reading written in Python; every form is vectorized for
each target, built, run, and its visited values, their count and the final
value compared with it.  The forms where gcc and clang agree are also
checked against the compilers in testsuite/kernels/narrow_iv_bounds.c.
Before the fix the lanes saw values the type cannot hold (256, 257, ...),
``!=`` loops ran through the wrap and bounds were truncated to T.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from test_codegen_kit import CROSS, TARGET_FLAGS, available_targets, require_target, vectorize_file

# C type -> (bits, signed)
TYPES = {
    "unsigned char": (8, False),
    "signed char": (8, True),
    "unsigned short": (16, False),
    "short": (16, True),
    "unsigned": (32, False),
    "int": (32, True),
    "long long": (64, True),
    "unsigned long long": (64, False),
}
RANK = {8: 0, 16: 1, 32: 2, 64: 3}

# (variable type, lb, cmp, bound, bound type, step)
FORMS = [
    ("unsigned char", 250, "!=", 4, "int", 1),  # the loop: no iteration
    ("unsigned char", 10, "!=", 20, "int", 1),
    ("unsigned char", 4, "!=", 250, "int", -1),
    ("unsigned char", 250, "<", 300, "int", 1),  # values past 255: none
    ("unsigned char", 0, "<", 300, "int", 1),
    ("unsigned char", 250, "<", 255, "int", 1),
    ("unsigned char", 250, "<=", 255, "int", 1),  # only the final value wraps (to 0)
    ("unsigned char", 0, "<=", 255, "int", 1),
    ("unsigned char", 0, "<", 256, "int", 1),
    ("unsigned char", 5, ">=", 0, "int", -1),  # final 255
    ("unsigned char", 5, ">", -3, "int", -1),  # would need -1, -2: none
    ("unsigned char", 250, "<", 300, "int", 3),
    ("unsigned char", 2, "<", 255, "int", 3),  # last value 254, final 257 -> 1
    ("unsigned short", 65530, "!=", 4, "int", 1),
    ("unsigned short", 65500, "<", 70000, "int", 1),
    ("unsigned short", 65000, "<=", 65535, "int", 1),
    ("signed char", 120, "!=", -120, "int", 1),
    ("signed char", -100, "!=", 100, "int", 1),
    ("signed char", 120, "<", 200, "int", 1),
    ("signed char", 100, "<=", 127, "int", 1),  # final -128
    ("signed char", -120, ">", -200, "int", -1),
    ("signed char", -100, ">=", -128, "int", -1),  # final 127
    ("short", 32760, "!=", -32760, "int", 1),
    ("short", -32700, ">", -40000, "int", -2),
    ("unsigned", 4294967290, "!=", 4, "int", 1),
    ("unsigned", 3, "!=", 4294967293, "unsigned", -1),
    ("unsigned", 4294967290, "<", 4294967301, "long long", 1),
    ("unsigned", 4294967200, "<=", 4294967295, "unsigned", 1),  # final 0
    ("unsigned", 4294967200, "<", 4294967295, "unsigned", 7),
    ("unsigned", 40, ">=", 0, "unsigned", -1),  # final UINT_MAX
    ("int", 2147483600, "<", 2147483647, "int", 1),
    ("int", 2147483600, "<", 2147483700, "long long", 1),  # values past INT_MAX: none
    ("int", -5, "<", 4294967295, "unsigned", 1),  # compared as unsigned
    ("int", 10, "!=", 5, "int", 1),  # was 2^32 - 5 iterations
    ("long long", 9223372036854775800, "<", 9223372036854775807, "long long", 1),
    (
        "unsigned long long",
        18446744073709551600,
        "<=",
        18446744073709551615,
        "unsigned long long",
        5,
    ),
]


def wrap(v: int, bits: int, signed: bool) -> int:
    v %= 1 << bits
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def comparison_type(t: str, u: str) -> tuple[int, bool]:
    """C's usual arithmetic conversions of the (promoted) variable and bound."""
    (tb, ts), (ub, us) = TYPES[t], TYPES[u]
    if tb < 32:
        tb, ts = 32, True
    if ts == us:
        return max(tb, ub), ts
    (sb, _), (nb, _) = sorted([(tb, ts), (ub, us)], key=lambda x: x[1])  # unsigned, signed
    if RANK[sb] >= RANK[nb]:
        return sb, False
    return nb, True  # the signed type is wider: it holds every unsigned value


def expected(t: str, lb: int, cmp: str, ub: int, ubt: str, step: int) -> tuple[list[int], int]:
    """(values of the iterations, value of the variable afterwards)."""
    bits, signed = TYPES[t]
    lo = wrap(lb, bits, signed)
    cb, cs = comparison_type(t, ubt)
    hi = wrap(wrap(ub, *TYPES[ubt]), cb, cs)
    lo_c = wrap(lo, cb, cs)
    if cmp == "!=":
        cmp = "<" if step > 0 else ">"
    if cmp in ("<", "<="):
        end = hi - (1 if cmp == "<" else 0)
        trip = (end - lo_c) // step + 1 if lo_c <= end else 0
    else:
        end = hi + (1 if cmp == ">" else 0)
        trip = (lo_c - end) // -step + 1 if lo_c >= end else 0
    values = [lo + k * step for k in range(trip)]
    if any(wrap(v, bits, signed) != v for v in values):
        values = []
    return values, wrap(lo + len(values) * step, bits, signed)


def test_model_matches_the_documented_cases() -> None:
    assert expected("unsigned char", 250, "!=", 4, "int", 1) == ([], 250)
    assert expected("unsigned char", 250, "<=", 255, "int", 1) == (list(range(250, 256)), 0)
    assert expected("unsigned char", 250, "<", 300, "int", 1) == ([], 250)
    assert expected("unsigned char", 5, ">=", 0, "int", -1) == ([5, 4, 3, 2, 1, 0], 255)
    assert expected("int", -5, "<", 4294967295, "unsigned", 1) == ([-5, -4, -3, -2], -1)


def program() -> str:
    """One function per form (bounds as parameters, so nothing folds), and a
    main that prints the values each visited and the final value."""
    out = ["#include <stdio.h>", "#include <string.h>", "static int seen[65536 + 64];"]
    for k, (t, _, cmp, _, ubt, step) in enumerate(FORMS):
        inc = f"c += {step}" if step > 0 else f"c -= {-step}"
        out.append(f"""
{t} form{k}({t} lb, {ubt} ub, int *a)
{{
    {t} c = lb;
#pragma omp simd
    for (c = lb; c {cmp} ub; {inc})
        a[(int)((unsigned long long)c & 0xffffu)] = 1 + (int)(c & 7);
    return c;
}}""")
    out.append("int main(void)\n{")
    for k, (t, lb, _, ub, ubt, _) in enumerate(FORMS):
        out.append(f"""    {{
        memset(seen, 0, sizeof seen);
        {t} c = form{k}(({t}){lb}ULL, ({ubt}){ub}ULL, seen);
        printf("form{k} final %lld\\n", (long long)c);
        for (int i = 0; i < 65536 + 64; i++)
            if (seen[i]) printf("form{k} %d %d\\n", i, seen[i]);
    }}""")
    out.append("    return 0;\n}\n")
    return "\n".join(out)


def expected_output() -> str:
    lines = []
    for k, form in enumerate(FORMS):
        values, final = expected(*form)
        lines.append(f"form{k} final {final}")
        for v in sorted(values, key=lambda v: v & 0xFFFF):
            lines.append(f"form{k} {v & 0xFFFF} {1 + (v & 7)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("target", available_targets())
def test_bounds_near_the_type_limits(tmp_path: Path, target: str) -> None:
    src = tmp_path / "bounds.c"
    src.write_text(program())
    res = vectorize_file(str(src), target)
    assert not res.unsupported, res.unsupported
    assert len(res.loops) == len(FORMS)
    out = tmp_path / "bounds_vec.c"
    out.write_text(res.text)
    require_target(target)
    cc, runner = (CROSS[target][0], CROSS[target][1]) if target in CROSS else ("gcc", [])
    if shutil.which(cc) is None:
        pytest.skip(f"{cc} is not installed (scripts/setup.sh installs it)")
    exe = tmp_path / "bounds"
    build = subprocess.run(
        [cc, "-O2", *TARGET_FLAGS[target], str(out), "-o", str(exe)], capture_output=True, text=True
    )
    assert build.returncode == 0, build.stderr
    run = subprocess.run([*runner, str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected_output()
