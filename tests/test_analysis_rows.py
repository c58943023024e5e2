"""Row groups (s2s.analysis.rows) on small IR functions."""

from __future__ import annotations

from s2s.analysis.divergence import compute_divergence
from s2s.analysis.memory import memory_shapes
from s2s.analysis.rows import compute_row_groups, print_row_groups
from s2s.analysis.shapes import VectorShape
from s2s.ir.parser import parse_function


def rows_of(text: str) -> str:
    """The row groups of a loop body whose first parameter is the loop
    variable (stride 1), the others uniform."""
    fn = parse_function(text)
    shapes = {a: VectorShape.uniform() for a in fn.args[1:]}
    shapes[fn.args[0]] = VectorShape.strided(1)
    div = compute_divergence(fn, shapes)
    return print_row_groups(compute_row_groups(fn, div, memory_shapes(fn, div)))


def loads(offsets: list[int], between: str = "") -> str:
    """Loads of t[lo + offset] (lo a gathered index), each in a block of
    its own joined by jumps, ``between`` after the first one."""
    body = []
    for k, off in enumerate(offsets):
        body.append(f"b{k}:\n  %p{k} = gep %base, i64 {off}\n  %x{k} = load %p{k}")
        if k == 0 and between:
            body.append(between)
        body.append(f"  br b{k + 1}")
    return f"""
func @f(i64 %i, ptr<i64> %idx, ptr<f64> %t, ptr<f64> %out) -> () {{
entry:
  %pi = gep %idx, %i
  %lo = load %pi
  %base = gep %t, %lo
  br b0
{chr(10).join(body)}
b{len(offsets)}:
  %po = gep %out, %i
  store %x0, %po
  ret
}}
"""


def test_loads_of_one_row_across_a_straight_run_of_blocks_are_one_group() -> None:
    assert rows_of(loads([2, 0, 1, 3])) == "rows %t[%lo] + 0 f64 x4 [2:%x0 0:%x1 1:%x2 3:%x3]"


def test_a_long_row_is_cut_into_chunks_as_equal_as_possible() -> None:
    got = rows_of(loads(list(range(10))))
    assert got.split("\n") == [
        "rows %t[%lo] + 0 f64 x5 [0:%x0 1:%x1 2:%x2 3:%x3 4:%x4]",
        "rows %t[%lo] + 5 f64 x5 [0:%x5 1:%x6 2:%x7 3:%x8 4:%x9]",
    ]


def test_a_row_touched_at_less_than_half_its_elements_stays_gathers() -> None:
    assert rows_of(loads([0, 5])) == ""
    assert rows_of(loads([0, 1, 6])) == ""  # 3 of 7
    assert rows_of(loads([0, 1, 4])) == "rows %t[%lo] + 0 f64 x5 [0:%x0 1:%x1 4:%x2]"
    assert rows_of(loads([0, 2, 3])) == "rows %t[%lo] + 0 f64 x4 [0:%x0 2:%x1 3:%x2]"


def test_a_write_between_the_loads_ends_the_group() -> None:
    store = "  store f64 1.0, %out"
    assert rows_of(loads([0, 1, 2], between=store)) == "rows %t[%lo] + 1 f64 x2 [0:%x1 1:%x2]"
    call = "  call void @effect()"
    assert rows_of(loads([0, 1, 2], between=call)) == "rows %t[%lo] + 1 f64 x2 [0:%x1 1:%x2]"
    pure = "  %y = call f64 @sin(f64 1.0) pure"
    assert rows_of(loads([0, 1, 2], between=pure)) == "rows %t[%lo] + 0 f64 x3 [0:%x0 1:%x1 2:%x2]"


BRANCHY = """
func @f(i64 %i, ptr<i64> %idx, ptr<f64> %t, ptr<f64> %out, i1 %u) -> () {
entry:
  %pi = gep %idx, %i
  %lo = load %pi
  %p0 = gep %t, %lo
  %x0 = load %p0
  condbr %u, then, join
then:
  %lo1 = add %lo, i64 1
  %p1 = gep %t, %lo1
  %x1 = load %p1
  %po = gep %out, %i
  store %x1, %po
  br join
join:
  %lo2 = sub %lo, i64 -2
  %p2 = gep %t, %lo2
  %x2 = load %p2
  %lo3 = add i64 3, %lo
  %p3 = gep %t, %lo3
  %x3 = load %p3
  %s = add %x0, %x2
  %s3 = add %s, %x3
  %pp = gep %out, %i
  store %s3, %pp
  ret
}
"""


def test_loads_a_branch_separates_are_not_grouped() -> None:
    """A load behind a (uniform) branch may not run when the first does,
    and the join has two predecessors: only join's two loads, whose
    indices ``lo - -2`` and ``3 + lo`` are ``lo`` plus constants, group."""
    assert rows_of(BRANCHY) == "rows %t[%lo] + 2 f64 x2 [0:%x2 1:%x3]"


WIDENED = """
func @f(i64 %i, ptr<i32> %idx, ptr<u32> %uidx, ptr<f64> %t, ptr<f64> %out) -> () {
entry:
  %pi = gep %idx, %i
  %r = load %pi
  %r0 = cast %r to i64
  %p0 = gep %t, %r0
  %x0 = load %p0
  %r1 = add %r, i32 1
  %r1w = cast %r1 to i64
  %p1 = gep %t, %r1w
  %x1 = load %p1
  %pu = gep %uidx, %i
  %u = load %pu
  %u0 = cast %u to i64
  %q0 = gep %t, %u0
  %y0 = load %q0
  %u1 = add %u, u32 1
  %u1w = cast %u1 to i64
  %q1 = gep %t, %u1w
  %y1 = load %q1
  %s = add %x0, %x1
  %s2 = add %s, %y0
  %s3 = add %s2, %y1
  %po = gep %out, %i
  store %s3, %po
  ret
}
"""


def test_a_signed_index_plus_a_constant_widened_is_the_index_widened_plus_it() -> None:
    """``t[(long)(r + 1)]`` is ``t[(long)r + 1]`` for a signed ``r`` (its
    overflow is undefined), not for an unsigned one (``u + 1`` may wrap to
    0): only the signed pair is a row."""
    assert rows_of(WIDENED) == "rows %t[(i64)%r] + 0 f64 x2 [0:%x0 1:%x1]"
