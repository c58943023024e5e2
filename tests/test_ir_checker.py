"""Tests of the textual IR checker itself (tests/ir_checker.py).

Each failing case is the passing one with one change, so a test fails if
the checker accepts the change (or if the passing case stops passing).
"""

from __future__ import annotations

from pathlib import Path

from ir_checker import check_file, check_text, filecheck

ANALYSIS = """\
; A strided value and a uniform one.
; ARG: %i stride(1)
; ARG: %n uni
; SHAPE: %x stride(1)
; SHAPE: %uni.y uni
func @f(i64 %i, i64 %n) -> () {
entry:
  %x = add %i, i64 1
  %uni.y = add %n, i64 2
  ret
}
"""

TRANSFORM = """\
; Unsigned division by 16 becomes a shift.
; RUN: strength
; ARG: %x var
func @g(u32 %x) -> (u32) {
entry:
  %q = div %x, u32 16
  ret %q
}
; CHECK-COUNT-1: shr
; CHECK: entry:
; CHECK-NEXT: %q = shr %x, u32 4
; CHECK-NOT: div
; CHECK: ret %q
"""

CORRECT = ANALYSIS + "; -----\n" + TRANSFORM


def errors_of(text: str) -> str:
    return "\n".join(check_text(text))


def test_a_correct_file_passes() -> None:
    assert check_text(CORRECT) == []
    assert check_text(ANALYSIS) == []
    assert check_text(TRANSFORM) == []


def test_a_correct_file_on_disk_passes(tmp_path: Path) -> None:
    path = tmp_path / "ok.ir"
    path.write_text(CORRECT)
    assert check_file(path) == []
    path.write_text(CORRECT.replace("; SHAPE: %x stride(1)", "; SHAPE: %x stride(2)"))
    assert check_file(path)


def test_an_unknown_directive_fails() -> None:
    text = CORRECT.replace("; RUN: strength", "; RUN: strength\n; FOO: bar")
    assert "unknown directive 'FOO'" in errors_of(text)
    # prose may not begin with an upper-case word either: it would hide a typo
    text = CORRECT.replace("; Unsigned division", "; UNSIGNED division")
    assert "unknown directive 'UNSIGNED'" in errors_of(text)


def test_a_typo_in_a_shape_directive_fails() -> None:
    for typo in (
        "; SHAPPE: %x stride(1)",
        "; SHAPE %x stride(1)",
        "; Shape: %x stride(1)",
        "; SHAPES: %x stride(1)",
    ):
        text = ANALYSIS.replace("; SHAPE: %x stride(1)", typo)
        assert text != ANALYSIS
        errors = check_text(text)
        assert len(errors) == 1, errors
        assert "line 4:" in errors[0] and typo.lstrip("; ") in errors[0], errors


def test_a_file_without_a_function_fails() -> None:
    assert "no function" in errors_of("")
    assert "no function" in errors_of("; A comment only.\n")
    assert "no function" in errors_of("; ARG: %i stride(1)\n; SHAPE: %i stride(1)\n")


def test_a_case_without_a_function_fails() -> None:
    errors = check_text(CORRECT + "; -----\n; SHAPE: %x var\n")
    assert len(errors) == 1 and errors[0].startswith("case 3 ") and "no function" in errors[0]


def test_a_check_that_does_not_match_fails() -> None:
    text = CORRECT.replace("; CHECK-NEXT: %q = shr %x, u32 4", "; CHECK-NEXT: %q = shr %x, u32 5")
    errors = errors_of(text)
    assert "CHECK-NEXT: '%q = shr %x, u32 5' is not the next line" in errors
    text = CORRECT.replace("; CHECK: ret %q", "; CHECK: ret %x")
    assert "CHECK: 'ret %x' not found" in errors_of(text)
    text = CORRECT.replace("; CHECK: entry:", "; CHECK-NOT: u32\n; CHECK: entry:")
    assert "CHECK-NOT: 'u32' found on line 1" in errors_of(text)
    text = CORRECT.replace("; CHECK-COUNT-1: shr", "; CHECK-COUNT-2: shr")
    assert "CHECK-COUNT-2: 'shr' found 1 times" in errors_of(text)


def test_a_wrong_analysis_expectation_fails() -> None:
    text = (
        ANALYSIS.replace("; SHAPE: %x stride(1)", "; SHAPE: %x uni")
        .replace("%uni.y = add %n", "%uni.y = add %i")
        .replace("%uni.y uni", "%uni.y stride(1)")
    )
    errors = check_text(text)
    assert len(errors) == 2, errors
    assert any("%uni.y should be uniform" in e for e in errors)
    assert any("SHAPE: %x uni: got stride(1)" in e for e in errors)


def test_branches_and_loops_must_be_classified() -> None:
    text = """\
; ARG: %v var
; SHAPE: %v var
func @f(i64 %v) -> () {
entry:
  %c = cmp lt %v, i64 0
  condbr %c, a, b
a:
  br b
b:
  ret
}
"""
    assert "branch entry has no BRANCH line" in errors_of(text)
    text = text.replace("; SHAPE: %v var", "; SHAPE: %v var\n; BRANCH: entry divergent")
    assert check_text(text) == []
    assert "got divergent" in errors_of(text.replace("entry divergent", "entry uniform"))


LOOP = """\
; Threads leave the loop in different iterations (temporal divergence).
; ARG: %n var
; BRANCH: B divergent
; LOOP: B divergent: X
; JOINS: B: X
; SHAPE: %div.lc var
func @temporal(i32 %n) -> (i32) {
A:
  br B
B:
  %uni.x = phi i32 [i32 0, A], [%uni.inc, B]
  %uni.inc = add %uni.x, i32 1
  %div.c = cmp lt %uni.inc, %n
  condbr %div.c, B, X
X:
  %div.lc = phi i32 [%uni.inc, B]
  ret %div.lc
}
"""


def test_wrong_loop_and_join_expectations_fail() -> None:
    assert check_text(LOOP) == []
    assert "LOOP: B uniform: got divergent" in errors_of(
        LOOP.replace("B divergent: X", "B uniform")
    )
    assert "divergent exits X" in errors_of(LOOP.replace("B divergent: X", "B divergent: A"))
    assert "JOINS: B: X, A: got X" in errors_of(LOOP.replace("JOINS: B: X", "JOINS: B: X, A"))
    assert "loop B has no LOOP line" in errors_of(LOOP.replace("; LOOP: B divergent: X\n", ""))
    assert "%div.lc should not be uniform" in errors_of(LOOP.replace("ARG: %n var", "ARG: %n uni"))


MEMORY = """\
; A strided load, a contiguous store, a per-lane stack object.
; ARG: %tid stride(1,a4)
; ARG: %B uni(a16)
; ACCESS: %b strided
; STORE: entry 0 contiguous
; ALLOCA: %S varying
func @m(i32 %tid, ptr<f32> %B) -> () {
entry:
  %i = mul i32 -2, %tid
  %pb = gep %B, %i
  %b = load %pb
  %pa = gep %B, %tid
  store %b, %pa
  %S = alloca i32
  store %tid, %S
  ret
}
"""


def test_wrong_memory_expectations_fail() -> None:
    assert check_text(MEMORY) == []
    assert "ACCESS: %b strided: got contiguous" in errors_of(
        MEMORY.replace("%i = mul i32 -2, %tid", "%i = add i32 0, %tid")
    )
    assert "STORE: entry 0 scatter: got contiguous" in errors_of(
        MEMORY.replace("entry 0 contiguous", "entry 0 scatter")
    )
    assert "block entry has 2 stores" in errors_of(MEMORY.replace("entry 0", "entry 2"))
    assert "ALLOCA: %S uniform: got varying" in errors_of(
        MEMORY.replace("%S varying", "%S uniform")
    )
    assert "%b is not an alloca" in errors_of(MEMORY.replace("ALLOCA: %S", "ALLOCA: %b"))


def test_a_case_that_checks_nothing_fails() -> None:
    text = TRANSFORM.split("; CHECK")[0]
    assert "checks nothing" in errors_of(text)


def test_check_lines_need_a_run_line() -> None:
    text = TRANSFORM.replace("; RUN: strength\n", "")
    assert "CHECK lines without a RUN line" in errors_of(text)


def test_directives_must_name_what_exists() -> None:
    assert "no parameter %y" in errors_of(ANALYSIS.replace("ARG: %n uni", "ARG: %y uni"))
    assert "no value %z" in errors_of(ANALYSIS.replace("SHAPE: %x", "SHAPE: %z"))
    assert "no block exit" in errors_of(ANALYSIS + "; BRANCH: exit uniform\n")
    assert "no pass named strenght" in errors_of(
        TRANSFORM.replace("RUN: strength", "RUN: strenght")
    )
    assert "unknown RUN option" in errors_of(
        TRANSFORM.replace("RUN: strength", "RUN: --fast strength")
    )
    assert "bad vector shape" in errors_of(
        ANALYSIS.replace("stride(1)\n; ARG: %n", "strid(1)\n; ARG: %n")
    )


def test_unsupported() -> None:
    # a jump into the loop's body: irreducible, the analysis refuses it
    text = """\
; UNSUPPORTED:
; ARG: %c var
func @f(i1 %c) -> () {
entry:
  condbr %c, a, b
a:
  br b
b:
  br a
}
"""
    assert check_text(text) == []
    assert "unexpected unsupported" in errors_of(
        text.replace("; UNSUPPORTED:", "; BRANCH: entry divergent")
    )
    assert "expected the passes or the analysis to refuse" in errors_of(
        ANALYSIS.replace("; SHAPE: %x stride(1)\n; SHAPE: %uni.y uni", "; UNSUPPORTED:")
    )


def test_filecheck_reports_what_does_not_match() -> None:
    out = "a: x\n  b\n  c\n"
    assert filecheck(out, [("CHECK", "a:"), ("CHECK-NEXT", "b")]) == []
    assert filecheck(out, [("CHECK", "a:"), ("CHECK-NEXT", "c")])
    assert filecheck(out, [("CHECK", "c"), ("CHECK", "b")])
    assert filecheck(out, [("CHECK", "a:"), ("CHECK-NOT", "b"), ("CHECK", "c")])
    assert filecheck(out, [("CHECK-COUNT-2", "{{[bc]}}")]) == []
    assert filecheck(out, [("CHECK-COUNT-1", "{{[bc]}}")])
