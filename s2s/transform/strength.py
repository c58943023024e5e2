"""Integer division and remainder by a power of two become shifts and masks.

No target has a vector integer division: widened, ``div`` and ``rem`` run
lane by lane, through memory, with a hardware division each (a binary
search's ``lo + (hi - lo) / 2`` cost most of the search's time).  By a
constant 2^k they are exact shifts, as compilers make them:

    unsigned  x / 2^k  ->  x >> k                (logical)
              x % 2^k  ->  x & (2^k - 1)
    signed    x / 2^k  ->  (x + bias) >> k       (arithmetic; bias = 2^k - 1
                                                  for negative x, else 0:
                                                  (x >> (b-1)) >>u (b-k))
              x % 2^k  ->  x - ((x / 2^k) << k)

C truncates toward zero; the bias makes the arithmetic shift, which
rounds down, do that for negative x.  A signed x known not to be negative
(its block runs only after a branch on ``x > c``, c >= -1, as in a binary
search's ``while (hi - lo > 1)``) is shifted as unsigned: no bias, and a
logical shift, which AVX2 has for 64-bit lanes (the arithmetic one it
has not).  Runs before linearization (no masks yet; none of the new
instructions can trap, so none needs one); keeps the CFG.
"""

from __future__ import annotations

from ..analysis.cfg import Graph, cfg_of
from ..ir.builder import IRBuilder
from ..ir.types import IntType, Type
from ..ir.values import BinOp, Block, Cmp, CondBr, Constant, Function, Value
from .passes import Pass, PassState, did_any


def reduce_divisions(fn: Function) -> int:
    """Rewrite every ``div``/``rem`` of an integer by a power of two; how many."""
    done = 0
    g = cfg_of(fn)
    for inst in [i for i in fn.instructions() if isinstance(i, BinOp)]:
        k = _log2_divisor(inst)
        if k is None:
            continue
        b = IRBuilder().before(inst)
        x = inst.operands[0]
        if _known_nonnegative(x, inst.parent, g):
            x = b.cast(x, _unsigned(x.type))
            new = b.cast(_quotient(b, x, k) if inst.op == "div" else _remainder(b, x, k), inst.type)
        else:
            new = _quotient(b, x, k) if inst.op == "div" else _remainder(b, x, k)
        new.name = inst.name
        inst.replace_all_uses_with(new)
        inst.erase()
        done += 1
    return done


def _log2_divisor(inst: BinOp) -> int | None:
    """k for ``div``/``rem`` of an integer by the constant 2^k, k >= 1."""
    if inst.op not in ("div", "rem") or not isinstance(inst.type, IntType):
        return None
    d = inst.operands[1]
    if not isinstance(d, Constant) or isinstance(d.value, float):
        return None
    v = int(d.value)
    if v < 2 or v & (v - 1) or v.bit_length() - 1 >= inst.type.bits - 1:
        return None
    return v.bit_length() - 1


# (x pred c, the edge taken) -> the least c for which x >= 0 follows
_NONNEGATIVE_FROM: dict[tuple[str, bool], int] = {
    ("gt", True): -1,
    ("ge", True): 0,
    ("le", False): -1,  # not x <= c: x > c
    ("lt", False): 0,  # not x < c: x >= c
}


def _known_nonnegative(x: Value, block: Block, g: Graph[Block]) -> bool:
    """Is ``x`` >= 0 wherever ``block`` runs: a branch on a comparison of
    ``x`` with a constant enters it (alone) only on the edge where that
    comparison says so?"""
    for cmp in (u for u in x.users if isinstance(u, Cmp) and u.operands[0] is x):
        c = cmp.operands[1]
        if not isinstance(c, Constant) or isinstance(c.value, float):
            continue
        for br in (u for u in cmp.users if isinstance(u, CondBr) and u.operands[0] is cmp):
            if br.successors[0] is br.successors[1]:
                continue
            for taken, succ in zip((True, False), br.successors):
                least = _NONNEGATIVE_FROM.get((cmp.pred, taken))
                if (
                    least is not None
                    and int(c.value) >= least
                    and g.preds[succ] == [br.parent]
                    and g.dominates(succ, block)
                ):
                    return True
    return False


def _unsigned(t: Type) -> IntType:
    assert isinstance(t, IntType)
    return IntType(t.bits, False)


def _quotient(b: IRBuilder, x: Value, k: int) -> Value:
    t = x.type
    assert isinstance(t, IntType)
    if not t.signed:
        return b.binop("shr", x, Constant(t, k))
    u = _unsigned(t)
    if k == 1:  # the bias is the sign bit
        bias = b.cast(b.binop("shr", b.cast(x, u), Constant(u, t.bits - 1)), t)
    else:
        sign = b.binop("shr", x, Constant(t, t.bits - 1))  # 0 or -1
        bias = b.cast(b.binop("shr", b.cast(sign, u), Constant(u, t.bits - k)), t)
    return b.binop("shr", b.add(x, bias), Constant(t, k))


def _remainder(b: IRBuilder, x: Value, k: int) -> Value:
    t = x.type
    assert isinstance(t, IntType)
    if not t.signed:
        return b.binop("and", x, Constant(t, (1 << k) - 1))
    q = _quotient(b, x, k)
    return b.sub(x, b.binop("shl", q, Constant(t, k)))


__all__ = ["reduce_divisions"]


def _run(state: PassState) -> int:
    return reduce_divisions(state.fn)


PASS = Pass("strength", _run, changed=did_any)
