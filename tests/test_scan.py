"""``#pragma omp scan`` and ``reduction(inscan, ...)`` (s2s/frontend/scan.py).

Parsing and diagnostics: malformed or misplaced scan directives are
errors (exit 1, no output, ``file:line:col: error:``, no traceback), as
gcc and clang make them; valid scans s2svec does not take leave the loop
scalar with a located warning; the scans it takes are vectorized, their
helpers defined once, and the output compiles everywhere.  The
differential kernels ``testsuite/kernels/scan_*.c`` check the values.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostile_support import compile_everywhere, vectorize

from s2s.diagnostics import Location
from s2s.frontend.clauses import parse_pragma_line
from s2s.ir.clauses import reduction_identity
from s2s.ir.types import F32, I8, I32, U16, U64, Type

LOOP = """\
int f(const int *a, int *b, int n)
{
    int x = 0, y = 0;
PRAGMA
    for (int i = 0; i < n; i++) {
BODY
    }
    return x + y;
}
"""

INCLUSIVE = "        x += a[i];\n#pragma omp scan inclusive(x)\n        b[i] = x;"


def _code(pragma: str, body: str = INCLUSIVE) -> str:
    return LOOP.replace("PRAGMA", pragma).replace("BODY", body)


def test_inscan_reductions_are_parsed() -> None:
    clauses = parse_pragma_line(
        "#pragma omp simd reduction(inscan, +: x) reduction(inscan, max: y)",
        Location("k.c", 7, 3),
        {}.get,
    )
    assert clauses is not None and not clauses.unsupported
    assert [(r.op, r.var, r.inscan) for r in clauses.reductions] == [
        ("+", "x", True),
        ("max", "y", True),
    ]


@pytest.mark.parametrize(
    ("op", "t", "value"),
    [
        ("+", I32, 0),
        ("*", F32, 1),
        ("&", U64, -1),
        ("min", I8, 127),
        ("max", I8, -128),
        ("min", U16, 65535),
        ("max", U16, 0),
        ("max", F32, float("-inf")),
        ("&&", I32, 1),
        ("||", I32, 0),
    ],
)
def test_identities(op: str, t: Type, value: float) -> None:
    assert reduction_identity(op, t) == value


# name: (pragma, body, line, column, message)
ERRORS = {
    "inscan_and_plain_reductions": (
        "#pragma omp simd reduction(inscan, +: x) reduction(+: y)",
        INCLUSIVE,
        4,
        42,
        "'inscan' and non-'inscan' 'reduction' clauses on one construct",
    ),
    "scan_without_inscan": (
        "#pragma omp simd reduction(+: x)",
        INCLUSIVE,
        7,
        1,
        "'#pragma omp scan' outside a loop whose directive has a 'reduction(inscan, ...)' clause",
    ),
    "no_clause": (
        "#pragma omp simd reduction(inscan, +: x)",
        INCLUSIVE.replace(" inclusive(x)", ""),
        7,
        1,
        "'#pragma omp scan' takes exactly one 'inclusive(list)' or 'exclusive(list)' clause",
    ),
    "two_clauses": (
        "#pragma omp simd reduction(inscan, +: x)",
        INCLUSIVE.replace("inclusive(x)", "inclusive(x) exclusive(x)"),
        7,
        1,
        "malformed 'inclusive' clause on '#pragma omp scan'",
    ),
    "not_inscan_variable": (
        "#pragma omp simd reduction(inscan, +: x)",
        INCLUSIVE.replace("inclusive(x)", "inclusive(x, y)"),
        7,
        1,
        "'y' of '#pragma omp scan' is not in a 'reduction(inscan, ...)' clause of the loop",
    ),
    "inscan_variable_missing": (
        "#pragma omp simd reduction(inscan, +: x, y)",
        INCLUSIVE,
        7,
        1,
        "'reduction(inscan, ...: y)' but 'y' is not in the loop's '#pragma omp scan'",
    ),
    "two_scans": (
        "#pragma omp simd reduction(inscan, +: x)",
        INCLUSIVE + "\n#pragma omp scan inclusive(x)\n        b[i] += 1;",
        9,
        1,
        "a second '#pragma omp scan' in the loop (one separates its phases)",
    ),
    "nested_in_an_if": (
        "#pragma omp simd reduction(inscan, +: x)",
        "        x += a[i];\n        if (n > 2) {\n#pragma omp scan inclusive(x)\n"
        "        b[i] = x;\n        }",
        8,
        1,
        "'#pragma omp scan' must be directly in the loop body",
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_malformed_scans_are_errors(tmp_path: Path, name: str) -> None:
    pragma, body, line, column, message = ERRORS[name]
    r = vectorize(tmp_path, _code(pragma, body))
    assert r.returncode == 1, r.stderr
    (e,) = r.diagnostics("error")
    assert (int(e["line"]), int(e["col"]), e["text"]) == (line, column, message), e.group(0)
    assert not r.output.exists()


def test_orphaned_scan_is_an_error(tmp_path: Path) -> None:
    code = "void g(int *b, int x)\n{\n#pragma omp scan inclusive(x)\n    b[0] = x;\n}\n"
    r = vectorize(tmp_path, code)
    assert r.returncode == 1, r.stderr
    (e,) = r.diagnostics("error")
    assert (int(e["line"]), int(e["col"])) == (3, 1), e.group(0)
    assert "'#pragma omp scan' outside a loop" in e["text"]


# name: (pragma, body, line, words of the warning)
SCALAR = {
    "inscan_without_scan": (
        "#pragma omp simd reduction(inscan, +: x)",
        "        x += a[i];\n        b[i] = x;",
        4,
        ("'reduction(inscan, ...)' but no '#pragma omp scan' line in the loop body",),
    ),
    "parallel_for_simd_with_schedule": (
        "#pragma omp parallel for simd reduction(inscan, +: x) schedule(static)",
        INCLUSIVE,
        4,
        ("with 'schedule'", "runs such a scan on one thread of the team"),
    ),
    "distribute_parallel_for_simd": (
        "#pragma omp teams distribute parallel for simd reduction(inscan, +: x)",
        INCLUSIVE,
        4,
        ("the scan across threads is not implemented",),
    ),
    "written_in_the_scan_phase": (
        "#pragma omp simd reduction(inscan, +: x)",
        INCLUSIVE + "\n        x = 0;",
        9,
        ("'x' is written in the scan phase",),
    ),
    "read_in_the_input_phase": (
        "#pragma omp simd reduction(inscan, +: x)",
        "        x += a[i];\n        b[i] = x;\n#pragma omp scan inclusive(x)\n        b[i] += x;",
        7,
        ("'x' is read in the input phase",),
    ),
    "address_taken": (
        "#pragma omp simd reduction(inscan, +: x)",
        "        int *p = &x;\n        *p += a[i];\n#pragma omp scan inclusive(x)\n"
        "        b[i] = x;",
        6,
        ("the address of the scan variable 'x' is taken",),
    ),
    "continue_in_a_phase": (
        "#pragma omp simd reduction(inscan, +: x)",
        "        if (a[i] < 0) continue;\n" + INCLUSIVE,
        6,
        ("continue statement leaves a phase",),
    ),
    "exclusive_declaration_across": (
        "#pragma omp simd reduction(inscan, +: x)",
        "        int t = a[i];\n        b[i] = x;\n#pragma omp scan exclusive(x)\n        x += t;",
        9,
        ("'t', declared before the '#pragma omp scan exclusive', is used after it",),
    ),
}


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_scans_s2svec_does_not_take_stay_scalar(tmp_path: Path, name: str) -> None:
    pragma, body, line, words = SCALAR[name]
    r = vectorize(tmp_path, _code(pragma, body))
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("error"), r.stderr
    r.warning_at(line, *words)
    assert r.vectorized_loops() == 0, r.stderr
    compile_everywhere(r.output)


def test_scans_are_vectorized(tmp_path: Path) -> None:
    code = _code(
        "#pragma omp simd reduction(inscan, +: x) reduction(inscan, max: y)",
        "        b[i] = x - y;\n#pragma omp scan exclusive(x, y)\n"
        "        x += a[i];\n        y = a[i] > y ? a[i] : y;",
    )
    r = vectorize(tmp_path, code, "--report")
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == 1, r.stderr
    # the prefix is made in registers: lanes moved up by 1, 2, 4 ... (log2 W steps)
    assert "running total is made lane by lane" not in r.stderr
    out = r.output.read_text()
    for intrinsic in ("_mm512_alignr_epi32(", "_mm256_alignr_epi8(", "vextq_s32("):
        assert intrinsic in out, intrinsic
    # one helper per variable, defined once (before the function), returning
    # the total before the iteration's contribution (exclusive): the code of
    # the targets that make the prefix lane by lane calls it
    for op, var in (("add", "x"), ("max", "y")):
        pattern = rf"static inline .* int32_t (s2s_ordered_scan_excl_{op}_\d+_\d+_{var})\("
        (helper,) = re.findall(pattern, out)
        assert "return s2s_before;" in out.split(helper, 1)[1].split("}", 1)[0]
    # the scalar copies of the body, outside the simd construct, lose the directive
    assert len(re.findall(r"^#pragma omp scan", out, re.M)) == 1  # the #else's loop
    assert "/* omp scan */" in out
    compile_everywhere(r.output)


def test_collapsed_scans(tmp_path: Path) -> None:
    """A scan in the innermost loop of a collapsed nest is vectorized (the
    kernel scan_collapse checks the values); on a worksharing nest one
    thread runs all outer iterations, which needs their count before the
    nest: outer bounds that depend on each other keep it scalar."""
    code = """\
int f(const int *a, int *b, int n)
{
    int x = 0, y = 0;
#pragma omp simd collapse(2) reduction(inscan, +: x)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 8; j++) {
            x += a[i * 8 + j];
#pragma omp scan inclusive(x)
            b[i * 8 + j] = x;
        }
#pragma omp parallel for simd collapse(3) reduction(inscan, +: y)
    for (int i = 0; i < n; i++)
        for (int k = i; k < n; k++)
            for (int j = 0; j < 8; j++) {
                b[(i + k) * 8 + j] = y;
#pragma omp scan exclusive(y)
                y += a[k * 8 + j];
            }
    return x + y;
}
"""
    r = vectorize(tmp_path, code, "-fopenmp")
    assert r.returncode == 0, r.stderr
    r.warning_at(11, "'reduction(inscan, ...)' with 'collapse' on '#pragma omp parallel for simd'")
    assert "bounds do not depend on each other" in r.stderr
    assert r.vectorized_loops() == 1, r.stderr
    compile_everywhere(r.output)
    # a scan directive must be directly in the innermost loop's body
    misplaced = code.replace(
        "a[i * 8 + j];\n#pragma omp scan inclusive(x)",
        "a[i * 8 + j];\n            { b[0] = 1;\n#pragma omp scan inclusive(x)\n }",
        1,
    )
    assert misplaced != code
    r = vectorize(tmp_path, misplaced, "-fopenmp")
    assert r.returncode == 1, r.stderr
    assert ":9:1: error: '#pragma omp scan' must be directly in the loop body" in r.stderr


def test_logical_scans_run_lane_by_lane(tmp_path: Path) -> None:
    code = _code(
        "#pragma omp simd reduction(inscan, &&: x)",
        "        x = x && a[i] > 0;\n#pragma omp scan inclusive(x)\n        b[i] = x;",
    )
    r = vectorize(tmp_path, code, "--report")
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr
    assert "'#pragma omp scan' running total is made lane by lane" in r.stderr
    assert "s2s_ordered_scan_incl_land_" in r.output.read_text()
    compile_everywhere(r.output)
