"""Random structured regions for the transform property tests.

``build_region(seed)`` makes one IR function from a seed, the way the front
end lowers a loop body: nested if/else on varying and uniform conditions,
``while`` loops with per-lane (varying) or uniform trip counts, ``break``
and ``continue`` under conditions (also out of nested loops' bodies),
``switch`` with fallthrough-free arms, loads at varying and uniform
addresses, stores to per-lane slots and to consecutive slots (lane k at
``out[CONTIGUOUS + 8 j + k]``: contiguous), a local array (``int buf[4]``, read
and written at varying and uniform indices: per-lane storage), and
divisions guarded against zero.
Every loop has a small trip-count bound, so every region terminates.

Arguments: ``i32 %lane`` (varying), ``i32 %id`` (the lane number 0, 1, ...,
where the lane stores), ``i32 %u`` (uniform), ``ptr<i32> %a`` (16 readable
ints) and ``ptr<i32> %out`` (OUT ints: 8 per lane for up to 8 lanes, then
the consecutive slots).  The region
returns its three variables.
"""

from __future__ import annotations

import random
from typing import Any

from s2s.analysis.shapes import VectorShape
from s2s.ir.builder import IRBuilder
from s2s.ir.ssa import SSABuilder
from s2s.ir.types import I1, I32, ArrayType, ptr
from s2s.ir.values import Alloca, Argument, Block, Constant, Function, Value

SLOTS = 8
TABLE = 16
CONTIGUOUS = SLOTS * 8
"""Where the consecutive slots start in ``out`` (after 8 lanes' own slots)."""
OUT = CONTIGUOUS + 4 * 8
LOCAL = 4
VARS = ("x", "y", "z")


class RegionGen:
    def __init__(self, seed: int, max_depth: int = 3, max_stmts: int = 4) -> None:
        self.r = random.Random(seed)
        self.max_depth, self.max_stmts = max_depth, max_stmts
        self.fn = Function(f"region{seed}", ret_types=[I32] * len(VARS))
        self.lane = self.fn.add_arg(I32, "lane")
        self.id = self.fn.add_arg(I32, "id")
        self.u = self.fn.add_arg(I32, "u")
        self.a = self.fn.add_arg(ptr(I32), "a")
        self.out = self.fn.add_arg(ptr(I32), "out")
        self.ssa = SSABuilder()
        self.cur: Block | None = None
        self.loops: list[tuple[Block, Block]] = []
        """(continue target, break target) of the enclosing loops."""
        self.counter = 0

    # -- blocks --------------------------------------------------------------------
    def block(self, name: str) -> Block:
        blk = self.fn.add_block(Block(f"{name}{len(self.fn.blocks)}"))
        self.ssa.add_block(blk)
        return blk

    def enter(self, blk: Block) -> None:
        self.cur = blk

    @property
    def b(self) -> _AtEnd:
        """Builds at the end of the current block, placed when the build
        method runs (after its operands, whose SSA reads may add phis)."""
        return _AtEnd(self)

    def jump(self, target: Block) -> None:
        assert self.cur is not None
        self.b.br(target)
        self.ssa.add_edge(self.cur, target)
        self.cur = None

    def branch(self, cond: Value, t: Block, f: Block) -> None:
        assert self.cur is not None
        self.b.condbr(cond, t, f)
        self.ssa.add_edge(self.cur, t)
        self.ssa.add_edge(self.cur, f)
        self.cur = None

    def read(self, var: str) -> Value:
        assert self.cur is not None
        return self.ssa.read(var, self.cur)

    def write(self, var: str, value: Value) -> None:
        assert self.cur is not None
        self.ssa.write(var, self.cur, value)

    # -- values ---------------------------------------------------------------------
    def operand(self) -> Value:
        k = self.r.random()
        if k < 0.55:
            return self.read(self.r.choice(VARS))
        if k < 0.7:
            return self.lane
        if k < 0.8:
            return self.u
        return Constant(I32, self.r.randint(-3, 7))

    def expr(self) -> Value:
        op = self.r.choice(["add", "sub", "mul", "xor", "and", "or", "shl"])
        a = self.operand()
        b = Constant(I32, self.r.randint(0, 3)) if op == "shl" else self.operand()
        return self.b.binop(op, a, b)

    def condition(self) -> Value:
        pred = self.r.choice(["lt", "le", "gt", "ge", "eq", "ne"])
        return self.b.cmp(pred, self.operand(), self.operand())

    # -- statements -------------------------------------------------------------------
    def stmts(self, depth: int) -> None:
        for _ in range(self.r.randint(1, self.max_stmts)):
            if self.cur is None:
                return
            self.stmt(depth)

    def stmt(self, depth: int) -> None:
        kinds = [
            "assign",
            "assign",
            "store",
            "contiguous_store",
            "load",
            "div",
            "local_store",
            "local_load",
        ]
        if depth < self.max_depth:
            kinds += ["if", "if", "loop", "switch"]
        if self.loops:
            kinds += ["exit"]
        getattr(self, f"s_{self.r.choice(kinds)}")(depth)

    def s_assign(self, depth: int) -> None:
        self.write(self.r.choice(VARS), self.expr())

    def s_store(self, depth: int) -> None:
        slot = self.b.add(
            self.b.mul(self.id, Constant(I32, SLOTS)), Constant(I32, self.r.randrange(SLOTS))
        )
        self.b.store(self.read(self.r.choice(VARS)), self.b.gep(self.out, slot))

    def s_contiguous_store(self, depth: int) -> None:
        slot = self.b.add(self.id, Constant(I32, CONTIGUOUS + 8 * self.r.randrange(4)))
        self.b.store(self.read(self.r.choice(VARS)), self.b.gep(self.out, slot))

    def s_load(self, depth: int) -> None:
        index = self.b.binop("and", self.operand(), Constant(I32, TABLE - 1))
        self.write(self.r.choice(VARS), self.b.load(self.b.gep(self.a, index)))

    def local(self) -> Value:
        """&buf[operand & 3]."""
        index = self.b.binop("and", self.operand(), Constant(I32, LOCAL - 1))
        return self.b.gep(self.buf, index)

    def s_local_store(self, depth: int) -> None:
        self.b.store(self.read(self.r.choice(VARS)), self.local())

    def s_local_load(self, depth: int) -> None:
        self.write(self.r.choice(VARS), self.b.load(self.local()))

    def s_div(self, depth: int) -> None:
        """``if (d != 0) v = n / d``: the division must not run where d is 0."""
        d = self.operand()
        then, after = self.block("div"), self.block("divend")
        self.branch(self.b.cmp("ne", d, Constant(I32, 0)), then, after)
        self.ssa.seal(then)
        self.enter(then)
        op = self.r.choice(["div", "rem"])
        self.write(self.r.choice(VARS), self.b.binop(op, self.operand(), d))
        self.jump(after)
        self.ssa.seal(after)
        self.enter(after)

    def s_if(self, depth: int) -> None:
        then, other, join = self.block("then"), self.block("else"), self.block("join")
        self.branch(self.condition(), then, other)
        for blk in (then, other):
            self.ssa.seal(blk)
            self.enter(blk)
            self.stmts(depth + 1)
            if self.cur is not None:
                self.jump(join)
        self.ssa.seal(join)
        self.enter(join)
        if not self.ssa.preds[join]:
            self.b.ret([Constant(I32, 0)] * 3)  # both arms left the loop: dead code
            self.cur = None

    def s_switch(self, depth: int) -> None:
        value = self.b.binop("and", self.operand(), Constant(I32, 3))
        arms = [self.block("case") for _ in range(self.r.randint(1, 3))]
        default, join = self.block("default"), self.block("swend")
        assert self.cur is not None
        src = self.cur
        self.b.switch(value, default, [(k, arm) for k, arm in enumerate(arms)])
        for blk in arms + [default]:
            self.ssa.add_edge(src, blk)
        self.cur = None
        for blk in arms + [default]:
            self.ssa.seal(blk)
            self.enter(blk)
            self.stmts(depth + 1)
            if self.cur is not None:
                self.jump(join)
        self.ssa.seal(join)
        self.enter(join)
        if not self.ssa.preds[join]:
            self.b.ret([Constant(I32, 0)] * 3)
            self.cur = None

    def s_loop(self, depth: int) -> None:
        """``t = 0; while (t < bound && cond) { body; t++; }`` with a varying
        or uniform bound of at most 4 iterations."""
        self.counter += 1
        t = f"t{self.counter}"
        self.ssa.declare(t, I32, t)
        self.write(t, Constant(I32, 0))
        bound = self.r.choice([self.lane, self.u, self.read(self.r.choice(VARS))])
        bound = self.b.binop("and", bound, Constant(I32, 3))
        header, body, latch, end = (
            self.block("head"),
            self.block("body"),
            self.block("latch"),
            self.block("end"),
        )
        self.jump(header)
        self.enter(header)
        more = self.b.cmp("lt", self.read(t), bound)
        if self.r.random() < 0.4:
            more = self.b.binop("and", more, self.condition())
        self.branch(more, body, end)
        self.ssa.seal(body)
        self.enter(body)
        self.loops.append((latch, end))
        self.stmts(depth + 1)
        self.loops.pop()
        if self.cur is not None:
            self.jump(latch)
        self.ssa.seal(latch)
        self.enter(latch)
        if not self.ssa.preds[latch]:
            self.b.ret([Constant(I32, 0)] * 3)
            self.cur = None
        else:
            self.write(t, self.b.add(self.read(t), Constant(I32, 1)))
            self.jump(header)
        self.ssa.seal(header)
        self.ssa.seal(end)
        self.enter(end)

    def s_exit(self, depth: int) -> None:
        """``if (cond) break;`` or ``if (cond) continue;`` of the innermost loop."""
        latch, end = self.loops[-1]
        target = end if self.r.random() < 0.6 else latch
        rest = self.block("rest")
        self.branch(self.condition(), target, rest)
        self.ssa.seal(rest)
        self.enter(rest)

    # -- the region ---------------------------------------------------------------------
    def build(self) -> Function:
        for var in VARS:
            self.ssa.declare(var, I32, var)
        entry = self.block("entry")
        self.ssa.seal(entry)
        self.enter(entry)
        self.write("x", self.lane)
        self.write("y", self.u)
        self.write("z", Constant(I32, 1))
        array = self.b.insert(Alloca(ArrayType(I32, LOCAL), "buf"))
        self.buf = self.b.cast(array, ptr(I32))
        for j in range(LOCAL):
            self.b.store(Constant(I32, j), self.b.gep(self.buf, Constant(I32, j)))
        self.stmts(0)
        if self.cur is not None:
            self.b.ret([self.read(v) for v in VARS])
        _drop_unreachable(self.fn)
        return self.fn


class _AtEnd:
    def __init__(self, gen: RegionGen) -> None:
        self.gen = gen

    def __getattr__(self, name: str) -> Any:
        def build(*args: Any, **kw: Any) -> Any:
            assert self.gen.cur is not None
            return getattr(IRBuilder(self.gen.cur), name)(*args, **kw)

        return build


def _drop_unreachable(fn: Function) -> None:
    """Blocks that a ``break`` made unreachable (the canonicalization also
    removes them; the per-lane reference run does not need them)."""
    from s2s.transform.canonicalize import canonicalize

    canonicalize(fn)


def build_region(seed: int, **kw: int) -> Function:
    return RegionGen(seed, **kw).build()


def arg_shapes(fn: Function) -> dict[Argument, VectorShape]:
    lane, lane_id, u, a, out = fn.args
    return {
        lane: VectorShape.varying(),
        lane_id: VectorShape.strided(1),
        u: VectorShape.uniform(),
        a: VectorShape.uniform(),
        out: VectorShape.uniform(),
    }


__all__ = ["I1", "OUT", "SLOTS", "TABLE", "arg_shapes", "build_region"]
