"""Dead code elimination (s2s.transform.dce) on textual IR, and through the driver."""

from __future__ import annotations

from pathlib import Path

from s2s.driver import Options, run
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.verifier import verify
from s2s.transform.canonicalize import canonicalize
from s2s.transform.dce import eliminate_dead_code


def dce(text: str) -> tuple[str, int, int]:
    fn = parse_function(text)
    res = eliminate_dead_code(fn)
    canonicalize(fn)  # drops the blocks folded branches left unreachable
    verify(fn)
    return print_function(fn), res.removed, res.branches_folded


# int v = b[i] && b[i + 1];  (v never read)
UNUSED_AND = """
func @f(i64 %i, ptr<i32> %b, ptr<i32> %out) -> () {
entry:
  %p = gep %b, %i
  %x = load %p
  %c = cmp ne %x, i32 0
  condbr %c, rhs, end
rhs:
  %j = add %i, i64 1
  %q = gep %b, %j
  %y = load %q
  %d = cmp ne %y, i32 0
  br end
end:
  %v = phi i1 [i1 0, entry], [%d, rhs]
  %o = gep %out, %i
  store i32 7, %o
  ret
}
"""


def test_unused_and_leaves_no_phi_and_no_branch() -> None:
    text, removed, folded = dce(UNUSED_AND)
    assert "phi" not in text and "condbr" not in text and "load" not in text
    assert "store i32 7" in text
    assert folded == 1
    assert removed == 8  # v, d, y, q, j, then c, x, p once the branch is gone


def test_used_phi_and_its_branch_stay() -> None:
    used = UNUSED_AND.replace("store i32 7, %o", "%w = cast %v to i32\n  store %w, %o")
    text, removed, folded = dce(used)
    assert removed == 0 and folded == 0
    assert "phi i1" in text and "condbr" in text


def test_dead_phi_cycle_in_a_loop() -> None:
    """A variable updated in an inner loop and never read: its header phi and
    the update feed only each other."""
    text, removed, _ = dce("""
func @f(i32 %n, ptr<i32> %out) -> () {
entry:
  br h
h:
  %k = phi i32 [i32 0, entry], [%k1, h]
  %acc = phi i32 [i32 0, entry], [%acc1, h]
  %acc1 = add %acc, %k
  %k1 = add %k, i32 1
  %t = cmp lt %k1, %n
  condbr %t, h, x
x:
  store i32 1, %out
  ret
}
""")
    assert removed == 2
    assert "%acc" not in text and "phi i32" in text  # the counter stays: it decides the exit


def test_empty_loop_keeps_its_branch() -> None:
    """``while (c) {}`` is not a branch between two empty ways to one join."""
    text, removed, folded = dce("""
func @f(i1 %c, ptr<i32> %out) -> () {
entry:
  br h
h:
  condbr %c, body, x
body:
  br h
x:
  store i32 1, %out
  ret
}
""")
    assert removed == 0 and folded == 0 and "condbr %c" in text


def test_side_effects_stay() -> None:
    text, removed, _ = dce("""
func @f(ptr<f64> %p) -> () {
entry:
  %x = load %p
  %y = call f64 @sqrt(%x) pure
  %z = call f64 @ext(%x)
  store f64 1.0, %p
  ret
}
""")
    assert removed == 1 and "@sqrt" not in text and "@ext" in text


def test_unused_logical_locals_do_not_keep_the_loop_scalar(tmp_path: Path) -> None:
    """Issue 10 item 13: the widener prepared every phi, dead ones included,
    and failed with 'value <Cmp 1398...: i1> used before its definition'."""
    src = tmp_path / "k.c"
    src.write_text("""
void f(int n, const int *b, int *out) {
#pragma omp simd
  for (int i = 0; i < n; i++) {
    int v = b[i] && b[i + 1];
    int w = b[i] || b[i + 1];
    int z = b[i] ? b[i + 1] : 3;
    out[i] = b[i] * 2;
  }
}
""")
    for target in ("avx2", "avx512", "neon"):
        result = run(str(src), Options(targets=[target]))
        assert result.warnings == [], result.warnings
        assert len(result.loops) == 1
