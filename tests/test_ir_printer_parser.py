"""Printer and parser of the textual IR: round trips, naming, errors."""

from __future__ import annotations

import math

import pytest

from s2s.ir.builder import IRBuilder
from s2s.ir.parser import parse_function, parse_module
from s2s.ir.printer import print_function, print_module
from s2s.ir.types import (
    F32,
    F64,
    I1,
    I32,
    I64,
    U32,
    ArrayType,
    PtrType,
    StructField,
    StructType,
    Type,
    ptr,
)
from s2s.ir.values import (
    BinOp,
    Block,
    Call,
    Cast,
    Constant,
    FieldAddr,
    Function,
    IRError,
    Load,
    Phi,
    Store,
    Switch,
    Undef,
    Value,
)


def _pointee(t: Type) -> Type:
    assert isinstance(t, PtrType), t
    return t.pointee


def _constant(v: Value) -> int | float:
    assert isinstance(v, Constant), v
    return v.value


KERNEL = """\
; comment at the top
struct.vec3 = { f64 x @0, f64 y @8, f64 z @16 } size 24

func @kernel(i64 %i, ptr<f64> %a, f64 %s, ptr<struct.vec3> %v) -> (f64) {
entry:
  %p = gep %a, %i
  %x = load %p
  %c = cmp lt %x, f64 0.0
  condbr %c, neg, done
neg:
  %y = neg %x
  %q = fieldaddr %v, y              ; %v : ptr<struct.vec3>
  store %y, %q mask %c              ; optional trailing mask
  %r = call f64 @sqrt(%y) pure
  %m = alloca [16 x i32]
  %t = cast %x to i32
  %u = select %c, %x, %y
  br done
done:
  %z = phi f64 [%x, entry], [%y, neg]
  %k = cast %z to i32
  switch %k, out [1: b1, 2: b2]
b1:
  br out
b2:
  br out
out:
  ret %z
}
"""

EVERY_INSTRUCTION = """\
struct.node = { i32 key @0, ptr<struct.node> next @8, [4 x f32] w @16 } size 32

func @all(i32 %a, u32 %b, f32 %f, ptr<struct.node> %n, ptr<f64> %p) -> (i32, f32) {
entry:
  %add = add %a, i32 1
  %sub = sub %add, %a
  %mul = mul %sub, i32 -3
  %div = div %mul, i32 7
  %rem = rem %div, i32 5
  %and = and %rem, i32 255
  %or = or %and, i32 0x10
  %xor = xor %or, %a
  %shl = shl %xor, i32 2
  %shr = shr %shl, i32 1
  %min = min %shr, %a
  %max = max %min, i32 0
  %ushr = shr %b, u32 3
  %udiv = div %ushr, u32 3
  %neg = neg %max
  %not = not %neg
  %fneg = neg %f
  %fadd = add %fneg, f32 1.5
  %eq = cmp eq %a, i32 0
  %ne = cmp ne %f, f32 nan
  %lt = cmp lt %b, u32 4294967295
  %le = cmp le %f, f32 inf
  %gt = cmp gt %f, f32 -inf
  %ge = cmp ge %a, %max
  %conv = cast %a to f64
  %trunc = cast %conv to i16
  %sel = select %eq, %a, %max
  %key = fieldaddr %n, key
  %w = fieldaddr %n, w
  %next = fieldaddr %n, next
  %nn = load %next
  %k = load %key
  %w2 = gep %w, i64 2
  %wv = load %w2
  store %fadd, %w2 mask %lt
  %buf = alloca [8 x f64]
  %bufp = cast %buf to ptr<f64>
  %sq = call f64 @sqrt(%conv) pure
  call void @use(%sq, undef i32, null ptr<f64>, f64 -0.0, f64 1e-300)
  %h = call f32 @g(%wv) mask %gt
  condbr %ne, loop, exit
loop:
  %i = phi i32 [i32 0, entry], [%inext, loop]
  %inext = add %i, i32 1
  %done = cmp ge %inext, %k
  condbr %done, exit, loop
exit:
  %res = phi i32 [%sel, entry], [%inext, loop]
  ret %res, %wv
}
"""

LOOP_WITH_FORWARD_USE = """\
func @fwd(i32 %n) -> (i32) {
entry:
  br header
latch:
  %next = add %i, i32 1
  br header
header:
  %i = phi i32 [i32 0, entry], [%next, latch]
  %c = cmp lt %i, %n
  condbr %c, latch, exit
exit:
  ret %i
}
"""

MULTI = KERNEL + "\n" + LOOP_WITH_FORWARD_USE


def _round_trip(text: str) -> str:
    once = print_module(parse_module(text))
    twice = print_module(parse_module(once))
    assert once == twice
    return once


@pytest.mark.parametrize("text", [KERNEL, EVERY_INSTRUCTION, LOOP_WITH_FORWARD_USE, MULTI])
def test_round_trip(text: str) -> None:
    _round_trip(text)


def test_printed_text_matches_input_modulo_comments() -> None:
    printed = print_function(parse_function(LOOP_WITH_FORWARD_USE))
    assert printed == LOOP_WITH_FORWARD_USE


def test_parsed_structure() -> None:
    fn = parse_function(KERNEL)
    assert [b.name for b in fn.blocks] == ["entry", "neg", "done", "b1", "b2", "out"]
    assert [str(a.type) for a in fn.args] == ["i64", "ptr<f64>", "f64", "ptr<struct.vec3>"]
    neg = fn.blocks[1]
    q = neg.instructions[1]
    assert isinstance(q, FieldAddr) and q.type == ptr(F64) and q.offset == 8
    store = neg.instructions[2]
    assert isinstance(store, Store) and store.mask is fn.blocks[0].instructions[2]
    call = neg.instructions[3]
    assert isinstance(call, Call) and call.pure and call.callee == "sqrt"
    phi = fn.blocks[2].instructions[0]
    assert isinstance(phi, Phi)
    assert phi.incoming_blocks == [fn.blocks[0], fn.blocks[1]]
    switch = fn.blocks[2].terminator
    assert isinstance(switch, Switch)
    assert [(k, b.name) for k, b in switch.cases] == [(1, "b1"), (2, "b2")]
    assert switch.default is fn.blocks[5]


def test_use_lists_after_forward_references() -> None:
    fn = parse_function(LOOP_WITH_FORWARD_USE)
    latch, header = fn.blocks[1], fn.blocks[2]
    phi, nxt = header.instructions[0], latch.instructions[0]
    assert nxt.operands[0] is phi and phi.operands[1] is nxt
    assert nxt in phi.users and phi in nxt.users
    from s2s.ir.values import Argument, Instruction

    assert all(
        isinstance(o, (Constant, Argument)) or (isinstance(o, Instruction) and o.block is not None)
        for i in fn.instructions()
        for o in i.operands
    )


def test_result_types() -> None:
    fn = parse_function(EVERY_INSTRUCTION)
    by_name = {i.name: i for i in fn.instructions() if i.name}
    assert by_name["ushr"].type == U32
    assert by_name["eq"].type == I1
    assert by_name["trunc"].type.size == 2
    assert by_name["w"].type == ptr(F32)  # array field decays
    assert by_name["next"].type == ptr(ptr(_pointee(by_name["next"].operands[0].type)))
    assert by_name["nn"].type == ptr(_pointee(by_name["nn"].type))
    nn = _pointee(by_name["nn"].type)
    assert isinstance(nn, StructType)
    assert nn.field_named("next").offset == 8
    assert by_name["buf"].type == PtrType(ArrayType(F64, 8))
    assert by_name["h"].mask is by_name["gt"]
    assert by_name["sq"].type == F64


def test_constants() -> None:
    fn = parse_function(
        """
func @c() -> () {
entry:
  call void @f(f64 nan, f64 -inf, f64 inf, f32 0x1.8p+1, f64 -0x1p-2, i1 true, i1 0,
  ret
}
""".replace(",\n  ret", ")\n  ret")
    )
    vals = [_constant(o) for o in fn.blocks[0].instructions[0].operands]
    assert math.isnan(vals[0]) and vals[1] == -math.inf and vals[2] == math.inf
    assert vals[3] == 3.0 and vals[4] == -0.25 and vals[5] == 1 and vals[6] == 0


def test_negative_zero_and_tiny_floats_survive() -> None:
    text = """func @z() -> (f64, f64, f32) {
entry:
  ret f64 -0.0, f64 5e-324, f32 0.1
}
"""
    fn = parse_function(text)
    term = fn.blocks[0].terminator
    assert term is not None
    a, b, c = (_constant(o) for o in term.operands)
    assert math.copysign(1.0, a) == -1.0 and b == 5e-324 and c == 0.1
    assert print_function(fn) == text


def test_builder_names_unique_and_numbered() -> None:
    fn = Function("f")
    x = fn.add_arg(I32, "x")
    entry = fn.add_block(Block("entry"))
    other = fn.add_block(Block("entry"))
    unnamed = fn.add_block(Block())
    b = IRBuilder(entry)
    a1 = b.add(x, x, "t")
    a2 = b.add(a1, x, "t")
    a3 = b.add(a2, x)
    a4 = b.add(a3, x)
    a5 = b.add(a4, x, "x")
    b.br(other)
    IRBuilder(other).br(unnamed)
    IRBuilder(unnamed).ret([a5])
    fn.ret_types = [I32]
    text = print_function(fn)
    assert "%t = add %x, %x" in text
    assert "%t.1 = add %t, %x" in text
    assert "%0 = add %t.1, %x" in text
    assert "%1 = add %0, %x" in text
    assert "%x.1 = add %1, %x" in text
    assert "entry.1:" in text and "bb0:" in text and "br bb0" in text
    assert print_function(parse_function(text)) == text


def test_annotations() -> None:
    fn = parse_function(LOOP_WITH_FORWARD_USE)

    def note(v):
        if v is fn.args[0]:
            return "uni"
        return "varying" if isinstance(v, Phi) else None

    text = print_function(fn, annotate=note)
    assert "  ; %n: uni" in text
    assert "%i = phi i32 [i32 0, entry], [%next, latch]  ; varying" in text
    assert print_function(parse_function(text)) == print_function(fn)


def test_struct_declared_once_per_module_and_before_use() -> None:
    st = StructType("pair", (StructField("a", I32, 0), StructField("b", F64, 8)), 16)
    inner = StructType("outer", (StructField("p", st, 0),), 16)
    fns = []
    for name in ("f", "g"):
        fn = Function(name)
        arg = fn.add_arg(ptr(inner), "o")
        block = fn.add_block(Block("entry"))
        b = IRBuilder(block)
        p = b.field_addr(arg, "p", ptr(st), "p")
        b.field_addr(p, "b", ptr(F64), "pb")
        b.ret()
        fns.append(fn)
    text = print_module(fns)
    assert text.count("struct.pair = { i32 a @0, f64 b @8 } size 16") == 1
    assert text.index("struct.pair =") < text.index("struct.outer =") < text.index("func @f")
    assert _round_trip(text) == text


def test_void_call_and_store_have_no_name() -> None:
    fn = Function("v")
    block = fn.add_block(Block("entry"))
    b = IRBuilder(block)
    slot = b.alloca(I64, "slot")
    b.store(Constant(I64, 5), slot)
    from s2s.ir.types import VOID

    b.call("sink", [slot], VOID, name="ignored")
    b.ret()
    text = print_function(fn)
    assert "  store i64 5, %slot\n  call void @sink(%slot)\n" in text


def test_recursive_struct_round_trip() -> None:
    text = """struct.list = { ptr<struct.list> next @0, f64 v @8 } size 16

func @walk(ptr<struct.list> %l) -> (f64) {
entry:
  %np = fieldaddr %l, next
  %n = load %np
  %vp = fieldaddr %n, v
  %v = load %vp
  ret %v
}
"""
    fn = parse_function(text)
    assert fn.blocks[0].instructions[3].type == F64
    assert print_function(fn) == text


def test_unnamed_block_numeric_label_and_implicit_names() -> None:
    text = """func @n(i32 %a) -> (i32) {
0:
  %1 = add %a, i32 1
  br 1
1:
  ret %1
}
"""
    fn = parse_function(text)
    assert print_function(fn) == text


def test_placeholders_replaced_everywhere() -> None:
    fn = parse_function("""func @m(i32 %a) -> () {
entry:
  br b
c:
  store %v, %p mask %m
  ret
b:
  %p = alloca i32
  %v = add %a, i32 1
  %m = cmp gt %v, i32 0
  br c
}
""")
    store = fn.blocks[1].instructions[0]
    assert store.operands[0].name == "v" and isinstance(store.operands[0], BinOp)
    mask = store.mask
    assert mask is fn.blocks[2].instructions[2] and mask is not None
    assert store in mask.users


def test_cast_and_call_types() -> None:
    fn = parse_function("""func @k(f64 %x) -> (u32) {
entry:
  %u = cast %x to u32
  %r = call f32 @sqrtf(f32 2.0)
  ret %u
}""")
    u, r = fn.blocks[0].instructions[:2]
    assert isinstance(u, Cast) and u.type == U32
    assert isinstance(r, Call) and r.type == F32 and not r.pure


def test_load_type_is_pointee() -> None:
    fn = parse_function("""func @l(ptr<ptr<i64>> %pp) -> (i64) {
entry:
  %p = load %pp
  %v = load %p
  ret %v
}""")
    p, v = fn.blocks[0].instructions[:2]
    assert isinstance(p, Load) and p.type == ptr(I64) and v.type == I64


def test_undef_operand() -> None:
    fn = parse_function("""func @u() -> (f64) {
entry:
  ret undef f64
}""")
    term = fn.blocks[0].terminator
    assert term is not None and isinstance(term.operands[0], Undef)


@pytest.mark.parametrize(
    "text, message",
    [
        ("func @f() -> () {\nentry:\n  %x = add %y, i32 1\n  ret\n}", "line 3: undefined value %y"),
        ("func @f() -> () {\nentry:\n  br nowhere\n}", "line 3: undefined block label nowhere"),
        (
            "func @f() -> () {\nentry:\n  %x = frob i32 1\n  ret\n}",
            "line 3: unknown instruction 'frob'",
        ),
        (
            "func @f() -> () {\nentry:\n  %x = add i32 1, i32 2\n  %x = add i32 1, i32 2\n  ret\n}",
            "line 4: value %x defined twice",
        ),
        (
            "func @f() -> () {\nentry:\n  ret\nentry:\n  ret\n}",
            "line 4: block label entry defined twice",
        ),
        (
            "func @f() -> () {\nentry:\n  %x = add i32 1, f64 2.0\n  ret\n}",
            "line 3: operand types differ",
        ),
        (
            "func @f(i32 %a) -> () {\nentry:\n  %x = load %a\n  ret\n}",
            "line 3: load of non-pointer",
        ),
        (
            "func @f() -> () {\nentry:\n  %x = add i32 1\n  ret\n}",
            "line 3: 'add' takes 2 operand(s)",
        ),
        ("func @f() -> () {\nentry:\n  ret i32 1 i32 2\n}", "line 3: unexpected 'i32'"),
        (
            "func @f() -> () {\nentry:\n  %x = cmp less i32 1, i32 2\n  ret\n}",
            "line 3: unknown compare predicate 'less'",
        ),
        ("func @f() -> () {\nentry:\n  ret\n", "missing '}'"),
        ("func @f(i33 %a) -> () {\nentry:\n  ret\n}", "line 1: unknown type 'i33'"),
        ("\n\nfunc @f(ptr<struct.nope> %a) -> () {\nentry:\n  ret\n}", "line 3: undeclared struct"),
        (
            "func @f() -> () {\nentry:\n  store i32 1, i32 2\n  ret\n}",
            "line 3: store through non-pointer",
        ),
        ("func @f() -> () {\nentry:\n  %x = i32 1\n  ret\n}", "line 3: unknown instruction 'i32'"),
        ("func @f() -> () {\nentry:\n  ret f64 abc\n}", "line 3: bad float literal 'abc'"),
        ("func @f() -> () {\nentry:\n  ret i32 1.5\n}", "line 3: bad i32 literal '1.5'"),
        ("func @f() -> () {\n  ret\n}", "line 2: expected a block label"),
        (
            "func @f() -> () {\nentry:\n  %a = phi i32 [%b, entry]\n  %b = add %a, i32 1\n"
            "  %c = add %d, i32 1\n"
            "  %d = add %c, i32 1\n  ret\n}",
            "line 5: cannot determine the type of %c",
        ),
        (
            "func @f() -> () {\nentry:\n  %s = store i32 1, null ptr<i32>\n  ret\n}",
            "line 3: 'store' produces no value",
        ),
        (
            "func @f(ptr<i32> %p) -> () {\nentry:\n  %q = fieldaddr %p, x\n  ret\n}",
            "line 3: fieldaddr of non-struct",
        ),
        ("func @f() -> () {\nentry:\n  ret # \n}", "line 3: unexpected character '#'"),
        (
            "struct.s = { i32 a @0 } size 4\nfunc @f(ptr<struct.s> %p) -> () {\nentry:\n"
            "  %q = fieldaddr %p, b\n  ret\n}",
            "line 4: struct.s has no field b",
        ),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(IRError) as info:
        parse_module(text)
    assert message in str(info.value)
    assert str(info.value).startswith("line ")


def test_parse_function_wants_exactly_one() -> None:
    with pytest.raises(IRError, match="exactly one function"):
        parse_function(MULTI)
    assert len(parse_module(MULTI)) == 2


def test_round_trip_of_builder_function_with_every_kind() -> None:
    """Build without any name hints: the numbered names survive the round trip."""
    st = StructType("s", (StructField("a", I32, 0), StructField("v", ArrayType(F64, 2), 8)), 24)
    fn = Function("b", ret_types=[F64])
    a = fn.add_arg(ptr(st), "")
    e, t, j = (fn.add_block(Block()) for _ in range(3))
    b = IRBuilder(e)
    fa = b.field_addr(a, "a", ptr(I32))
    fv = b.field_addr(a, "v", ptr(F64))
    x = b.load(fa)
    c = b.cmp("ne", x, Constant(I32, 0))
    d = b.cast(x, F64)
    b.condbr(c, t, j)
    b.at_end(t)
    g = b.gep(fv, Constant(I64, 1))
    y = b.load(g)
    st_ = b.store(d, g)
    st_.set_mask(c)
    s = b.select(c, y, d)
    sw = b.unop("neg", s)
    b.switch(x, j, [(3, j)])
    b.at_end(j)
    phi = b.phi(F64)
    phi.add_incoming(d, e)
    phi.add_incoming(sw, t)
    b.ret([phi])
    text = print_function(fn)
    assert "bb0:" in text and "%1 = fieldaddr %0, a" in text
    assert print_function(parse_function(text)) == text


def test_ir_error_passes_through_context_managers() -> None:
    """IRError must survive ``contextlib`` (which assigns ``__traceback__``)."""
    import contextlib

    @contextlib.contextmanager
    def nothing():
        yield

    with pytest.raises(IRError, match="line 1"), nothing():
        parse_function("func @f(")


# -- randomly built functions ---------------------------------------------------------


def _random_function(seed: int) -> Function:
    """A verifier-clean function with diamonds, phis, memory, masks and calls."""
    import random

    from s2s.ir.types import U32

    rng = random.Random(seed)
    fn = Function(f"r{seed}", ret_types=[I32, F64])
    mem = fn.add_arg(ptr(F64), "mem")
    ints: list[Value] = [fn.add_arg(I32, "a"), fn.add_arg(I32, rng.choice(["a", "b", ""]))]
    floats: list[Value] = [fn.add_arg(F64, "x")]
    uints: list[Value] = [fn.add_arg(U32, "")]
    block = fn.add_block(Block(rng.choice(["entry", "", "start"])))
    b = IRBuilder(block)

    def grow(ints_: list, floats_: list, count: int) -> None:
        for _ in range(count):
            kind = rng.randrange(7)
            name = rng.choice(["t", "", "v", "t"])
            if kind == 0:
                ints_.append(
                    b.binop(
                        rng.choice(["add", "sub", "mul", "and", "or", "xor", "min", "max"]),
                        rng.choice(ints_),
                        rng.choice(ints_ + [Constant(I32, -3)]),
                        name,
                    )
                )
            elif kind == 1:
                floats_.append(
                    b.binop(
                        rng.choice(["add", "sub", "mul", "min", "max"]),
                        rng.choice(floats_),
                        Constant(F64, rng.random()),
                        name,
                    )
                )
            elif kind == 2:
                c = b.cmp(rng.choice(Cmp_PREDS), rng.choice(ints_), rng.choice(ints_))
                ints_.append(b.cast(c, I32, name))
            elif kind == 3:
                idx = b.binop("and", rng.choice(ints_), Constant(I32, 3))
                p = b.gep(mem, b.cast(idx, I64))
                floats_.append(b.load(p, name))
                if rng.random() < 0.5:
                    m = b.cmp("gt", rng.choice(floats_), Constant(F64, 0.5))
                    st = b.store(rng.choice(floats_), p)
                    st.set_mask(m)
            elif kind == 4:
                floats_.append(
                    b.call("sqrt", [b.unop("neg", rng.choice(floats_))], F64, pure=True, name=name)
                )
            elif kind == 5:
                sh = b.binop("shr", uints[0], Constant(U32, rng.randrange(31)))
                ints_.append(b.cast(sh, I32))
            else:
                c = b.cmp("lt", rng.choice(floats_), rng.choice(floats_))
                floats_.append(b.select(c, rng.choice(floats_), rng.choice(floats_), name))

    grow(ints, floats, rng.randrange(2, 6))
    for _ in range(rng.randrange(1, 4)):
        cond = b.cmp("ne", rng.choice(ints), Constant(I32, 0), "c")
        left = fn.add_block(Block(rng.choice(["then", ""])))
        right = fn.add_block(Block(rng.choice(["else", "then", ""])))
        join = fn.add_block(Block(rng.choice(["join", ""])))
        b.condbr(cond, left, right)
        outs = []
        for arm in (left, right):
            b.at_end(arm)
            li, lf = list(ints), list(floats)
            grow(li, lf, rng.randrange(0, 4))
            b.br(join)
            outs.append((li[-1], lf[-1], arm))
        b.at_end(join)
        pi, pf = b.phi(I32, "pi"), b.phi(F64, "")
        for vi, vf, arm in outs:
            pi.add_incoming(vi, arm)
            pf.add_incoming(vf, arm)
        ints.append(pi)
        floats.append(pf)
        grow(ints, floats, rng.randrange(1, 4))
    b.ret([ints[-1], floats[-1]])
    return fn


Cmp_PREDS = ("eq", "ne", "lt", "le", "gt", "ge")


@pytest.mark.parametrize("seed", range(40))
def test_random_function_round_trip(seed: int) -> None:
    from s2s.ir.interpreter import Memory, run_scalar
    from s2s.ir.verifier import verify

    fn = _random_function(seed)
    verify(fn)
    text = print_function(fn)
    again = parse_function(text)
    verify(again)
    assert print_function(again) == text
    # The parsed function computes the same as the built one.
    for args in ([2, -1, 0.25, 7], [0, 5, 1.5, 2**31 + 9]):
        results = []
        for f in (fn, again):
            memory = Memory()
            a = memory.alloc_array(F64, [0.5, -1.0, 2.0, 0.75])
            results.append((run_scalar(f, [a] + args, memory), memory.read_array(a, F64, 4)))
        assert results[0] == results[1] or _nan_equal(results[0], results[1])


def _nan_equal(a: object, b: object) -> bool:
    return repr(a) == repr(b)


def test_values_by_name() -> None:
    from s2s.ir.parser import values_by_name

    fn = parse_function(LOOP_WITH_FORWARD_USE)
    named = values_by_name(fn)
    assert set(named) == {"n", "next", "i", "c"}
    assert named["n"] is fn.args[0] and isinstance(named["i"], Phi)


def test_header_variants() -> None:
    one = parse_function("func @f(f64 %x) -> f64 {\nentry:\n  ret %x\n}")
    none = parse_function("func @g() {\nentry:  ; label comment\n\n  ; comment line\n  ret\n}")
    assert one.ret_types == [F64] and none.ret_types == []
    assert print_function(none).startswith("func @g() -> () {\nentry:\n  ret\n}")
