"""The verifier accepts sound IR and reports each kind of malformed IR."""

from __future__ import annotations

import pytest

from s2s.ir.builder import IRBuilder
from s2s.ir.parser import parse_function
from s2s.ir.types import F32, F64, I1, I32, I64, ptr
from s2s.ir.values import BinOp, Block, Br, Constant, Function, IRError, Load, Ret, Store
from s2s.ir.verifier import compute_idoms, dominates, verify

GOOD = """\
struct.s = { i32 a @0, [4 x f64] v @8 } size 40

func @good(i32 %n, ptr<f64> %a, ptr<struct.s> %s) -> (i32) {
entry:
  %va = fieldaddr %s, v
  br header
header:
  %i = phi i32 [i32 0, entry], [%next, latch]
  %c = cmp lt %i, %n
  condbr %c, body, exit
body:
  %ix = cast %i to i64
  %p = gep %a, %ix
  %x = load %p
  %neg = cmp lt %x, f64 0.0
  %y = neg %x
  store %y, %p mask %neg
  br latch
latch:
  %next = add %i, i32 1
  br header
exit:
  ret %i
dead:
  %z = phi i32 [%w, dead]
  %w = add %z, i32 1
  br dead
}
"""


def _problems(text: str) -> str:
    fn = parse_function(text)
    with pytest.raises(IRError) as info:
        verify(fn)
    return str(info.value)


def test_good_function_verifies() -> None:
    verify(parse_function(GOOD))


def test_unreachable_block_allowed() -> None:
    fn = parse_function(GOOD)
    assert fn.blocks[-1].name == "dead"
    verify(fn)


def test_dominators_of_diamond_and_loop() -> None:
    fn = parse_function(GOOD)
    entry, header, body, latch, exit_, dead = fn.blocks
    idom = compute_idoms(fn)
    assert idom[header] is entry and idom[body] is header and idom[latch] is body
    assert idom[exit_] is header and dead not in idom
    assert dominates(header, latch, idom) and not dominates(body, exit_, idom)


def test_missing_terminator() -> None:
    msg = _problems("func @f() -> () {\nentry:\n  %x = add i32 1, i32 2\n}")
    assert "block entry: block does not end with a terminator" in msg


def test_terminator_in_middle() -> None:
    fn = parse_function("func @f() -> () {\nentry:\n  ret\n}")
    entry = fn.blocks[0]
    entry.insert(0, Ret([]))
    with pytest.raises(IRError, match="terminator 'ret' in the middle of the block"):
        verify(fn)


def test_empty_block() -> None:
    fn = parse_function("func @f() -> () {\nentry:\n  ret\n}")
    fn.add_block(Block("empty"))
    with pytest.raises(IRError, match="block empty: empty block"):
        verify(fn)


def test_phi_after_non_phi() -> None:
    msg = _problems("""func @f(i32 %a) -> () {
entry:
  br b
b:
  %x = add %a, i32 1
  %p = phi i32 [%a, entry]
  ret
}""")
    assert "phi '%p = phi i32 [%a, entry]' after a non-phi" in msg


def test_phi_missing_and_extra_incoming() -> None:
    msg = _problems("""func @f(i1 %c, i32 %a) -> () {
entry:
  condbr %c, l, r
l:
  br j
r:
  br j
j:
  %p = phi i32 [%a, l], [%a, entry]
  ret
}""")
    assert "lacks an entry for predecessor(s) r" in msg
    assert "has entries for non-predecessor(s) entry" in msg


def test_phi_duplicate_entry_and_type() -> None:
    msg = _problems("""func @f(i32 %a, f64 %d) -> () {
entry:
  br j
j:
  %p = phi i32 [%a, entry], [%d, entry]
  ret
}""")
    assert "has 2 entries for entry" in msg
    assert "incoming value of type f64" in msg


@pytest.mark.parametrize(
    "body, expected",
    [
        ("%x = add %a, %d", "operand types differ"),  # parser catches this one
    ],
)
def test_parser_rejects_mixed_binop(body: str, expected: str) -> None:
    with pytest.raises(IRError, match=expected):
        parse_function(f"func @f(i32 %a, f64 %d) -> () {{\nentry:\n  {body}\n  ret\n}}")


def _single_block(build) -> Function:
    fn = Function("f")
    a = fn.add_arg(I32, "a")
    d = fn.add_arg(F64, "d")
    p = fn.add_arg(ptr(F64), "p")
    b = IRBuilder(fn.add_block(Block("entry")))
    build(b, a, d, p)
    if fn.entry.terminator is None:
        b.ret()
    return fn


@pytest.mark.parametrize(
    "build, expected",
    [
        (
            lambda b, a, d, p: b.insert(BinOp("add", a, d)),
            "operands of different types i32 and f64",
        ),
        (lambda b, a, d, p: b.cmp("lt", a, d), "compare of different types"),
        (lambda b, a, d, p: b.condbr(a, b.block, b.block), "branch condition of type i32"),
        (lambda b, a, d, p: b.store(a, p), "stores i32 through ptr<f64>"),
        (lambda b, a, d, p: b.select(a, d, d), "select condition of type i32"),
        (lambda b, a, d, p: b.select(b.cmp("eq", a, a), a, d), "select arms of types i32 and f64"),
        (lambda b, a, d, p: b.ret([a]), "returns (i32), function returns ()"),
        (lambda b, a, d, p: b.binop("shl", d, d), "'shl' on type f64"),
        (lambda b, a, d, p: b.unop("not", d), "'not' on type f64"),
        (lambda b, a, d, p: b.gep(p, d), "gep index of type f64"),
        (lambda b, a, d, p: b.switch(d, b.block), "switch on type f64"),
        (lambda b, a, d, p: b.load(p).set_mask(a), "mask of type i32, not i1"),
    ],
)
def test_type_errors(build, expected: str) -> None:
    fn = _single_block(build)
    with pytest.raises(IRError) as info:
        verify(fn)
    assert expected in str(info.value)


def test_load_result_type_mismatch() -> None:
    fn = _single_block(lambda b, a, d, p: b.load(p))
    load = fn.entry.instructions[0]
    assert isinstance(load, Load)
    load.type = F32
    with pytest.raises(IRError, match="load result type f32"):
        verify(fn)


def test_use_not_dominated() -> None:
    msg = _problems("""func @f(i1 %c) -> (i32) {
entry:
  condbr %c, l, j
l:
  %x = add i32 1, i32 2
  br j
j:
  %y = add %x, i32 1
  ret %y
}""")
    assert "definition of %x does not dominate this use" in msg


def test_use_before_definition_in_block() -> None:
    msg = _problems("""func @f() -> (i32) {
entry:
  %y = add %x, i32 1
  %x = add i32 1, i32 2
  ret %y
}""")
    assert "uses %x before its definition" in msg


def test_phi_use_checked_at_end_of_incoming_block() -> None:
    ok = """func @f(i1 %c) -> (i32) {
entry:
  condbr %c, l, j
l:
  %x = add i32 1, i32 2
  br j
j:
  %p = phi i32 [%x, l], [i32 0, entry]
  ret %p
}"""
    verify(parse_function(ok))
    bad = ok.replace("[i32 0, entry]", "[%x, entry]")
    assert "definition of %x does not dominate" in _problems(bad)


def test_use_of_value_from_unreachable_block() -> None:
    msg = _problems("""func @f() -> (i32) {
entry:
  ret %x
dead:
  %x = add i32 1, i32 2
  br dead
}""")
    assert "defined in an unreachable block" in msg


def test_foreign_argument_and_value() -> None:
    other = Function("g")
    foreign = other.add_arg(I32, "z")
    fn = _single_block(lambda b, a, d, p: b.add(a, foreign))
    with pytest.raises(IRError, match="uses an argument of another function"):
        verify(fn)
    detached = BinOp("add", Constant(I32, 1), Constant(I32, 2))
    fn2 = _single_block(lambda b, a, d, p: b.add(a, detached))
    with pytest.raises(IRError, match="uses a value not in the function"):
        verify(fn2)


def test_inconsistent_use_list() -> None:
    fn = _single_block(lambda b, a, d, p: b.add(a, a))
    fn.args[0].users.pop()
    with pytest.raises(IRError, match="use list of %a is inconsistent"):
        verify(fn)


def test_stale_user_reported() -> None:
    fn = _single_block(lambda b, a, d, p: b.add(a, a))
    add = fn.entry.instructions[0]
    fn.entry.instructions.remove(add)  # removed without dropping operands
    with pytest.raises(IRError, match="use list of %a is inconsistent"):
        verify(fn)


def test_wrong_instruction_block() -> None:
    fn = _single_block(lambda b, a, d, p: b.add(a, a))
    fn.entry.instructions[0].block = Block("elsewhere")
    with pytest.raises(IRError, match=r"wrong instruction\.block"):
        verify(fn)


def test_branch_outside_function() -> None:
    fn = Function("f")
    entry = fn.add_block(Block("entry"))
    entry.append(Br(Block("stray")))
    with pytest.raises(IRError, match="outside the function"):
        verify(fn)


def test_all_problems_listed() -> None:
    fn = _single_block(lambda b, a, d, p: (b.store(a, p), b.cmp("eq", a, d)))
    with pytest.raises(IRError) as info:
        verify(fn)
    lines = str(info.value).splitlines()
    assert lines[0] == "invalid IR in @f:"
    assert len(lines) == 3


def test_store_with_matching_type_and_i1_mask_ok() -> None:
    def build(b, a, d, p):
        c = b.cmp("gt", d, Constant(F64, 0.0))
        st = b.store(d, p)
        assert isinstance(st, Store)
        st.set_mask(c)

    verify(_single_block(build))
    assert I1 is not None and I64 is not None


def test_duplicate_switch_case() -> None:
    msg = _problems("""func @f(i32 %x) -> () {
entry:
  switch %x, a [1: a, 1: b]
a:
  ret
b:
  ret
}""")
    assert "duplicate case values" in msg


def test_phi_in_entry_block() -> None:
    msg = _problems("""func @f() -> () {
entry:
  %p = phi i32
  ret
}""")
    assert "block entry: phi in the entry block" in msg


def test_use_of_void_value() -> None:
    from s2s.ir.types import VOID

    def build(b, a, d, p):
        v = b.call("nothing", [], VOID)
        b.call("sink", [v], VOID)

    with pytest.raises(IRError, match="uses a value of type void"):
        verify(_single_block(build))
