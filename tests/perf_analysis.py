"""Benchmark (not collected by pytest): divergence analysis time on large regions.

    .venv/bin/python tests/perf_analysis.py [sizes...]

Three generated region shapes, each with about N blocks:
  * ``diamonds``: a chain of N/4 divergent if/else diamonds with phis;
  * ``cascade``: a nab-like else-if cascade of N/2 divergent compares that all
    join at the end (the worst case for join computation: every branch's
    divergent region reaches the final join);
  * ``loops``: N/6 sequential loops with data-dependent (divergent) exits,
    each holding a divergent if, plus LCSSA phis.
Prints blocks, instructions, seconds for compute_divergence (and for
canonicalize on the loop shape), and the time per block.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from s2s.analysis.divergence import compute_divergence
from s2s.analysis.memory import memory_shapes
from s2s.analysis.shapes import VectorShape as S
from s2s.ir.builder import IRBuilder
from s2s.ir.types import F64, I64, ptr
from s2s.ir.values import Block, Constant, Function
from s2s.transform.canonicalize import canonicalize


def _region():
    fn = Function("big")
    i = fn.add_arg(I64, "i")
    a = fn.add_arg(ptr(F64), "a")
    n = fn.add_arg(I64, "n")
    return fn, i, a, n, {i: S.strided(1, 8), a: S.uniform(64), n: S.uniform()}


def diamonds(blocks: int) -> tuple[Function, dict]:
    fn, i, a, _, shapes = _region()
    b = IRBuilder(fn.add_block(Block("entry")))
    x = b.load(b.gep(a, i, "p"), "x")
    acc = x
    for k in range(blocks // 4):
        t, e, j = (
            fn.add_block(Block(f"t{k}")),
            fn.add_block(Block(f"e{k}")),
            fn.add_block(Block(f"j{k}")),
        )
        c = b.cmp("lt", acc, Constant(F64, float(k)), "c")
        b.condbr(c, t, e)
        b.at_end(t)
        y = b.binop("mul", acc, Constant(F64, 0.5), "y")
        b.br(j)
        b.at_end(e)
        z = b.binop("add", acc, Constant(F64, 1.0), "z")
        b.br(j)
        b.at_end(j)
        phi = b.phi(F64, "acc")
        phi.add_incoming(y, t)
        phi.add_incoming(z, e)
        acc = phi
    b.ret([])
    return fn, shapes


def cascade(blocks: int) -> tuple[Function, dict]:
    fn, i, a, _, shapes = _region()
    b = IRBuilder(fn.add_block(Block("entry")))
    d = b.load(b.gep(a, i, "p"), "d")
    final = Block("join")
    arms = []
    for k in range(blocks // 2):
        then, nxt = fn.add_block(Block(f"then{k}")), fn.add_block(Block(f"else{k}"))
        c = b.cmp("lt", d, Constant(F64, float(k)), "c")
        b.condbr(c, then, nxt)
        b.at_end(then)
        v = b.binop("mul", d, Constant(F64, float(k)), "v")
        b.br(final)
        arms.append((v, then))
        b.at_end(nxt)
    b.br(final)
    fn.add_block(final)
    b.at_end(final)
    phi = b.phi(F64, "e")
    for v, blk in arms:
        phi.add_incoming(v, blk)
    phi.add_incoming(d, fn.blocks[-2])
    b.ret([])
    return fn, shapes


def loops(blocks: int) -> tuple[Function, dict]:
    fn, i, a, _, shapes = _region()
    b = IRBuilder(fn.add_block(Block("entry")))
    x = b.load(b.gep(a, i, "p"), "x")
    limit = b.cast(x, I64, "lim")
    for k in range(blocks // 6):
        h, t, e, latch, out = (
            fn.add_block(Block(f"h{k}")),
            fn.add_block(Block(f"t{k}")),
            fn.add_block(Block(f"f{k}")),
            fn.add_block(Block(f"l{k}")),
            fn.add_block(Block(f"x{k}")),
        )
        pre = b.block
        assert pre is not None
        b.br(h)
        b.at_end(h)
        ctr = b.phi(I64, "k")
        c = b.cmp("lt", ctr, Constant(I64, 3), "c")
        b.condbr(c, t, e)
        b.at_end(t)
        b.br(latch)
        b.at_end(e)
        b.br(latch)
        b.at_end(latch)
        k1 = b.add(ctr, Constant(I64, 1), "k1")
        more = b.cmp("lt", k1, limit, "more")
        b.condbr(more, h, out)
        ctr.add_incoming(Constant(I64, 0), pre)
        ctr.add_incoming(k1, latch)
        b.at_end(out)
        lc = b.phi(I64, "lc")
        lc.add_incoming(k1, latch)
        limit = b.add(lc, limit, "lim")
    b.ret([])
    return fn, shapes


def raw_loops(blocks: int) -> tuple[Function, dict]:
    """Loops that need every repair: no preheader, two latches, shared exits."""
    fn, i, a, n, shapes = _region()
    b = IRBuilder(fn.add_block(Block("entry")))
    x = b.load(b.gep(a, i, "p"), "x")
    limit = b.cast(x, I64, "lim")
    for k in range(blocks // 4):
        h, t, e, out = (
            fn.add_block(Block(f"h{k}")),
            fn.add_block(Block(f"t{k}")),
            fn.add_block(Block(f"e{k}")),
            fn.add_block(Block(f"x{k}")),
        )
        pre = b.block
        assert pre is not None
        enter = b.cmp("lt", n, Constant(I64, k), "enter")
        b.condbr(enter, h, out)
        b.at_end(h)
        ctr = b.phi(I64, "k")
        k1 = b.add(ctr, Constant(I64, 1), "k1")
        c = b.cmp("lt", k1, limit, "c")
        b.condbr(c, t, e)
        b.at_end(t)
        b.br(h)
        b.at_end(e)
        more = b.cmp("lt", k1, Constant(I64, 100), "more")
        b.condbr(more, h, out)
        ctr.add_incoming(Constant(I64, 0), pre)
        ctr.add_incoming(k1, t)
        ctr.add_incoming(k1, e)
        b.at_end(out)
        limit = b.add(limit, Constant(I64, 1), "lim")
    b.ret([])
    return fn, shapes


def measure(make, size: int) -> str:
    fn, shapes = make(size)
    nblocks, ninst = len(fn.blocks), sum(len(b.instructions) for b in fn.blocks)
    t0 = time.perf_counter()
    canonicalize(fn)
    t1 = time.perf_counter()
    info = compute_divergence(fn, shapes, width=8)
    memory_shapes(fn, info)
    t2 = time.perf_counter()
    return (
        f"{make.__name__:9s} {nblocks:6d} blocks {ninst:6d} insts  "
        f"canonicalize {t1 - t0:7.3f}s  divergence+memory {t2 - t1:7.3f}s  "
        f"({1e6 * (t2 - t1) / nblocks:6.1f} us/block, "
        f"{len(info.divergent_branches)} divergent branches)"
    )


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [500, 1000, 2000, 4000]
    for make in (diamonds, cascade, loops, raw_loops):
        for size in sizes:
            print(measure(make, size), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
