"""DivergenceInfo API, printer, baseline comparison and refusal of irreducible CFGs."""

from __future__ import annotations

import pytest

from s2s.analysis.annotate import print_divergence
from s2s.analysis.divergence import compute_divergence, uniform_count
from s2s.analysis.naive import naive_divergence
from s2s.analysis.shapes import VectorShape as S
from s2s.diagnostics import Unsupported
from s2s.ir.builder import IRBuilder
from s2s.ir.parser import parse_function
from s2s.ir.types import F64, I64, ptr
from s2s.ir.values import Block, Constant, Function, Undef

LOOP = """
func @f(i64 %i, ptr<f64> %a, i64 %n) -> (f64) {
entry:
  %p = gep %a, %i
  %x = load %p
  %c = cmp lt %x, f64 0.0
  condbr %c, neg, done
neg:
  %y = neg %x
  br done
done:
  %z = phi f64 [%x, entry], [%y, neg]
  ret %z
}
"""


def blocks(fn):
    return {b.name: b for b in fn.blocks}


def values(fn):
    out = {a.name: a for a in fn.args}
    out.update({i.name: i for i in fn.instructions() if i.name})
    return out


def analyze(text, **shapes):
    fn = parse_function(text)
    args = {a: S.parse(shapes[a.name]) for a in fn.args if a.name in shapes}
    return fn, compute_divergence(fn, args)


def test_api_on_a_divergent_if():
    fn, info = analyze(LOOP, i="stride(1)", a="uni(a8)", n="uni")
    b, v = blocks(fn), values(fn)
    assert info.shape_of(v["p"]) == S.strided(8, 8)
    assert info.shape_of(v["x"]).is_varying
    assert info.is_divergent_branch(b["entry"]) and not info.is_divergent_branch(b["neg"])
    assert info.join_points(b["entry"]) == [b["done"]]
    assert info.join_points() == [b["done"]]
    assert info.is_join_point(b["done"])
    assert info.has_varying_activation(b["neg"]) and not info.has_varying_activation(b["done"])
    assert info.divergent_loops == []


def test_constants_and_undef_are_uniform():
    _, info = analyze(LOOP, i="stride(1)")
    assert info.shape_of(Constant(I64, 12)) == S.uniform(12)
    assert info.shape_of(Constant(I64, -4)) == S.uniform(4)
    assert info.shape_of(Constant(F64, 2.5)) == S.uniform()
    assert info.shape_of(Undef(I64)).is_uniform


def test_arguments_without_shape_are_varying():
    fn, info = analyze(LOOP)
    assert all(info.shape_of(a).is_varying for a in fn.args)


def test_printer_annotates_every_definition():
    fn, info = analyze(LOOP, i="stride(1)", a="uni(a8)", n="uni")
    text = print_divergence(fn, info)
    assert "%p = gep %a, %i  ; stride(8,a8)" in text
    assert "; divergent branch, joins: done" in text
    assert "; %n: uni" in text
    # the printer changes nothing
    assert print_divergence(fn, info) == text


def test_loop_summary_lines():
    fn, info = analyze("""
func @g(i32 %n) -> () {
A:
  br B
B:
  %x = phi i32 [i32 0, A], [%y, B]
  %y = add %x, i32 1
  %c = cmp lt %y, %n
  condbr %c, B, X
X:
  ret
}
""")
    text = print_divergence(fn, info)
    assert "; loop B: divergent, exits: X (divergent)" in text
    assert info.loop_is_divergent(blocks(fn)["B"])


def test_irreducible_control_is_refused():
    text = """
func @irr(i1 %c) -> () {
e:
  condbr %c, a, b
a:
  br b
b:
  condbr %c, a, x
x:
  ret
}
"""
    with pytest.raises(Unsupported) as exc:
        analyze(text, c="uni")
    assert "irreducible" in exc.value.message


def test_built_with_the_builder():
    fn = Function("k")
    i = fn.add_arg(I64, "i")
    a = fn.add_arg(ptr(F64), "a")
    entry = fn.add_block(Block("entry"))
    b = IRBuilder(entry)
    two = b.mul(i, IRBuilder.const(I64, 2), "x")
    p = b.gep(a, two, "p")
    b.ret([b.load(p, "v")])
    info = compute_divergence(fn, {i: S.strided(1, 4), a: S.uniform(32)})
    assert info.shape_of(two) == S.strided(2, 8)
    assert info.shape_of(p) == S.strided(16, 32)


def test_unreachable_code_stays_bottom():
    fn, info = analyze(
        """
func @u(i32 %x) -> (i32) {
entry:
  ret %x
dead:
  %y = add %x, i32 1
  ret %y
}
""",
        x="uni",
    )
    assert info.shape_of(values(fn)["y"]).is_bottom


def test_fixed_point_of_a_loop_carried_stride():
    fn, info = analyze(
        """
func @l(i64 %i, i64 %n) -> (i64) {
entry:
  br head
head:
  %k = phi i64 [%i, entry], [%k2, head]
  %k2 = add %k, i64 4
  %c = cmp lt %k2, %n
  condbr %c, head, out
out:
  %r = phi i64 [%k2, head]
  ret %r
}
""",
        i="stride(1,a4)",
        n="uni",
    )
    v = values(fn)
    assert info.shape_of(v["k"]) == S.strided(1, 4)
    assert info.shape_of(v["k2"]) == S.strided(1, 4)
    # k2 < n with k2 strided: divergent loop, r varying
    assert info.shape_of(v["r"]).is_varying


FIG_7_9C = """
func @fig7_9c(i1 %a, i1 %b, i1 %c) -> (i32) {
A:
  condbr %a, B, R1
B:
  condbr %b, R2, C
C:
  condbr %c, P0, P1
P0:
  br J
P1:
  br J
J:
  %x = phi i32 [i32 0, P0], [i32 1, P1]
  br R
R1:
  br R
R2:
  br R
R:
  %r = phi i32 [%x, J], [i32 5, R1], [i32 6, R2]
  ret %r
}
"""


def test_strictly_more_precise_than_the_naive_baseline():
    fn = parse_function(FIG_7_9C)
    args = {fn.args[0]: S.varying(), fn.args[1]: S.uniform(), fn.args[2]: S.uniform()}
    ours, naive = compute_divergence(fn, args), naive_divergence(fn, args)
    x = values(fn)["x"]
    assert ours.shape_of(x).is_uniform and not naive.shape_of(x).is_uniform
    assert uniform_count(ours) > uniform_count(naive)


def test_never_less_precise_than_the_naive_baseline():
    fn = parse_function(LOOP)
    args = {fn.args[0]: S.strided(1), fn.args[1]: S.uniform(), fn.args[2]: S.uniform()}
    ours, naive = compute_divergence(fn, args), naive_divergence(fn, args)
    for inst in fn.instructions():
        if naive.shape_of(inst).is_uniform:
            assert ours.shape_of(inst).is_uniform


def test_switch_on_a_varying_value_is_divergent():
    fn, info = analyze(
        """
func @s(i32 %v) -> (i32) {
entry:
  switch %v, d [1: a, 2: b]
a:
  br d
b:
  br d
d:
  %x = phi i32 [i32 0, entry], [i32 1, a], [i32 2, b]
  ret %x
}
""",
        v="var",
    )
    b = blocks(fn)
    assert info.is_divergent_branch(b["entry"])
    assert info.join_points(b["entry"]) == [b["d"]]


def test_branch_with_equal_targets_is_not_divergent():
    fn, info = analyze(
        """
func @e(i1 %v) -> () {
entry:
  condbr %v, d, d
d:
  ret
}
""",
        v="var",
    )
    assert not info.is_divergent_branch(blocks(fn)["entry"])


def test_known_call_shapes():
    fn = parse_function("""
func @c(i64 %i) -> (i64) {
entry:
  %r = call i64 @lin(%i)
  %s = call i64 @other(%i)
  ret %r
}
""")

    def call_shape(call, shapes):
        return S.strided(2) if call.callee == "lin" and shapes[0].is_strided else None

    info = compute_divergence(fn, {fn.args[0]: S.strided(1)}, call_shape=call_shape)
    v = values(fn)
    assert info.shape_of(v["r"]) == S.strided(2)
    assert info.shape_of(v["s"]).is_varying


def test_printer_names_memory_access_kinds():
    fn, info = analyze(LOOP, i="stride(1)", a="uni(a8)", n="uni")
    text = print_divergence(fn, info)
    assert "%x = load %p  ; var, contiguous" in text


WRAPS = """
func @f(i32 %i, u8 %j, u8 %k, i8 %s) -> () {
entry:
  %wide = add %i, i32 100
  %narrow = cast %wide to i8
  %back = cast %narrow to i32
  %zj = cast %j to i64
  %zk = cast %k to i64
  %ss = cast %s to i32
  %si = cast %i to i64
  ret
}
"""


def test_extensions_of_lanes_that_may_wrap_are_varying():
    """Issue 10 item 2: (signed char)(i + 100) and linear unsigned char
    variables wrap between lanes (C defines it); widening them is no longer
    strided (the lanes saw 128, 129 ... and a[256], a[257] ...), nor is the
    wrapped value itself (fuzz seed 20600081: signed lanes are read as
    ordered integers).  The loop
    variable and other parameters keep their strides."""
    fn = parse_function(WRAPS)
    args = {a.name: a for a in fn.args}
    args["j"].may_wrap = True
    args["s"].may_wrap = True
    shapes = {
        args["i"]: S.strided(1),
        args["j"]: S.strided(1),
        args["k"]: S.strided(1),
        args["s"]: S.strided(2),
    }
    div = compute_divergence(fn, shapes)
    v = values(fn)
    assert div.shape_of(v["narrow"]).stride is None  # lanes may wrap into signed i8
    assert div.shape_of(v["back"]).stride is None  # and so may their extension
    assert div.shape_of(v["zj"]).stride is None
    assert div.shape_of(v["ss"]).stride is None
    assert div.shape_of(v["zk"]) == S.strided(1)  # a parameter that never wraps
    assert div.shape_of(v["si"]) == S.strided(1)
