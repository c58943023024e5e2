"""Loop canonicalization and LCSSA (s2s.transform.canonicalize)."""

from __future__ import annotations

import pytest

from s2s.analysis.cfg import cfg_of
from s2s.analysis.divergence import compute_divergence
from s2s.analysis.shapes import VectorShape as S
from s2s.diagnostics import Unsupported
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.values import Phi
from s2s.ir.verifier import verify
from s2s.transform.canonicalize import canonicalize

TWO_LATCHES_SHARED_EXIT = """
func @f(i32 %n, i1 %c) -> (i32) {
entry:
  br h
h:
  %x = phi i32 [i32 0, entry], [%y, b], [%y, b2]
  %y = add %x, i32 1
  %t = cmp lt %y, %n
  condbr %t, b, x
b:
  condbr %c, h, b2
b2:
  condbr %c, h, x
x:
  %r = add %y, %x
  ret %r
}
"""


def assert_canonical(fn):
    verify(fn)
    g = cfg_of(fn)
    assert all(g.reachable(b) for b in fn.blocks)
    assert not g.loops.loop_with_header(fn.entry)
    for lp in g.loops.loops:
        outside = [p for p in g.preds[lp.header] if p not in lp]
        assert len(outside) == 1 and outside[0].successors == [lp.header], lp.header.name
        assert len(lp.latches) == 1, lp.header.name
        for e in lp.exits:
            assert len(g.preds[e]) == 1, e.name
        for b in lp.blocks:
            for inst in b.instructions:
                for user in inst.users:
                    if isinstance(user, Phi):
                        for v, p in user.incoming():
                            if v is inst and p not in lp:
                                pytest.fail(f"{inst.name} leaves the loop without LCSSA")
                            if v is inst and user.block not in lp:
                                assert user.block in lp.exits
                    else:
                        assert user.block in lp, f"{inst.name} used outside its loop"


def test_single_latch_dedicated_exits_and_lcssa():
    fn = parse_function(TWO_LATCHES_SHARED_EXIT)
    result = canonicalize(fn)
    assert_canonical(fn)
    assert result.blocks_added == 3 and result.lcssa_phis == 4


def test_canonical_input_is_left_alone():
    text = """
func @g(i32 %n) -> (i32) {
entry:
  br h
h:
  %x = phi i32 [i32 0, entry], [%y, h]
  %y = add %x, i32 1
  %t = cmp lt %y, %n
  condbr %t, h, x
x:
  %r = phi i32 [%y, h]
  ret %r
}
"""
    fn = parse_function(text)
    before = print_function(fn)
    result = canonicalize(fn)
    assert print_function(fn) == before
    assert result.blocks_added == 0 and result.lcssa_phis == 0


def test_loop_header_at_entry_gets_a_preheader():
    fn = parse_function("""
func @e(i1 %c) -> () {
h:
  condbr %c, h, x
x:
  ret
}
""")
    canonicalize(fn)
    assert_canonical(fn)
    assert fn.entry.name == "h.preheader"


def test_header_with_two_outside_predecessors():
    fn = parse_function("""
func @p(i1 %c, i32 %a, i32 %b) -> (i32) {
entry:
  condbr %c, l, r
l:
  br h
r:
  br h
h:
  %x = phi i32 [%a, l], [%b, r], [%y, h]
  %y = add %x, i32 1
  %t = cmp lt %y, i32 10
  condbr %t, h, x
x:
  ret %y
}
""")
    canonicalize(fn)
    assert_canonical(fn)
    pre = next(b for b in fn.blocks if b.name == "h.preheader")
    assert len(pre.phis) == 1


def test_nested_loops_with_a_break_out_of_both():
    fn = parse_function("""
func @n(i32 %n, i1 %c) -> (i32) {
entry:
  br h1
h1:
  %i = phi i32 [i32 0, entry], [%i1, l1]
  br h2
h2:
  %j = phi i32 [i32 0, h1], [%j1, b2]
  %j1 = add %j, i32 1
  condbr %c, out, b2
b2:
  %t = cmp lt %j1, %n
  condbr %t, h2, l1
l1:
  %i1 = add %i, %j1
  %u = cmp lt %i1, %n
  condbr %u, h1, out
out:
  %r = phi i32 [%j1, h2], [%i1, l1]
  %s = add %r, %j1
  ret %s
}
""")
    canonicalize(fn)
    assert_canonical(fn)


def test_unreachable_blocks_are_removed():
    fn = parse_function("""
func @u(i32 %x) -> (i32) {
entry:
  br done
dead:
  %y = add %x, i32 1
  br done
done:
  %z = phi i32 [%x, entry], [%y, dead]
  ret %z
}
""")
    result = canonicalize(fn)
    assert result.blocks_removed == 1
    verify(fn)


def test_irreducible_control_is_refused():
    fn = parse_function("""
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
""")
    before = print_function(fn)
    with pytest.raises(Unsupported) as exc:
        canonicalize(fn)
    assert "irreducible" in exc.value.message
    assert print_function(fn) == before


def test_lcssa_makes_the_analysis_precise():
    text = """
func @t(i32 %n) -> (i32) {
A:
  br B
B:
  %x = phi i32 [i32 0, A], [%inc, B]
  %inc = add %x, i32 1
  %c = cmp lt %inc, %n
  condbr %c, B, X
X:
  %r = add %inc, i32 0
  ret %r
}
"""
    fn = parse_function(text)
    info = compute_divergence(fn, {fn.args[0]: S.varying()})
    inc = next(i for i in fn.instructions() if i.name == "inc")
    assert not info.shape_of(inc).is_uniform  # sound without LCSSA
    canonicalize(fn)
    info = compute_divergence(fn, {fn.args[0]: S.varying()})
    assert info.shape_of(inc).is_uniform
    r = next(i for i in fn.instructions() if i.name == "r")
    assert info.shape_of(r).is_varying


def test_lcssa_through_a_long_chain_of_joins():
    from s2s.ir.builder import IRBuilder
    from s2s.ir.types import I1, I64
    from s2s.ir.values import Block, Constant, Function

    fn = Function("deep")
    c, n = fn.add_arg(I1, "c"), fn.add_arg(I64, "n")
    b = IRBuilder(fn.add_block(Block("entry")))
    h, x = Block("h"), Block("x")
    fn.add_block(h)
    b.br(h)
    b.at_end(h)
    k = b.phi(I64, "k")
    k1 = b.add(k, Constant(I64, 1), "k1")
    fn.add_block(x)
    b.condbr(b.cmp("lt", k1, n, "t"), h, x)
    k.add_incoming(Constant(I64, 0), fn.entry)
    k.add_incoming(k1, h)
    b.at_end(x)
    for j in range(1200):  # deeper than Python's default recursion limit
        left, right, join = (
            fn.add_block(Block(f"l{j}")),
            fn.add_block(Block(f"r{j}")),
            fn.add_block(Block(f"m{j}")),
        )
        b.condbr(c, left, right)
        b.at_end(left)
        b.br(join)
        b.at_end(right)
        b.br(join)
        b.at_end(join)
    use = b.add(k1, Constant(I64, 2), "use")
    b.ret([])
    canonicalize(fn)
    verify(fn)
    lc = use.operands[0]
    assert isinstance(lc, Phi) and lc.parent.name.startswith("x")
