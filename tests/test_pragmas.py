"""Tests of parsing (s2s.frontend.parse) and pragma discovery (s2s.frontend.pragmas)."""

from __future__ import annotations

import os
from pathlib import Path

import clang.cindex as ci
import pytest

from s2s.diagnostics import DeviceCode, UserError
from s2s.frontend import parse as parse_module
from s2s.frontend.parse import ParsedFile, builtin_include_dir, parse_file
from s2s.frontend.pragmas import (
    Pragma,
    find_header_declare_simd,
    find_pragmas,
    scan_pragma_lines,
)
from s2s.ir.clauses import Linear, Reduction

FOR = ci.CursorKind.FOR_STMT
FUNC = ci.CursorKind.FUNCTION_DECL


def write(tmp_path: Path, code: str, name: str = "k.c") -> str:
    path = tmp_path / name
    path.write_bytes(code.encode())
    return str(path)


def parse(
    tmp_path: Path,
    code: str,
    defines: list[str] | None = None,
    include_dirs: list[str] | None = None,
) -> ParsedFile:
    return parse_file(write(tmp_path, code), include_dirs or [], defines or [], "c11")


def pragmas(tmp_path: Path, code: str, **kwargs: list[str]) -> tuple[ParsedFile, list[Pragma]]:
    parsed = parse(tmp_path, code, **kwargs)
    return parsed, find_pragmas(parsed)


def pragma_error(tmp_path: Path, code: str, **kwargs: list[str]) -> str:
    """The formatted error, with the temporary directory replaced by ``T``."""
    with pytest.raises(UserError) as info:
        pragmas(tmp_path, code, **kwargs)
    return info.value.format().replace(str(tmp_path), "T")


def line_of(cursor: ci.Cursor) -> int:
    return cursor.extent.start.line


def main_decls(parsed: ParsedFile) -> dict[str, ci.Cursor]:
    """The declarations of the main file (not its #include lines), by name."""
    return {
        c.spelling: c
        for c in parsed.tu.cursor.get_children()
        if parsed.is_main_file(c) and c.kind != ci.CursorKind.INCLUSION_DIRECTIVE
    }


# -- parse_file -----------------------------------------------------------


def test_parse_file_keeps_text_and_path(tmp_path: Path) -> None:
    code = "int f(void) { return 1; }\n"
    parsed = parse(tmp_path, code)
    assert parsed.text == code and parsed.raw == parsed.data == code.encode()
    assert parsed.path == str(tmp_path / "k.c")
    assert [c.spelling for c in parsed.tu.cursor.get_children() if parsed.is_main_file(c)] == ["f"]


def test_offsets_with_non_ascii_text(tmp_path: Path) -> None:
    code = "/* café */ int x = 1;\n"
    parsed = parse(tmp_path, code)
    var = next(c for c in parsed.tu.cursor.get_children() if c.spelling == "x")
    assert parsed.extent_text(var) == "int x = 1"
    start = var.extent.start.offset
    assert start == 12  # 'é' takes two bytes
    assert parsed.char_offset(start) == 11
    assert parsed.byte_offset(11) == 12
    assert parsed.text[parsed.char_offset(start) :].startswith("int x")
    assert str(parsed.location(start)) == f"{parsed.path}:1:13"


def test_builtin_headers_are_found(tmp_path: Path) -> None:
    include = builtin_include_dir()
    assert include is not None and os.path.exists(os.path.join(include, "stddef.h"))
    code = (
        "#include <stddef.h>\n#include <stdarg.h>\n#include <float.h>\n"
        "size_t n = sizeof(max_align_t) + FLT_DIG;\n"
    )
    parsed = parse(tmp_path, code)
    n = main_decls(parsed)["n"]
    assert n.kind == ci.CursorKind.VAR_DECL and n.type.spelling == "size_t"
    assert n.type.get_canonical().spelling == "unsigned long"


def test_std_headers_parse(tmp_path: Path) -> None:
    parsed = parse(
        tmp_path, "#include <math.h>\n#include <stdio.h>\n#include <stdint.h>\nint64_t v;\n"
    )
    assert not [d.spelling for d in parsed.tu.diagnostics]
    v = main_decls(parsed)["v"]
    assert (v.type.spelling, v.type.get_canonical().spelling) == ("int64_t", "long")
    declared = {c.spelling for c in parsed.tu.cursor.get_children()}
    assert {"sqrt", "printf", "FILE", "int64_t"} <= declared


def test_intrinsic_headers_parse(tmp_path: Path) -> None:
    # The borrowed builtin headers may be older than libclang: their own
    # errors are not reported, the user's still are.
    code = (
        "#include <immintrin.h>\nfloat f(void) { __m256 v = _mm256_set1_ps(1.0f); return v[0]; }\n"
    )
    parse(tmp_path, code)
    with pytest.raises(UserError) as info:
        parse(tmp_path, code + "int g(void) { return y; }\n")
    assert info.value.message == f"{tmp_path / 'k.c'}:3:22: error: use of undeclared identifier 'y'"


def test_parse_errors_are_reported(tmp_path: Path) -> None:
    code = "int f(void) {\n  return x;\n}\nint g(void) { int y = ; }\n"
    with pytest.raises(UserError) as info:
        parse(tmp_path, code)
    path = str(tmp_path / "k.c")
    assert info.value.message == (
        f"{path}:2:10: error: use of undeclared identifier 'x'\n"
        f"{path}:4:23: error: expected expression"
    )
    assert info.value.format() == info.value.message  # no doubled prefix
    assert info.value.location is not None
    assert (info.value.location.file, info.value.location.line, info.value.location.column) == (
        path,
        2,
        10,
    )


def test_warnings_are_not_errors(tmp_path: Path) -> None:
    parsed = parse(
        tmp_path,
        "int f(int a) { int unused; return a; }\nint g() { return 1; }\n"
        "int h(int a) { if (a) return 1; }\n",
    )
    warnings = [d for d in parsed.tu.diagnostics if d.severity == ci.Diagnostic.Warning]
    assert [(d.location.line, d.spelling) for d in warnings] == [
        (3, "non-void function does not return a value in all control paths")
    ]
    assert not [d for d in parsed.tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    assert [c.spelling for c in main_decls(parsed).values()] == ["f", "g", "h"]


def test_missing_include_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(UserError) as info:
        parse(tmp_path, '#include "nope.h"\nint x;\n')
    assert info.value.message == f"{tmp_path / 'k.c'}:1:10: error: 'nope.h' file not found"


def test_missing_file(tmp_path: Path) -> None:
    path = str(tmp_path / "absent.c")
    with pytest.raises(UserError) as info:
        parse_file(path, [], [], "c11")
    assert info.value.format() == f"s2svec: error: {path}: no such file"


def test_directory_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(UserError) as info:
        parse_file(str(tmp_path), [], [], "c11")
    assert info.value.message == f"{tmp_path}: is a directory"


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "int x;\n")

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    # Tests may run as root, who can read a chmod 000 file: fake the refusal.
    monkeypatch.setattr(parse_module, "open", refuse, raising=False)
    with pytest.raises(UserError) as info:
        parse_file(path, [], [], "c11")
    assert info.value.message == f"{path}: cannot read file: Permission denied"


def test_defines_and_std_are_passed(tmp_path: Path) -> None:
    code = "#if N != 3 || __STDC_VERSION__ != 199901L\n#error wrong\n#endif\nint x;\n"
    parse_file(write(tmp_path, code), [], ["N=3"], "c99")
    with pytest.raises(UserError):
        parse_file(write(tmp_path, code), [], ["N=4"], "c99")


def test_openmp_is_not_enabled(tmp_path: Path) -> None:
    # Without -fopenmp the pragma is not in the AST and _OPENMP is undefined.
    parsed = parse(
        tmp_path,
        "#ifdef _OPENMP\nint openmp_on;\n#else\nint openmp_off;\n#endif\n"
        "void k(int n, float *a) {\n  #pragma omp parallel for simd\n"
        "  for (int i = 0; i < n; i++)\n    a[i] = 0;\n}\n",
    )
    assert list(main_decls(parsed)) == ["openmp_off", "k"]
    k = main_decls(parsed)["k"]
    kinds = [c.kind for c in k.walk_preorder()]
    assert FOR in kinds and not [kind for kind in kinds if kind.name.startswith("OMP")]


# -- finding and attaching pragmas ----------------------------------------

SIMPLE = """\
void f(int n, float *a) {
  #pragma omp simd simdlen(8)
  for (int i = 0; i < n; i++)
    a[i] = 0;
}
"""


def test_simple_loop(tmp_path: Path) -> None:
    parsed, found = pragmas(tmp_path, SIMPLE)
    assert len(found) == 1
    p = found[0]
    assert p.target.kind == FOR and line_of(p.target) == 3
    assert (p.location.line, p.location.column) == (2, 3)
    assert p.clauses.location == p.location
    assert parsed.source(p.start, p.end) == "#pragma omp simd simdlen(8)"
    assert p.clauses.simdlen == 8 and p.clauses.directive == "simd"


def test_two_pragmas_in_one_function(tmp_path: Path) -> None:
    code = """\
void f(int n, float *a, float *b) {
  #pragma omp simd
  for (int i = 0; i < n; i++) a[i] = 0;
  float s = 1;
  #pragma omp simd reduction(+: s)
  for (int j = 0; j < n; j++) b[j] = 0;
}
"""
    _, found = pragmas(tmp_path, code)
    assert [line_of(p.target) for p in found] == [3, 6]
    assert found[1].clauses.reductions == [Reduction("+", "s")]


def test_nested_loops(tmp_path: Path) -> None:
    code = """\
void f(int n, float (*a)[64]) {
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    #pragma omp simd
    for (int j = 0; j < 64; j++)
      a[i][j] = 0;
  }
  for (int i = 0; i < n; i++)
    #pragma omp simd
    for (int j = 0; j < 64; j++) a[i][j] = 1;
}
"""
    _, found = pragmas(tmp_path, code)
    assert [(p.target.kind, line_of(p.target)) for p in found] == [(FOR, 3), (FOR, 5), (FOR, 10)]
    assert found[1].target.extent.start.column == 5


def test_pragma_with_continuation_and_comment(tmp_path: Path) -> None:
    code = (
        "void f(int n, float *a) {\n#pragma omp simd \\\n   aligned(a: 32) /* why */\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    )
    parsed, found = pragmas(tmp_path, code)
    text = parsed.source(found[0].start, found[0].end)
    assert text == "#pragma omp simd \\\n   aligned(a: 32) /* why */"
    assert found[0].end == code.index("\n  for")
    assert line_of(found[0].target) == 4


def test_crlf_line_endings(tmp_path: Path) -> None:
    code = SIMPLE.replace("\n", "\r\n")
    parsed, found = pragmas(tmp_path, code)
    assert parsed.source(found[0].start, found[0].end) == "#pragma omp simd simdlen(8)"


def test_pragma_at_end_of_file_without_newline(tmp_path: Path) -> None:
    assert scan_pragma_lines(b"int x;\n#pragma omp simd") == [(7, 23)]


def test_other_pragmas_are_ignored(tmp_path: Path) -> None:
    code = """\
#pragma once
#pragma GCC optimize("O3")
void f(int n, float *a) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = 0;
  #pragma omp critical
  { a[0] = 1; }
  #pragma omp parallel for simd num_threads(2)
  for (int i = 0; i < n; i++) a[i] = 0;
}
"""
    _, found = pragmas(tmp_path, code)
    assert len(found) == 1 and found[0].clauses.directive == "parallel for simd"
    assert found[0].clauses.other == "num_threads(2)"


def test_pragma_text_in_comments_strings_and_skipped_code(tmp_path: Path) -> None:
    code = """\
/* #pragma omp simd */
// #pragma omp simd \\
#pragma omp simd
const char *s = "\\
#pragma omp simd";
#define P x; \\
#pragma omp simd
#if 0
#pragma omp simd
int broken(;
#endif
"""
    _, found = pragmas(tmp_path, code)
    assert found == []


def test_scan_needs_hash_first_on_line() -> None:
    assert scan_pragma_lines(b"x; /* c */ #pragma omp simd\n") == []
    assert scan_pragma_lines(b"x;\n /* c */ # /* d */ pragma omp simd\n") == [(12, 37)]
    assert scan_pragma_lines(b"x;\n#prag\\\nma omp simd\n") == [(3, 21)]
    assert scan_pragma_lines(b"#define A 1\n#include <x.h>\n#  pragma omp simd\n") == [(27, 45)]


def test_for_simd_and_collapse(tmp_path: Path) -> None:
    code = """\
void f(int n, float (*a)[8]) {
  #pragma omp for simd collapse(2) schedule(static)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 8; j++)
      a[i][j] = 0;
  #pragma omp simd collapse(3)
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 8; j++) {
      for (int k = 0; k < 8; k++) a[i][j] += k;
    }
  }
}
"""
    _, found = pragmas(tmp_path, code)
    assert [line_of(p.target) for p in found] == [3, 7]
    assert found[0].clauses.other == "collapse(2) schedule(static)"
    assert found[1].clauses.collapse == 3


def test_collapse_needs_perfect_nest(tmp_path: Path) -> None:
    code = """\
void f(int n, float (*a)[8]) {
  #pragma omp simd collapse(2)
  for (int i = 0; i < n; i++) {
    a[i][0] = 1;
    for (int j = 0; j < 8; j++) a[i][j] = 0;
  }
}
"""
    assert (
        pragma_error(tmp_path, code)
        == "T/k.c:2:3: error: 'collapse(2)' requires 2 perfectly nested for loops"
    )


def test_collapse_deeper_than_nest(tmp_path: Path) -> None:
    code = (
        "void f(int n, float *a) {\n#pragma omp simd collapse(2)\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    )
    assert (
        pragma_error(tmp_path, code)
        == "T/k.c:2:1: error: 'collapse(2)' requires 2 perfectly nested for loops"
    )


@pytest.mark.parametrize(
    "statement, what",
    [
        ("int i = 0;", "a declaration"),
        ("while (n--) a[n] = 0;", "a while loop"),
        ("do a[--n] = 0; while (n);", "a do loop"),
        ("{ for (int i = 0; i < n; i++) a[i] = 0; }", "a block"),
        ("a[0] = 1;", "an expression"),
        ("if (n) a[0] = 1;", "an if statement"),
    ],
)
def test_loop_pragma_on_another_statement_leaves_it_scalar(
    tmp_path: Path, statement: str, what: str
) -> None:
    """Not an error: the statement stays as it is, with a warning (lower_loop raises it)."""
    code = f"void f(int n, float *a) {{\n  #pragma omp simd\n  {statement}\n}}\n"
    _, found = pragmas(tmp_path, code)
    assert len(found) == 1 and found[0].unsupported is not None
    assert found[0].unsupported.format() == (
        f"{tmp_path}/k.c:2:3: warning: '#pragma omp simd' must be followed by a for loop, "
        f"not {what}"
    )


def test_loop_pragma_at_end_of_block(tmp_path: Path) -> None:
    code = (
        "void f(int n, float *a) {\n  for (int i = 0; i < n; i++) a[i] = 0;\n"
        "  #pragma omp parallel for simd\n}\n"
    )
    assert (
        pragma_error(tmp_path, code)
        == "T/k.c:3:3: error: '#pragma omp parallel for simd' must be followed by a for loop"
    )


def test_loop_pragma_at_file_scope(tmp_path: Path) -> None:
    code = "#pragma omp for simd\nint x;\n"
    assert (
        pragma_error(tmp_path, code)
        == "T/k.c:1:1: error: '#pragma omp for simd' must be followed by a for loop"
    )


def test_declare_simd(tmp_path: Path) -> None:
    code = """\
#include <stddef.h>
#pragma omp declare simd uniform(a) linear(i) notinbranch
#pragma omp declare simd simdlen(8) \\
        uniform(a) linear(i: 1) inbranch
#pragma omp declare simd
static inline double get(const double *a, size_t i) { return a[i]; }

#pragma omp declare simd linear(ref(x)) linear(val(y): 2) linear(uval(z))
double proto(double *x, double *y, double *z);
"""
    _, found = pragmas(tmp_path, code)
    assert len(found) == 4
    assert [p.target.kind for p in found] == [FUNC] * 4
    assert [p.target.spelling for p in found] == ["get", "get", "get", "proto"]
    assert found[0].target == found[1].target == found[2].target
    assert [p.location.line for p in found] == [2, 3, 5, 8]
    assert found[0].clauses.inbranch is False and found[1].clauses.inbranch is True
    assert found[1].clauses.simdlen == 8
    assert found[3].clauses.linear == [
        Linear("x", 1, "ref"),
        Linear("y", 2, "val"),
        Linear("z", 1, "uval"),
    ]


def test_declare_simd_inside_function_body(tmp_path: Path) -> None:
    code = "void f(void) {\n  #pragma omp declare simd\n  double g(double);\n}\n"
    _, found = pragmas(tmp_path, code)
    assert found[0].target.kind == FUNC and found[0].target.spelling == "g"


def test_declare_simd_needs_function(tmp_path: Path) -> None:
    code = "#pragma omp declare simd\nint x;\n"
    assert pragma_error(tmp_path, code) == (
        "T/k.c:1:1: error: '#pragma omp declare simd' must be followed by a function declaration"
    )


def test_first_bad_pragma_is_reported(tmp_path: Path) -> None:
    code = "#pragma omp declare simd\n#pragma omp declare simd\nint x;\n#pragma omp simd\nint y;\n"
    assert pragma_error(tmp_path, code) == (
        "T/k.c:1:1: error: '#pragma omp declare simd' must be followed by a function declaration"
    )


def test_declare_simd_then_other_pragma(tmp_path: Path) -> None:
    code = "#pragma omp declare simd\n#pragma omp simd\ndouble g(double);\n"
    assert pragma_error(tmp_path, code) == (
        "T/k.c:1:1: error: '#pragma omp declare simd' must be followed by a function declaration"
    )


def test_macros_as_clause_arguments(tmp_path: Path) -> None:
    code = """\
#define VL 4
#define ALIGN (VL * 16)
void f(int n, float *a) {
  #pragma omp simd simdlen(VL) aligned(a: ALIGN) safelen(W)
  for (int i = 0; i < n; i++) a[i] = 0;
#undef VL
#define VL 8
  #pragma omp simd simdlen(VL)
  for (int i = 0; i < n; i++) a[i] = 0;
}
"""
    _, found = pragmas(tmp_path, code, defines=["W=16"])
    assert found[0].clauses.simdlen == 4 and found[0].clauses.safelen == 16
    assert found[0].clauses.aligned[0].alignment == 64
    assert found[1].clauses.simdlen == 8


def test_define_without_value(tmp_path: Path) -> None:
    code = (
        "void f(int n, float *a) {\n#pragma omp simd simdlen(ONE)\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    )
    _, found = pragmas(tmp_path, code, defines=["ONE"])
    assert found[0].clauses.simdlen == 1


def test_macro_defined_after_pragma_is_not_visible(tmp_path: Path) -> None:
    code = (
        "void f(int n, float *a) {\n#pragma omp simd simdlen(VL)\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n}\n#define VL 4\n"
    )
    assert (
        pragma_error(tmp_path, code)
        == "T/k.c:2:18: error: 'simdlen' argument must be a constant integer expression"
    )


def test_function_like_macro_is_not_a_constant(tmp_path: Path) -> None:
    code = (
        "#define VL(x) 4\nvoid f(int n, float *a) {\n#pragma omp simd simdlen(VL)\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    )
    assert (
        pragma_error(tmp_path, code)
        == "T/k.c:3:18: error: 'simdlen' argument must be a constant integer expression"
    )


def test_include_dirs_and_header_pragmas(tmp_path: Path) -> None:
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "kern.h").write_text(
        "#define HDR_VL 16\n#pragma omp declare simd\ndouble hsq(double x);\n"
        "static void hloop(int n, float *a) {\n#pragma omp simd\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    )
    code = (
        '#include "kern.h"\nvoid f(int n, float *a) {\n  #pragma omp simd simdlen(HDR_VL)\n'
        "  for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    )
    _, found = pragmas(tmp_path, code, include_dirs=[str(inc)])
    assert len(found) == 1  # the header's pragmas are not ours
    assert found[0].clauses.simdlen == 16 and line_of(found[0].target) == 4


def test_clause_error_location_in_file(tmp_path: Path) -> None:
    code = (
        "void f(int n, float *a) {\n    #pragma omp simd private(a) \\\n"
        "      lastprivate(a)\n  for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    )
    assert (
        pragma_error(tmp_path, code)
        == "T/k.c:3:7: error: variable 'a' already appears in a 'private' clause"
    )


def test_comment_between_pragma_and_loop(tmp_path: Path) -> None:
    code = (
        "void f(int n, float *a) {\n#pragma omp simd\n\n  /* the loop */\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    )
    _, found = pragmas(tmp_path, code)
    assert line_of(found[0].target) == 5


def test_loop_written_with_a_macro(tmp_path: Path) -> None:
    code = (
        "#define LOOP(i, n) for (int i = 0; i < n; i++)\nvoid f(int n, float *a) {\n"
        "  #pragma omp simd\n  LOOP(i, n) a[i] = 0;\n}\n"
    )
    parsed, found = pragmas(tmp_path, code)
    assert found[0].target.kind == FOR
    assert parsed.extent_text(found[0].target) == "LOOP(i, n) a[i] = 0"
    assert found[0].unsupported is not None
    assert found[0].unsupported.format() == (
        f"{tmp_path}/k.c:4:3: warning: a loop written with the macro 'LOOP' is not supported "
        "(write the for statement itself after the pragma)"
    )


def test_pragma_in_active_conditional_code(tmp_path: Path) -> None:
    code = (
        "#define USE 1\nvoid f(int n, float *a) {\n#if USE\n  #pragma omp simd\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n#else\n  #pragma omp simd\n  int bad;\n"
        "#endif\n}\n"
    )
    _, found = pragmas(tmp_path, code)
    assert [p.location.line for p in found] == [4]


# -- what keeps a loop scalar, what is an error (issue 10, items 11 and 12) ----


def test_unhandled_simd_constructs_are_regions_that_stay_scalar(tmp_path: Path) -> None:
    code = """\
void f(int n, float *a) {
#pragma omp taskloop simd
  for (int i = 0; i < n; i++) a[i] = 0;
#pragma omp teams distribute parallel for simd
  for (int i = 0; i < n; i++) a[i] = 1;
#pragma omp loop
  for (int i = 0; i < n; i++) a[i] = 2;
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = 3;
#pragma omp distribute
  for (int i = 0; i < n; i++) a[i] = 4;
}
"""
    _, found = pragmas(tmp_path, code)
    assert [(line_of(p.target), p.clauses.directive) for p in found] == [
        (3, "taskloop simd"),
        (5, "teams distribute parallel for simd"),
        (7, "loop"),
    ]
    # the combined constructs with simd are s2svec's (issue 21 item 7), loop is not
    assert [p.unsupported is None for p in found] == [True, True, False]
    loop = found[2].unsupported
    assert loop is not None and loop.message == "'#pragma omp loop' is not supported"


TARGET_FORMS = """void f(int n, float *a) {
#pragma omp target simd map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] = 0;
#pragma omp target
  {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] = 1;
  }
#pragma omp target
#pragma omp parallel for simd
  for (int i = 0; i < n; i++) a[i] = 2;
#pragma omp target map(tofrom: a[0:n])
#pragma omp teams distribute simd
  for (int i = 0; i < n; i++) a[i] = 3;
#pragma omp target teams distribute parallel for simd
  for (int i = 0; i < n; i++) a[i] = 4;
}
#pragma omp declare target
void g(int n, float *a) {
#pragma omp simd
  for (int i = 0; i < n; i++) a[i] = 5;
}
#pragma omp end declare target
"""


def test_target_regions_run_on_the_host_without_offloading(tmp_path: Path) -> None:
    """Without an offload target the target regions run on the host: their
    simd loops are vectorized; a teams construct nested in a target one is
    marked so (the target must hold nothing else: its vector code goes into
    a teams region written apart from distribute)."""
    _, found = pragmas(tmp_path, TARGET_FORMS)
    assert [p.unsupported for p in found] == [None] * 6
    assert [p.clauses.teams_in_target for p in found] == [False] * 3 + [True] + [False] * 2


def test_teams_in_a_target_region_with_allocate_stays_scalar(tmp_path: Path) -> None:
    code = """\
void f(int n, float *a) {
  float t;
#pragma omp target
#pragma omp teams distribute simd private(t) allocate(t)
  for (int i = 0; i < n; i++) { t = i; a[i] = t; }
}
"""
    _, (found,) = pragmas(tmp_path, code)
    assert found.unsupported is not None and found.unsupported.message == (
        "'allocate' on '#pragma omp teams distribute simd' in a target region is not "
        "supported (its teams construct is written apart from distribute)"
    )


@pytest.mark.parametrize("flag", ["-fopenmp-targets=nvptx64", "-foffload=nvptx-none"])
def test_target_regions_stay_scalar_when_the_build_offloads(tmp_path: Path, flag: str) -> None:
    parsed = parse(tmp_path, TARGET_FORMS)
    found = find_pragmas(parsed, offload=flag)
    reasons = [p.unsupported.message if p.unsupported else "" for p in found]
    assert reasons == [
        f"'#pragma omp target simd' may run on an offload device (the build offloads target "
        f"regions: '{flag}')",
        "the loop is inside the '#pragma omp target' region at line 4, which may run on an "
        f"offload device (the build offloads: '{flag}')",
        "the loop is inside the '#pragma omp target' region at line 9, which may run on an "
        f"offload device (the build offloads: '{flag}')",
        "the loop is inside the '#pragma omp target' region at line 12, which may run on an "
        f"offload device (the build offloads: '{flag}')",
        "'#pragma omp target teams distribute parallel for simd' may run on an offload "
        f"device (the build offloads target regions: '{flag}')",
        "function 'g' is compiled for offload devices too ('#pragma omp declare target' at "
        f"line 18; the build offloads: '{flag}')",
    ]


def test_unsupported_clause_is_the_reason(tmp_path: Path) -> None:
    code = (
        "void f(int n, float *a) {\n  float s = 0;\n"
        "#pragma omp simd reduction(task, +: s) allocate(s)\n"
        "  for (int i = 0; i < n; i++) { s += a[i]; a[i] = s; }\n}\n"
    )
    _, (found,) = pragmas(tmp_path, code)
    assert found.unsupported is not None
    assert found.unsupported.format() == (
        f"{tmp_path}/k.c:3:18: warning: 'reduction(task, ...)' is not supported"
    )


def test_omp_lines_inside_the_loop(tmp_path: Path) -> None:
    code = """\
void f(int n, float *a) {
#pragma omp simd
  for (int i = 1; i < n; i++) {
#if 0
#pragma omp critical
#endif
    a[i] += 1;  /* #pragma omp ordered simd */
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) a[i] += j;
  }
#pragma omp simd
  for (int i = 1; i < n; i++) {
#pragma omp critical
    a[0] += a[i];
  }
#pragma omp simd
  for (int i = 1; i < n; i++) {
#pragma omp atomic
    a[0] += a[i];
  }
}
"""
    _, (first, second, third) = pragmas(tmp_path, code)
    assert first.unsupported is None
    assert second.unsupported is not None
    assert second.unsupported.format() == (
        f"{tmp_path}/k.c:13:1: warning: '#pragma omp critical' inside the simd loop is not "
        "supported"
    )
    # atomic is lowered with the loop (lower_omp.py)
    assert third.unsupported is None
    assert [(c.kind, c.stmt.extent.start.line) for c in third.inner] == [("atomic", 19)]


def test_clause_variables_must_be_declared_at_the_pragma(tmp_path: Path) -> None:
    code = """\
int g;
void f(int n, float *a) {
  float s = 0;
  {
    float t = 1;
  }
#pragma omp simd reduction(+: s, g) private(t)
  for (int i = 0; i < n; i++) s += a[i];
}
"""
    assert pragma_error(tmp_path, code) == (
        "T/k.c:7:45: error: use of undeclared identifier 't' in 'private' clause"
    )


def test_clause_names_may_be_macros_and_later_declarations_do_not_count(tmp_path: Path) -> None:
    ok = (
        "#define ACC s\nvoid f(int n, float *a) {\n  float s = 0;\n"
        "#pragma omp simd reduction(+: ACC)\n  for (int i = 0; i < n; i++) s += a[i];\n}\n"
    )
    assert len(pragmas(tmp_path, ok)[1]) == 1
    late = (
        "void f(int n, float *a) {\n#pragma omp simd lastprivate(x)\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n  int x = 0;\n}\n"
    )
    assert pragma_error(tmp_path, late) == (
        "T/k.c:2:30: error: use of undeclared identifier 'x' in 'lastprivate' clause"
    )


def test_pragma_operator_read_as_a_pragma(tmp_path: Path) -> None:
    """A _Pragma that starts its line before a for statement, directly or
    through macros (chained, stringizing, of a header), is the loop's pragma."""
    (tmp_path / "omp_macros.h").write_text('#define HSIMD _Pragma("omp simd")\n')
    code = """\
#include "omp_macros.h"
#define SIMD _Pragma("omp simd")
#define SIMD2 SIMD
#define P(x) _Pragma(#x)
void f(int n, float *a, float s) {
  SIMD2
  for (int i = 0; i < n; i++) a[i] = 0;
    _Pragma("omp simd safelen(8)") for (int i = 0; i < n; i++) a[i] += 1;
  P(omp simd reduction(+:s) simdlen(4))
  for (int i = 0; i < n; i++) s += a[i];
  HSIMD
  for (int i = 0; i < n; i++) a[i] = s;
}
"""
    parsed, found = pragmas(tmp_path, code)
    assert parsed.warnings == []
    assert [(p.location.line, p.location.column, line_of(p.target)) for p in found] == [
        (6, 3, 7),
        (8, 5, 8),
        (9, 3, 10),
        (11, 3, 12),
    ]
    assert found[1].clauses.safelen == 8
    assert [r.var for r in found[2].clauses.reductions] == ["s"]
    assert found[2].clauses.simdlen == 4
    text = parsed.raw.decode()
    assert text[found[2].start : found[2].end] == "P(omp simd reduction(+:s) simdlen(4))"


def test_pragma_operator_warnings(tmp_path: Path) -> None:
    """Uses s2svec does not read say so at the use, and why."""
    code = """\
#define SIMD _Pragma("omp simd")
#define P(x) _Pragma(#x)
#define Q P(omp parallel for) P(omp simd)
#define R _Pragma("omp parallel") _Pragma("omp for simd")
#define LOOP(i, n) _Pragma("omp simd") for (int i = 0; i < n; i++)
_Pragma("omp declare simd") float g(float x);
void f(int n, float *a) {
  Q
  for (int i = 0; i < n; i++) a[i] = 0;
  P(omp critical)
  a[0] = 1;
  R
  for (int i = 0; i < n; i++) a[i] = 0;
  LOOP(i, n) a[i] = 2;
  { SIMD for (int i = 0; i < n; i++) a[i] = 0; }
  SIMD
  while (n--) a[n] = 0;
}
"""
    parsed, found = pragmas(tmp_path, code)
    assert found == []
    assert [w.format().replace(str(tmp_path), "T") for w in parsed.warnings] == [
        "T/k.c:6:1: warning: '_Pragma(\"omp declare simd\")', which is ignored: _Pragma forms "
        "of this directive are not read; the function gets no vector variants (write "
        "'#pragma omp declare simd')",
        "T/k.c:8:3: warning: 'Q' expands to '_Pragma(\"omp simd\")', which is ignored: its "
        "expansion holds more than that one pragma; the loop is not vectorized (write "
        "'#pragma omp simd')",
        "T/k.c:12:3: warning: 'R' expands to '_Pragma(\"omp for simd\")', which is ignored: "
        "its expansion holds more than that one pragma; the loop is not vectorized (write "
        "'#pragma omp for simd')",
        "T/k.c:14:3: warning: 'LOOP' expands to '_Pragma(\"omp simd\")', which is ignored: "
        "its expansion holds more than that one pragma; the loop is not vectorized (write "
        "'#pragma omp simd')",
        "T/k.c:15:5: warning: 'SIMD' expands to '_Pragma(\"omp simd\")', which is ignored: "
        "s2svec reads a _Pragma that starts its line; the loop is not vectorized (write "
        "'#pragma omp simd')",
        "T/k.c:16:3: warning: 'SIMD' expands to '_Pragma(\"omp simd\")', which is ignored: "
        "s2svec reads a _Pragma that a for statement follows; the loop is not vectorized "
        "(write '#pragma omp simd')",
    ]


def test_pragma_operator_inside_a_simd_loop_keeps_it_scalar(tmp_path: Path) -> None:
    """An atomic written as a _Pragma is not lowered as its #pragma line
    would be: the loop stays scalar rather than lose it."""
    code = """\
#define ATOMIC _Pragma("omp atomic")
void f(int n, int *a, int *c) {
#pragma omp simd
  for (int i = 0; i < n; i++) {
    if (a[i] > 0) {
      ATOMIC
      *c += 1;
    }
  }
}
"""
    parsed, found = pragmas(tmp_path, code)
    assert parsed.warnings == [] and len(found) == 1
    assert found[0].inner == []
    reason = found[0].unsupported
    assert reason is not None and reason.format().replace(str(tmp_path), "T") == (
        "T/k.c:6:7: warning: 'ATOMIC' expands to '_Pragma(\"omp atomic\")', inside the simd "
        "loop: s2svec does not read _Pragma forms there (write '#pragma omp atomic')"
    )


def test_declare_simd_of_a_device_function_when_the_build_offloads(tmp_path: Path) -> None:
    """s2svec's vector variants would put the host's intrinsics into device
    code: when the build offloads they are left to the compiler."""
    code = """\
#pragma omp declare target
#pragma omp declare simd
double sq(double x) { return x * x; }
#pragma omp end declare target
#pragma omp declare simd
double cube(double x) { return x * x * x; }
"""
    parsed = parse(tmp_path, code)
    found = find_pragmas(parsed, offload="-foffload=nvptx-none")
    assert isinstance(found[0].unsupported, DeviceCode) and found[1].unsupported is None
    assert found[0].unsupported.message == (
        "function 'sq' is compiled for offload devices too ('#pragma omp declare target' at "
        "line 1; the build offloads: '-foffload=nvptx-none')"
    )
    assert [p.unsupported for p in find_pragmas(parsed)] == [None, None]


def test_header_declare_simd_of_a_function_a_macro_starts(tmp_path: Path) -> None:
    """``TYPE foo(TYPE a)`` after the pragma in a header (gcc's
    vect-simd-clone-16.c, included by the 16b-f tests that define TYPE):
    the cursor at the function's first offset is TYPE's use, not the
    function; it got no variants and no word about it."""
    (tmp_path / "f.h").write_text(
        "#ifndef TYPE\n#define TYPE int\n#endif\n"
        "#pragma omp declare simd\nTYPE __attribute__((noinline))\nfoo (TYPE a)\n"
        "{\n  return a + 1;\n}\n"
    )
    parsed = parse(tmp_path, '#define TYPE float\n#include "f.h"\n', include_dirs=[str(tmp_path)])
    found = find_header_declare_simd(parsed)
    assert [(p.target.spelling, p.location.line) for p in found] == [("foo", 4)]
    assert found[0].target.result_type.spelling == "float"
