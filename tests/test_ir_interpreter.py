"""The IR interpreter: C semantics, memory checking, per-lane and predicated runs."""

from __future__ import annotations

import math
import struct

import pytest

from s2s.ir.interpreter import (
    UNDEF,
    InterpreterError,
    Memory,
    round_f32,
    run_lanes,
    run_predicated,
    run_scalar,
)
from s2s.ir.parser import parse_function
from s2s.ir.types import F32, F64, I32, I64, U8


def _run(text: str, *args: object, memory: Memory | None = None, **kw) -> list:
    return run_scalar(parse_function(text), list(args), memory or Memory(), **kw)


def _binop(op: str, t: str, a: object, b: object) -> int | float:
    text = f"""func @f({t} %a, {t} %b) -> ({t}) {{
entry:
  %r = {op} %a, %b
  ret %r
}}"""
    result = _run(text, a, b)[0]
    assert result is not UNDEF
    return result


# -- integer semantics -----------------------------------------------------------


@pytest.mark.parametrize(
    "op, t, a, b, want",
    [
        ("add", "i32", 2**31 - 1, 1, -(2**31)),  # wraps
        ("mul", "i32", 65536, 65536, 0),
        ("sub", "u8", 0, 1, 255),
        ("add", "i8", 127, 1, -128),
        ("div", "i32", -7, 2, -3),  # truncation toward zero
        ("rem", "i32", -7, 2, -1),
        ("div", "i32", 7, -2, -3),
        ("rem", "i32", 7, -2, 1),
        ("div", "u32", 2**32 - 7, 2, (2**32 - 7) // 2),  # unsigned
        ("rem", "u32", 2**32 - 1, 10, (2**32 - 1) % 10),
        ("div", "i32", -(2**31), -1, -(2**31)),  # wraps rather than trapping
        ("shr", "i32", -16, 2, -4),  # arithmetic
        ("shr", "u32", 2**32 - 16, 2, (2**32 - 16) >> 2),  # logical
        ("shl", "i32", 1, 31, -(2**31)),
        ("and", "i64", -1, 0xF0, 0xF0),
        ("xor", "u16", 0xFFFF, 0x0F0F, 0xF0F0),
        ("min", "i32", -3, 2, -3),
        ("max", "u32", 2**32 - 1, 2, 2**32 - 1),
    ],
)
def test_integer_ops(op: str, t: str, a: int, b: int, want: int) -> None:
    assert _binop(op, t, a, b) == want


def test_unsigned_compare_and_normalized_arguments() -> None:
    text = """func @f(u32 %a, u32 %b, i32 %c, i32 %d) -> (i1, i1) {
entry:
  %u = cmp lt %a, %b
  %s = cmp lt %c, %d
  ret %u, %s
}"""
    # -1 as u32 is 4294967295: not less than 1; as i32 it is.
    assert _run(text, -1, 1, -1, 1) == [0, 1]


def test_division_by_zero_traps() -> None:
    with pytest.raises(InterpreterError, match="division by zero"):
        _binop("div", "i32", 1, 0)
    with pytest.raises(InterpreterError, match="remainder by zero"):
        _binop("rem", "u64", 1, 0)


def test_shift_out_of_range_traps() -> None:
    with pytest.raises(InterpreterError, match="shift count 32"):
        _binop("shl", "i32", 1, 32)


def test_unops() -> None:
    text = """func @f(i32 %a, u8 %b, f64 %c) -> (i32, u8, f64, i32) {
entry:
  %n = neg %a
  %m = not %b
  %x = neg %c
  %y = not %a
  ret %n, %m, %x, %y
}"""
    n, m, x, y = _run(text, -(2**31), 0x0F, 0.0)
    assert (n, m, y) == (-(2**31), 0xF0, 2**31 - 1)
    assert x == 0.0 and math.copysign(1.0, x) == -1.0


# -- floats ------------------------------------------------------------------------


def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def test_f32_arithmetic_rounds_each_operation() -> None:
    text = """func @f(f32 %a, f32 %b) -> (f32) {
entry:
  %s = add %a, %b
  %t = mul %s, f32 3.0
  ret %t
}"""
    a, b = _f32(0.1), _f32(0.2)
    assert _run(text, 0.1, 0.2)[0] == _f32(_f32(a + b) * 3.0)
    assert _run(text, 0.1, 0.2)[0] != (0.1 + 0.2) * 3.0


def test_f32_overflow_rounds_to_infinity() -> None:
    assert round_f32(1e39) == math.inf and round_f32(-1e39) == -math.inf
    assert round_f32(3.4028235e38) == 3.4028234663852886e38


def test_float_division_and_compares() -> None:
    assert _binop("div", "f64", 1.0, 0.0) == math.inf
    assert _binop("div", "f64", -1.0, 0.0) == -math.inf
    assert math.isnan(_binop("div", "f64", 0.0, 0.0))
    text = """func @f(f64 %a, f64 %b) -> (i1, i1, i1, i1) {
entry:
  %eq = cmp eq %a, %b
  %ne = cmp ne %a, %b
  %lt = cmp lt %a, %b
  %ge = cmp ge %a, %b
  ret %eq, %ne, %lt, %ge
}"""
    assert _run(text, math.nan, 1.0) == [0, 1, 0, 0]  # ordered except ne
    assert _run(text, 1.0, 1.0) == [1, 0, 0, 1]


def test_float_min_max_are_fmin_fmax() -> None:
    assert _binop("min", "f64", math.nan, 2.0) == 2.0
    assert _binop("max", "f64", 1.0, math.nan) == 1.0
    assert _binop("min", "f32", -1.0, 2.0) == -1.0


@pytest.mark.parametrize(
    "src, dst, value, want",
    [
        ("f64", "i32", -2.9, -2),  # truncation
        ("f64", "u8", 255.9, 255),
        ("i32", "u8", -1, 255),
        ("u8", "i32", 200, 200),
        ("i8", "u32", -1, 2**32 - 1),  # sign extension, then wrap
        ("i32", "i1", 4, 1),  # C _Bool conversion
        ("f64", "i1", 0.5, 1),
        ("f64", "f32", 0.1, _f32(0.1)),
        ("i64", "f32", 2**60 + 2**36 + 1, float(2**60 + 2**37)),  # one correct rounding
        ("i64", "f64", 2**53 + 1, 9007199254740992.0),
        ("u32", "f64", 2**32 - 1, 4294967295.0),
    ],
)
def test_casts(src: str, dst: str, value: object, want: object) -> None:
    text = f"""func @f({src} %a) -> ({dst}) {{
entry:
  %r = cast %a to {dst}
  ret %r
}}"""
    assert _run(text, value) == [want]


def test_int_to_f32_rounds_once() -> None:
    # Just above the halfway point between two floats: rounding to double
    # first would land exactly on the halfway point and then round to even.
    v = 2**60 + 2**36 + 1
    got = _run("func @f(i64 %a) -> (f32) {\nentry:\n  %r = cast %a to f32\n  ret %r\n}", v)[0]
    assert got == float(2**60 + 2**37)


def test_float_to_int_out_of_range_traps() -> None:
    text = "func @f(f64 %a) -> (i32) {\nentry:\n  %r = cast %a to i32\n  ret %r\n}"
    with pytest.raises(InterpreterError, match="out of range"):
        _run(text, 3e9)
    with pytest.raises(InterpreterError, match="conversion of nan"):
        _run(text, math.nan)


def test_pointer_int_casts_and_gep_scaling() -> None:
    text = """struct.p = { i32 a @0, f64 b @8 } size 16

func @f(ptr<struct.p> %s, i64 %i) -> (i64, i64, i64) {
entry:
  %e = gep %s, %i
  %b = fieldaddr %e, b
  %x = cast %s to i64
  %y = cast %b to i64
  %d = sub %y, %x
  %q = cast %d to ptr<i8>
  %z = cast %q to i64
  ret %d, %z, %x
}"""
    mem = Memory()
    base = mem.alloc(64)
    assert _run(text, base, 3, memory=mem) == [3 * 16 + 8, 56, base]


# -- calls ---------------------------------------------------------------------------


def test_math_calls() -> None:
    text = """func @f(f64 %x, f32 %y) -> (f64, f32, f64, f64, f64, f64) {
entry:
  %a = call f64 @sqrt(%x) pure
  %b = call f32 @sqrtf(%y) pure
  %c = call f64 @pow(%x, f64 0.5) pure
  %d = call f64 @round(f64 -2.5) pure
  %e = call f64 @fma(f64 0.1, f64 10.0, f64 -1.0) pure
  %g = call f64 @log(f64 0.0) pure
  ret %a, %b, %c, %d, %e, %g
}"""
    a, b, c, d, e, g = _run(text, 2.0, 2.0)
    assert a == math.sqrt(2.0) and b == _f32(math.sqrt(2.0)) and c == math.sqrt(2.0)
    assert d == -3.0 and g == -math.inf
    assert e == 5.551115123125783e-17  # single rounding of 0.1*10-1
    nan = _run("func @f(f64 %x) -> (f64) {\nentry:\n  %r = call f64 @sqrt(%x)\n  ret %r\n}", -1.0)
    assert math.isnan(nan[0])


def test_external_calls_and_unknown_function() -> None:
    text = """func @f(i32 %x) -> (i32) {
entry:
  %r = call i32 @twice(%x)
  call void @log_it(%r)
  ret %r
}"""
    seen: list = []
    got = _run(text, 21, externals={"twice": lambda v: 2 * v, "log_it": seen.append})
    assert got == [42] and seen == [42]
    with pytest.raises(InterpreterError, match="unknown function @twice"):
        _run(text, 1)


# -- control flow --------------------------------------------------------------------


SUM_LOOP = """func @sum(ptr<f64> %a, i64 %n) -> (f64) {
entry:
  br header
header:
  %i = phi i64 [i64 0, entry], [%next, body]
  %acc = phi f64 [f64 0.0, entry], [%acc2, body]
  %c = cmp lt %i, %n
  condbr %c, body, exit
body:
  %p = gep %a, %i
  %x = load %p
  %acc2 = add %acc, %x
  %next = add %i, i64 1
  br header
exit:
  ret %acc
}"""


def test_loop_with_phis_and_memory() -> None:
    mem = Memory()
    a = mem.alloc_array(F64, [1.0, 2.0, 3.5, 4.0])
    assert _run(SUM_LOOP, a, 4, memory=mem) == [10.5]
    assert _run(SUM_LOOP, a, 0, memory=mem) == [0.0]


def test_phis_read_simultaneously() -> None:
    swap = """func @swap(i32 %n) -> (i32, i32) {
entry:
  br loop
loop:
  %a = phi i32 [i32 1, entry], [%b, loop]
  %b = phi i32 [i32 2, entry], [%a, loop]
  %i = phi i32 [i32 0, entry], [%i1, loop]
  %i1 = add %i, i32 1
  %c = cmp lt %i1, %n
  condbr %c, loop, exit
exit:
  ret %a, %b
}"""
    assert _run(swap, 1) == [1, 2]
    assert _run(swap, 2) == [2, 1]
    assert _run(swap, 3) == [1, 2]


def test_switch() -> None:
    text = """func @f(i32 %x) -> (i32) {
entry:
  switch %x, other [1: one, -2: two]
one:
  ret i32 10
two:
  ret i32 20
other:
  ret i32 30
}"""
    assert [_run(text, v)[0] for v in (1, -2, 5)] == [10, 20, 30]


def test_step_limit_stops_infinite_loop() -> None:
    text = "func @f() -> () {\nentry:\n  br entry2\nentry2:\n  br entry2\n}"
    with pytest.raises(InterpreterError, match="step limit of 1000"):
        _run(text, step_limit=1000)


# -- memory --------------------------------------------------------------------------


def test_memory_typed_round_trip_and_bounds() -> None:
    mem = Memory()
    a = mem.alloc_array(I32, [1, -2, 3])
    assert mem.read_array(a, I32, 3) == [1, -2, 3]
    mem.store(a, U8, 511)  # wraps to 255
    assert mem.load(a, U8) == 255
    with pytest.raises(InterpreterError, match="out-of-bounds access of 4 bytes"):
        mem.load(a + 12, I32)
    with pytest.raises(InterpreterError, match="out-of-bounds"):
        mem.load(a - 4, I32)
    with pytest.raises(InterpreterError, match="out-of-bounds"):
        mem.load(a + 10, I32)  # straddles the end
    with pytest.raises(InterpreterError, match="before any object"):
        mem.load(0, I64)
    f = mem.alloc_array(F32, [0.1])
    assert mem.load(f, F32) == _f32(0.1)


def test_out_of_bounds_store_in_program() -> None:
    text = """func @f(ptr<i32> %a, i64 %i) -> () {
entry:
  %p = gep %a, %i
  store i32 7, %p
  ret
}"""
    mem = Memory()
    a = mem.alloc_array(I32, [0, 0])
    _run(text, a, 1, memory=mem)
    assert mem.read_array(a, I32, 2) == [0, 7]
    with pytest.raises(InterpreterError, match="out-of-bounds"):
        _run(text, a, 2, memory=mem)


def test_masked_store_does_not_touch_memory() -> None:
    text = """func @f(ptr<i32> %a, i64 %i, i1 %m) -> () {
entry:
  %p = gep %a, %i
  store i32 7, %p mask %m
  %x = load %p mask %m
  ret
}"""
    mem = Memory()
    a = mem.alloc_array(I32, [0, 0])
    _run(text, a, 1000, 0, memory=mem)  # far out of bounds, but masked off
    with pytest.raises(InterpreterError, match="out-of-bounds"):
        _run(text, a, 1000, 1, memory=mem)


def test_alloca_fresh_per_execution_and_freed() -> None:
    text = """func @f(i32 %v) -> (i32, ptr<i32>) {
entry:
  %s = alloca [2 x i32]
  %p = cast %s to ptr<i32>
  %q = gep %p, i64 1
  store %v, %q
  %r = load %q
  ret %r, %p
}"""
    mem = Memory()
    (r1, p1), (r2, p2) = run_lanes(parse_function(text), [[5], [6]], mem)
    assert (r1, r2) == (5, 6) and p1 != p2
    with pytest.raises(InterpreterError, match="freed"):
        mem.load(p1, I32)


def test_undefined_values() -> None:
    text = """func @f(i1 %c) -> (i32) {
entry:
  %u = add undef i32, i32 1
  %z = and %u, i32 0
  %s = select %c, %z, %u
  ret %s
}"""
    assert _run(text, 1) == [0]
    assert _run(text, 0) == [UNDEF]
    with pytest.raises(InterpreterError, match="branch condition is undefined"):
        _run("func @f() -> () {\nentry:\n  condbr undef i1, a, a\na:\n  ret\n}")
    with pytest.raises(InterpreterError, match="stored value is undefined"):
        mem = Memory()
        _run(
            "func @f(ptr<i32> %p) -> () {\nentry:\n  store undef i32, %p\n  ret\n}",
            mem.alloc(4),
            memory=mem,
        )


# -- lanes and predicated mode ------------------------------------------------------


BRANCHY = """func @f(ptr<f64> %a, i64 %i) -> (f64) {
entry:
  %p = gep %a, %i
  %x = load %p
  %c = cmp lt %x, f64 0.0
  condbr %c, neg, done
neg:
  %y = neg %x
  store %y, %p
  br done
done:
  %z = phi f64 [%x, entry], [%y, neg]
  ret %z
}"""

# BRANCHY after if-conversion: the store carries the branch condition as mask.
LINEARIZED = """func @f(ptr<f64> %a, i64 %i) -> (f64) {
entry:
  %p = gep %a, %i
  %x = load %p
  %c = cmp lt %x, f64 0.0
  %y = neg %x
  store %y, %p mask %c
  %z = select %c, %y, %x
  ret %z
}"""


def test_predicated_equals_per_lane_on_branch_free_function() -> None:
    data = [1.0, -2.0, 3.0, -4.5, 0.0, -0.25, 7.0, -8.0]
    lanes = 8

    def fresh() -> tuple[Memory, int]:
        mem = Memory()
        return mem, mem.alloc_array(F64, data)

    m1, a1 = fresh()
    scalar = run_lanes(parse_function(BRANCHY), [[a1, k] for k in range(lanes)], m1)
    m2, a2 = fresh()
    pred = run_predicated(parse_function(LINEARIZED), [[a2, k] for k in range(lanes)], m2)
    assert scalar == pred == [[abs(v)] for v in data]
    assert m1.read_array(a1, F64, lanes) == m2.read_array(a2, F64, lanes)
    assert m1.snapshot() == m2.snapshot()


def test_predicated_masked_store_skips_inactive_lanes_memory() -> None:
    # Lanes 0..3; only lane 1 may store, lanes 2 and 3 address out of bounds.
    text = """func @f(ptr<i32> %a, i64 %i, i1 %m) -> (i32) {
entry:
  %p = gep %a, %i
  store i32 9, %p mask %m
  %x = load %p mask %m
  ret %x
}"""
    mem = Memory()
    a = mem.alloc_array(I32, [0, 0])
    fn = parse_function(text)
    got = run_predicated(fn, [[a, 0, 0], [a, 1, 1], [a, 50, 0], [a, -50, 0]], mem)
    assert got == [[UNDEF], [9], [UNDEF], [UNDEF]]
    assert mem.read_array(a, I32, 2) == [0, 9]
    with pytest.raises(InterpreterError, match="out-of-bounds"):
        run_predicated(fn, [[a, 0, 1], [a, 50, 1]], mem)


def test_predicated_unmasked_load_of_inactive_lane_is_caught() -> None:
    """Forgetting the mask on a guarded load is exactly the bug to catch."""
    text = """func @f(ptr<i32> %a, i64 %i) -> (i32) {
entry:
  %ok = cmp lt %i, i64 2
  %p = gep %a, %i
  %x = load %p
  %r = select %ok, %x, i32 0
  ret %r
}"""
    mem = Memory()
    a = mem.alloc_array(I32, [4, 5])
    fn = parse_function(text)
    assert run_predicated(fn, [[a, 0], [a, 1]], mem) == [[4], [5]]
    with pytest.raises(InterpreterError, match="out-of-bounds"):
        run_predicated(fn, [[a, 0], [a, 100]], mem)


def test_predicated_divergent_branch_rejected_uniform_branch_taken() -> None:
    mem = Memory()
    a = mem.alloc_array(F64, [1.0, -1.0])
    fn = parse_function(BRANCHY)
    with pytest.raises(InterpreterError, match="divergent branch in predicated mode"):
        run_predicated(fn, [[a, 0], [a, 1]], mem)
    b = mem.alloc_array(F64, [-1.0, -2.0])
    assert run_predicated(fn, [[b, 0], [b, 1]], mem) == [[1.0], [2.0]]


def test_predicated_uniform_loop_with_any() -> None:
    """A divergent loop made uniform: run while any lane is live (s2s.any)."""
    text = """func @f(i32 %n) -> (i32) {
entry:
  br loop
loop:
  %i = phi i32 [i32 0, entry], [%i1, loop]
  %live = phi i1 [i1 1, entry], [%live2, loop]
  %acc = phi i32 [i32 0, entry], [%acc2, loop]
  %i1 = add %i, i32 1
  %add = add %acc, %i
  %acc2 = select %live, %add, %acc
  %more = cmp lt %i1, %n
  %live2 = and %live, %more
  %go = call i1 @s2s.any(%live2)
  condbr %go, loop, exit
exit:
  ret %acc2
}"""
    fn = parse_function(text)
    ns = [0, 1, 3, 5]
    per_lane = run_lanes(fn, [[n] for n in ns], Memory())
    pred = run_predicated(fn, [[n] for n in ns], Memory())
    assert pred == [[sum(range(max(n, 1)))] for n in ns]
    assert per_lane == pred


def test_popcount_counts_the_active_lanes_that_are_set() -> None:
    """s2s.popcount: how many active lanes hold a true value (uniform); one
    lane alone counts itself."""
    text = """func @f(i32 %x) -> (i32) {
entry:
  %odd = and %x, i32 1
  %set = cmp ne %odd, i32 0
  %small = cmp lt %x, i32 6
  br split
split:
  condbr %small, counted, done
counted:
  %n = call i32 @s2s.popcount(%set)
  br done
done:
  %r = phi i32 [%n, counted], [i32 -1, split]
  ret %r
}"""
    fn = parse_function(text)
    xs = [[x] for x in (1, 2, 3, 7, 5, 9)]
    # lanes 1, 3, 7, 5, 9 odd; active (x < 6): 1, 2, 3, 5 -> 3 set
    assert run_lanes(fn, xs, Memory()) == [[1], [0], [1], [-1], [1], [-1]]
    linear = """func @g(i32 %x) -> (i32) {
entry:
  %odd = and %x, i32 1
  %set = cmp ne %odd, i32 0
  %small = cmp lt %x, i32 6
  %n = call i32 @s2s.popcount(%set) mask %small
  %r = select %small, %n, i32 -1
  ret %r
}"""
    assert run_predicated(parse_function(linear), xs, Memory()) == [
        [3],
        [3],
        [3],
        [-1],
        [3],
        [-1],
    ]


def test_predicated_trap_on_inactive_lane_is_undefined_not_fatal() -> None:
    text = """func @f(i32 %a, i32 %b) -> (i32) {
entry:
  %nz = cmp ne %b, i32 0
  %q = div %a, %b
  %r = select %nz, %q, i32 -1
  ret %r
}"""
    fn = parse_function(text)
    assert run_predicated(fn, [[7, 2], [7, 0]], Memory()) == [[3], [-1]]
    with pytest.raises(InterpreterError, match="division by zero"):
        run_lanes(
            parse_function(text.replace("%q = div %a, %b", "%q = div %a, i32 0")),
            [[7, 2]],
            Memory(),
        )


def test_predicated_masked_call_only_on_active_lanes() -> None:
    text = """func @f(i32 %x) -> () {
entry:
  %m = cmp gt %x, i32 0
  call void @sink(%x) mask %m
  ret
}"""
    seen: list = []
    run_predicated(
        parse_function(text), [[1], [-1], [3], [0]], Memory(), externals={"sink": seen.append}
    )
    assert seen == [1, 3]


def test_lane_results_are_lists_per_lane() -> None:
    text = """func @f(i32 %x, f32 %y) -> (i32, f32) {
entry:
  %a = mul %x, i32 3
  %b = mul %y, f32 0.5
  ret %a, %b
}"""
    fn = parse_function(text)
    args = [[k, float(k)] for k in range(4)]
    assert (
        run_lanes(fn, args, Memory())
        == run_predicated(fn, args, Memory())
        == [[3 * k, k * 0.5] for k in range(4)]
    )
    assert I32 and F32 and I64
