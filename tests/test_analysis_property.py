"""Property test: what the divergence analysis claims holds when the IR runs.

Random functions (random forward CFG with at most one natural loop, integer,
pointer, float, memory, stack and call operations) are analyzed, then run per
lane by the IR interpreter on random inputs.  For every executed instance of
every value (an instance is the value's block visit in one loop iteration),
the lanes that executed it must fit the value's shape: equal for uniform,
``base + s*t`` with base a multiple of a for strided (s, a), multiples of a
for varying a.  Arithmetic is kept small enough that signed values never
overflow (the analysis assumes that, see transfer.py).
"""

from __future__ import annotations

import random
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from s2s.analysis.cfg import Graph
from s2s.analysis.divergence import compute_divergence
from s2s.analysis.shapes import VectorShape as S
from s2s.ir.builder import IRBuilder
from s2s.ir.interpreter import Memory, Scalar, run_scalar
from s2s.ir.types import F64, I1, I32, I64, U32, VOID, ArrayType, IntType, PtrType, ptr
from s2s.ir.values import Block, Call, Constant, Function, Phi, Ret, Value
from s2s.ir.verifier import verify

ARRAY_LEN = 64


class Gen:
    """Builds one random function from a seed."""

    def __init__(self, rnd: random.Random) -> None:
        self.r = rnd
        self.fn = Function("rand")
        self.i = self.fn.add_arg(I64, "i")
        self.a = self.fn.add_arg(ptr(I32), "a")
        self.out = self.fn.add_arg(ptr(I64), "out")
        self.u = self.fn.add_arg(I64, "u")
        self.v = self.fn.add_arg(I64, "v")
        self.loop: tuple[Block, Block] | None = None

    # -- CFG -------------------------------------------------------------------------
    def cfg(self) -> dict[int, list[int]]:
        n = self.r.randint(2, 11)
        succs: dict[int, list[int]] = {}
        for k in range(n - 1):
            if self.r.random() < 0.15 and k < n - 3:
                succs[k] = self.r.sample(range(k + 1, n), 3)
            elif self.r.random() < 0.6 and k < n - 2:
                a, b = self.r.sample(range(k + 1, n), 2)
                succs[k] = [a, b]
            else:
                succs[k] = [self.r.randint(k + 1, n - 1)]
        succs[n - 1] = []
        self.loops: list[tuple[int, int]] = []
        for _ in range(2):
            if self.r.random() < 0.3:
                continue
            g = Graph(succs, 0)
            cands = [
                (h, latch)
                for h in range(1, n - 1)
                for latch in range(h, n - 1)
                if g.reachable(latch) and g.dominates(h, latch) and self._fits(h, latch)
            ]
            if not cands:
                continue
            nested = [
                (h, latch)
                for h, latch in cands
                if any((h1 < h and latch < l1) or (h < h1 and l1 < latch) for h1, l1 in self.loops)
            ]
            h, latch = self.r.choice(nested if nested and self.r.random() < 0.8 else cands)
            old = succs[latch]
            exits = self.r.sample(old, len(old)) + [self.r.randint(latch + 1, n - 1)]
            for e in exits:
                succs[latch] = [h, e]
                g2 = Graph(succs, 0)
                if g2.is_reducible and all(
                    g2.reachable(x) and g2.dominates(x, y) for x, y in self.loops + [(h, latch)]
                ):
                    self.loops.append((h, latch))
                    break
            else:
                succs[latch] = old
        if self.loops and len(self.loops) == 1 and self.r.random() < 0.6:
            self._nest_self_loop(succs)
        return succs

    def _nest_self_loop(self, succs: dict[int, list[int]]) -> None:
        """Turn a block inside the loop into a one-block inner loop."""
        h1, l1 = self.loops[0]
        for m in self.r.sample(range(h1 + 1, l1), max(0, l1 - h1 - 1)):
            old = succs[m]
            for e in self.r.sample(old, len(old)):
                succs[m] = [m, e]
                g2 = Graph(succs, 0)
                inner = g2.loops.loop_of(m) if g2.is_reducible else None
                if (
                    inner is not None
                    and inner.parent is not None
                    and inner.parent.header == h1
                    and all(g2.reachable(x) and g2.dominates(x, y) for x, y in self.loops)
                ):
                    self.loops.append((m, m))
                    return
            succs[m] = old

    def _fits(self, h: int, latch: int) -> bool:
        """A second loop must nest inside or around the first one, or stay apart."""
        for h1, l1 in self.loops:
            inside = h1 < h and latch < l1
            around = h < h1 and l1 < latch
            if h == h1 or latch == l1 or (h <= l1 and latch >= h1 and not (inside or around)):
                return False
        return True

    # -- values ----------------------------------------------------------------------
    def build(self) -> Function:
        succs = self.cfg()
        n = len(succs)
        blocks = [self.fn.add_block(Block(f"b{k}")) for k in range(n)]
        g = Graph(succs, 0)
        preds = {k: g.preds[k] for k in range(n)}
        defined: dict[int, list[Value]] = {k: [] for k in range(n)}
        phis: list[tuple[Phi, int]] = []
        b = IRBuilder()
        self.counters: dict[int, Phi] = {}
        self.counter_next: dict[int, Value] = {}
        headers = {h: j for j, (h, _) in enumerate(self.loops)}
        latches = {latch: j for j, (_, latch) in enumerate(self.loops)}
        self.latches = latches
        for k in range(n):
            if not g.reachable(k):
                blocks[k].append(Ret([]))
                continue
            b.at_end(blocks[k])
            pool: list[Value] = [self.i, self.u, self.v]
            for d in range(n):
                if d != k and g.reachable(d) and g.dominates(d, k):
                    pool.extend(defined[d])
            local: list[Value] = []
            if k in headers:
                ctr = b.phi(I64, "k")
                self.counters[headers[k]] = ctr
                phis.append((ctr, -1 - headers[k]))
                local.append(ctr)
            if len(preds[k]) > 1:
                for _ in range(self.r.randint(1, 2)):
                    phi = b.phi(I64, "p")
                    phis.append((phi, k))
                    local.append(phi)
            if k == 0:
                self.m = b.alloca(ArrayType(I64, 8), "m")
                self.m0 = b.cast(self.m, ptr(I64), "m0")
            for _ in range(self.r.randint(1, 6)):
                v = self.op(b, pool + local)
                if v is not None:
                    local.append(v)
            defined[k] = local
            self.terminator(b, k, succs[k], blocks, pool + local)
        self.fill_phis(phis, g, defined, blocks)
        return self.fn

    def ints(self, pool: list[Value]) -> list[Value]:
        return [v for v in pool if v.type == I64]

    def pick(self, pool: list[Value]) -> Value:
        ints = self.ints(pool)
        if self.r.random() < 0.15:
            return Constant(I64, self.r.randint(-5, 5))
        return self.r.choice(ints)

    def op(self, b: IRBuilder, pool: list[Value]) -> Value | None:
        r = self.r
        x, y = self.pick(pool), self.pick(pool)
        kind = r.choice(
            [
                "add",
                "sub",
                "mulc",
                "shl",
                "shr",
                "andc",
                "orc",
                "xorc",
                "div",
                "rem",
                "minmax",
                "select",
                "load",
                "loadi",
                "ptr",
                "trunc",
                "zext",
                "call",
                "float",
                "stack",
                "stackload",
                "store",
            ]
        )

        def c(vs):
            return Constant(I64, r.choice(vs))

        if kind in ("add", "sub"):
            return b.binop(kind, x, y, "x")
        if kind == "mulc":
            return b.mul(x, c([-2, -1, 0, 1, 2, 3]), "x")
        if kind == "shl":
            return b.binop("shl", x, c([0, 1, 2]), "x")
        if kind == "shr":
            return b.binop("shr", x, c([0, 1, 2]), "x")
        if kind == "andc":
            return b.binop("and", x, c([1, 3, 7, 15, -4, -8, 255]), "x")
        if kind == "orc":
            return b.binop("or", x, c([1, 2, 3]), "x")
        if kind == "xorc":
            return b.binop("xor", x, c([1, 4, 6]), "x")
        if kind == "div":
            return b.binop("div", x, c([1, 2, 4, -2]), "x")
        if kind == "rem":
            return b.binop("rem", x, c([2, 4, 3]), "x")
        if kind == "minmax":
            return b.binop(r.choice(["min", "max"]), x, y, "x")
        if kind == "select":
            cond = b.cmp(r.choice(["lt", "eq", "ge"]), x, y, "c")
            return b.select(cond, self.pick(pool), self.pick(pool), "x")
        if kind in ("load", "loadi"):
            mask = Constant(I64, ARRAY_LEN - 1)
            idx = self.i if kind == "loadi" else b.binop("and", x, mask, "ix")
            p = b.gep(self.a, idx, "pa")
            return b.cast(b.load(p, "ld"), I64, "x")
        if kind == "ptr":
            p = b.gep(self.a, b.binop("and", x, Constant(I64, 31), "ix"), "pa")
            return b.cast(b.load(p, "ld"), I64, "x")
        if kind == "trunc":
            t = b.cast(x, I32, "t")
            return b.cast(b.add(t, Constant(I32, 1), "t"), I64, "x")
        if kind == "zext":
            t = b.cast(b.binop("and", x, Constant(I64, 1023), "ix"), U32, "t")
            return b.cast(t, I64, "x")
        if kind == "call":
            return b.call("f", [x], I64, pure=True, name="x")
        if kind == "float":
            f = b.cast(x, F64, "f")
            g = b.binop("mul", f, Constant(F64, 0.5), "f")
            cmpv = b.cmp("lt", g, Constant(F64, 3.0), "c")
            return b.select(cmpv, x, y, "x")
        if kind == "stack":
            p = b.gep(self.m0, b.binop("and", x, Constant(I64, 7), "ix"), "pm")
            mask = b.cmp("lt", self.pick(pool), self.pick(pool), "sm") if r.random() < 0.3 else None
            b.store(y, p).set_mask(mask)
            return None
        if kind == "stackload":
            p = b.gep(self.m0, b.binop("and", x, Constant(I64, 7), "ix"), "pm")
            return b.load(p, "x")
        if kind == "store":
            b.store(x, b.gep(self.out, self.i, "po"))
            return None
        return None

    def terminator(
        self, b: IRBuilder, k: int, targets: list[int], blocks: list[Block], pool: list[Value]
    ) -> None:
        if not targets:
            b.ret([])
            return
        if k in self.latches:
            j = self.latches[k]
            k1 = b.add(self.counters[j], Constant(I64, 1), "k1")
            self.counter_next[j] = k1
            bound = b.binop("and", self.pick(pool), Constant(I64, 3), "bound")
            cond = b.cmp("le", k1, bound, "lc")
            b.condbr(cond, blocks[targets[0]], blocks[targets[1]])
            return
        if len(targets) == 1:
            b.br(blocks[targets[0]])
            return
        if len(targets) == 3:
            sel = b.binop("and", self.pick(pool), Constant(I64, 3), "sel")
            b.switch(sel, blocks[targets[0]], [(1, blocks[targets[1]]), (2, blocks[targets[2]])])
            return
        if self.r.random() < 0.4:
            # a condition that differs between neighbouring lanes
            bits = b.binop(
                "and",
                self.r.choice([self.i] + self.ints(pool)),
                Constant(I64, self.r.choice([1, 2, 3])),
                "bits",
            )
            cond = b.cmp("eq", bits, Constant(I64, 0), "c")
        else:
            cond = b.cmp(
                self.r.choice(["lt", "eq", "ne", "ge"]), self.pick(pool), self.pick(pool), "c"
            )
        b.condbr(cond, blocks[targets[0]], blocks[targets[1]])

    def fill_phis(self, phis, g: Graph, defined, blocks) -> None:
        for phi, k in phis:
            home = blocks.index(phi.block)
            for p in g.preds[home]:
                if k < 0:
                    j = -1 - k
                    value = self.counter_next[j] if p == self.loops[j][1] else Constant(I64, 0)
                else:
                    avail = [self.i, self.u, self.v] + [
                        v
                        for d in range(len(blocks))
                        if g.reachable(d) and g.dominates(d, p)
                        for v in defined[d]
                        if v.type == I64
                    ]
                    value = (
                        self.r.choice(avail)
                        if self.r.random() < 0.7
                        else Constant(I64, self.r.randint(0, 3))
                    )
                phi.add_incoming(value, blocks[p])


def lane_values(fn: Function, info, width: int, base: int, u: int, v: int, data: list[int]):
    """Run every lane; returns {(value, tag): {lane: runtime value}}."""
    traced = [i for i in fn.instructions() if i.type != VOID]
    loops = info.loops.loops  # parents before children
    index = {id(lp): j for j, lp in enumerate(loops)}
    ids = {id(i): k for k, i in enumerate(traced)}
    # instrument: a trace call after every traced value, an iteration counter in each header
    for inst in traced:
        blk = inst.parent
        pos = blk.instructions.index(inst) + 1
        if isinstance(inst, Phi):
            pos = len(blk.phis)
        call = Call("trace", [Constant(I64, ids[id(inst)]), inst], VOID)
        blk.insert(pos, call)
    for j, lp in enumerate(loops):
        lp.header.insert(len(lp.header.phis), Call("iter", [Constant(I64, j)], VOID))
    nest = {
        id(inst): [index[id(lp)] for lp in reversed(info.loops.loop_of(inst.block).ancestors())]
        if info.loops.loop_of(inst.block)
        else []
        for inst in traced
    }
    inner = {j: [index[id(d)] for d in _descendants(lp)] for j, lp in enumerate(loops)}
    outer_of = {
        j: [index[id(a)] for a in reversed(lp.ancestors()[1:])] for j, lp in enumerate(loops)
    }
    LEAVES.clear()
    results: dict[tuple[int, tuple[int, ...]], dict[int, object]] = defaultdict(dict)
    memory = Memory()
    a_addr = memory.alloc_array(I32, data)
    out_addr = memory.alloc_array(I64, [0] * ARRAY_LEN)
    for lane in range(width):
        state = [0] * len(loops)

        def trace(k, value, lane=lane, state=state):
            tag = tuple(state[j] for j in nest[id(traced[k])])
            results[(k, tag)][lane] = value

        def it(j, state=state):
            state[j] += 1
            for d in inner[j]:
                state[d] = 0  # a new iteration of the outer loop enters the inner one afresh

        def leave(j, k, lane=lane, state=state):
            outer = tuple(state[d] for d in outer_of[j])
            LEAVES.append((lane, j, k, outer, state[j]))

        ext = {"trace": trace, "iter": it, "leave": leave, "f": lambda x: (x * 7 + 3) & 1023}
        run_scalar(fn, [base + lane, a_addr, out_addr, u, v], memory, ext, step_limit=100_000)
    return traced, results


def _descendants(lp) -> list:
    out = []
    for child in lp.children:
        out.append(child)
        out.extend(_descendants(child))
    return out


def _int(v: object) -> int:
    assert isinstance(v, int), v
    return v


def fits(shape: S, t, lanes: dict[int, object]) -> bool:
    vals = list(lanes.items())
    if shape.is_bottom:
        return False
    if not (isinstance(t, (IntType, PtrType))) or t == I1:
        if shape.is_uniform:
            return len({repr(v) for _, v in vals}) == 1
        return True
    bits = 64 if isinstance(t, PtrType) else t.bits
    mod = 1 << bits
    signed = isinstance(t, IntType) and t.signed

    def norm(x: int) -> int:
        x %= mod
        if signed and x >= mod // 2:
            x -= mod
        return x

    a = shape.alignment
    if shape.stride is None:
        return all(a == 0 or norm(_int(v)) % a == 0 for _, v in vals)
    bases = {norm(_int(v) - shape.stride * t_) for t_, v in vals}
    if len(bases) != 1:
        return False
    (base0,) = bases
    return base0 == 0 if a == 0 else base0 % a == 0


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.sampled_from([4, 8]),
    base_mul=st.integers(0, 4),
    u=st.integers(-6, 6),
    v=st.integers(-6, 6),
    data=st.lists(st.integers(0, 40), min_size=ARRAY_LEN, max_size=ARRAY_LEN),
)
def test_claimed_shapes_hold_at_run_time(seed, width, base_mul, u, v, data):
    gen = Gen(random.Random(seed))
    fn = gen.build()
    verify(fn)
    base = base_mul * 8
    args = {
        gen.i: S.strided(1, 8),
        gen.a: S.uniform(16),
        gen.out: S.uniform(16),
        gen.u: S.uniform(),
        gen.v: S.uniform(),
    }
    info = compute_divergence(fn, args, width=width)
    traced, results = lane_values(fn, info, width, base, u, v, data)
    for (k, tag), lanes in results.items():
        inst = traced[k]
        shape = info.shape_of(inst)
        if isinstance(inst.type, PtrType) and _from_alloca(inst):
            continue  # each lane's stack copy has its own address in per-lane runs
        assert fits(shape, inst.type, lanes), (
            f"{inst.name} claimed {shape}, lanes {lanes} (tag {tag})"
        )


def _from_alloca(v: Value) -> bool:
    from s2s.ir.values import Alloca, Cast, Gep

    while True:
        if isinstance(v, Alloca):
            return True
        if isinstance(v, (Gep, Cast)) and v.operands and v.operands[0].type.is_ptr():
            v = v.operands[0]
            continue
        return False


def test_the_generator_makes_loops_and_divergence():
    kinds = defaultdict(int)
    for seed in range(60):
        gen = Gen(random.Random(seed))
        fn = gen.build()
        verify(fn)
        info = compute_divergence(
            fn,
            {
                gen.i: S.strided(1, 8),
                gen.u: S.uniform(),
                gen.v: S.uniform(),
                gen.a: S.uniform(16),
                gen.out: S.uniform(16),
            },
            width=4,
        )
        kinds["loops"] += bool(info.loops.loops)
        kinds["nested"] += any(lp.depth > 1 for lp in info.loops.loops)
        kinds["divergent_loops"] += bool(info.divergent_loops)
        kinds["divergent_branches"] += bool(info.divergent_branches)
        kinds["uniform_branches"] += any(
            len(b.successors) > 1 and not info.is_divergent_branch(b) for b in fn.blocks
        )
    assert all(
        kinds[k] >= 3
        for k in ("loops", "nested", "divergent_loops", "divergent_branches", "uniform_branches")
    ), dict(kinds)


def run_outputs(
    fn: Function, gen: Gen, width: int, base: int, u: int, v: int, data: list[int]
) -> list[Scalar]:
    memory = Memory()
    a_addr = memory.alloc_array(I32, data)
    out_addr = memory.alloc_array(I64, [0] * ARRAY_LEN)
    for lane in range(width):
        run_scalar(
            fn,
            [base + lane, a_addr, out_addr, u, v],
            memory,
            {"f": lambda x: (x * 7 + 3) & 1023},
            step_limit=100_000,
        )
    return memory.read_array(out_addr, I64, ARRAY_LEN)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.sampled_from([4, 8]),
    u=st.integers(-6, 6),
    v=st.integers(-6, 6),
    data=st.lists(st.integers(0, 40), min_size=ARRAY_LEN, max_size=ARRAY_LEN),
)
def test_canonicalize_preserves_meaning_and_shapes_still_hold(seed, width, u, v, data):
    from test_analysis_canonicalize import assert_canonical

    from s2s.transform.canonicalize import canonicalize

    before = Gen(random.Random(seed))
    expected = run_outputs(before.build(), before, width, 8, u, v, data)
    gen = Gen(random.Random(seed))
    fn = gen.build()
    canonicalize(fn)
    assert_canonical(fn)
    assert run_outputs(fn, gen, width, 8, u, v, data) == expected
    args = {
        gen.i: S.strided(1, 8),
        gen.a: S.uniform(16),
        gen.out: S.uniform(16),
        gen.u: S.uniform(),
        gen.v: S.uniform(),
    }
    info = compute_divergence(fn, args, width=width)
    exits = instrument_exits(fn, info)
    traced, results = lane_values(fn, info, width, 8, u, v, data)
    for (k, tag), lanes in results.items():
        inst = traced[k]
        if isinstance(inst.type, PtrType) and _from_alloca(inst):
            continue
        assert fits(info.shape_of(inst), inst.type, lanes), (
            f"{inst.name} claimed {info.shape_of(inst)}, lanes {lanes} (tag {tag})"
        )
    check_loop_exits(info, exits)


def instrument_exits(fn: Function, info) -> list:
    """A ``leave(loop, exit)`` call at the start of every (dedicated) loop exit."""
    events: list = []
    for j, lp in enumerate(info.loops.loops):
        for k, e in enumerate(lp.exits):
            e.insert(len(e.phis), Call("leave", [Constant(I64, j), Constant(I64, k)], VOID))
    return events


def check_loop_exits(info, events) -> None:
    """Lanes that run one instance of a loop the analysis calls uniform leave it
    in the same iteration through the same exit; lanes leaving through an exit
    called uniform leave it in the same iteration."""
    loops = info.loops.loops
    by_instance: dict[tuple, list] = defaultdict(list)
    for lane, j, k, outer, count in LEAVES:
        by_instance[(j, outer)].append((lane, k, count))
    for (j, _), rows in by_instance.items():
        lp = loops[j]
        if not info.loop_is_divergent(lp.header):
            assert len({(k, c) for _, k, c in rows}) == 1, (
                f"uniform loop {lp.header.name} left differently: {rows}"
            )
        for k, e in enumerate(lp.exits):
            if not info.loop_exit_is_divergent(lp.header, e):
                counts = {c for _, kk, c in rows if kk == k}
                assert len(counts) <= 1, f"uniform exit {e.name} of {lp.header.name}: {rows}"


LEAVES: list = []
