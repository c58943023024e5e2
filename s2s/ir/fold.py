"""Constant folding of integer instructions whose operands are constants.

Full unrolling (transform.unroll) makes a loop's counter a constant in
each copy; the index computations on it (``cast``, ``add``, ``mul``) fold
to constants, so sroa sees constant element indices.  Only integer
operations whose C meaning is fixed fold (division, shifts out of range
and anything of floating type stay instructions).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence

from .types import I1, IntType
from .values import BinOp, Cast, Cmp, Constant, Instruction, Value

_OPS: dict[str, Callable[[int, int], int]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "min": min,
    "max": max,
}
COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}
"""C's comparisons by predicate, of integers and of floats (Python's agree
with C on NaN: only ``!=`` holds)."""


def wrap(value: int, t: IntType) -> int:
    """``value`` in the range of ``t`` (two's complement, as C converts)."""
    value &= (1 << t.bits) - 1
    return value - (1 << t.bits) if t.signed and value >= 1 << (t.bits - 1) else value


def fold(inst: Instruction) -> Constant | None:
    """The constant ``inst`` computes, or None."""
    return fold_with(inst, inst.operands)


def fold_with(inst: Instruction, ops: Sequence[Value]) -> Constant | None:
    """The constant ``inst`` computes with ``ops`` in place of its operands
    (values known on one path: analysis.first_trip), or None."""
    constants = [o for o in ops if isinstance(o, Constant) and isinstance(o.type, IntType)]
    if not ops or len(constants) != len(ops):
        return None
    values = [int(c.value) for c in constants]
    t = inst.type
    if isinstance(inst, Cast) and isinstance(t, IntType):
        return Constant(t, wrap(values[0], t))
    if isinstance(inst, BinOp) and inst.op in _OPS and isinstance(t, IntType):
        return Constant(t, wrap(_OPS[inst.op](values[0], values[1]), t))
    if isinstance(inst, Cmp):
        return Constant(I1, int(COMPARISONS[inst.pred](values[0], values[1])))
    return None


__all__ = ["COMPARISONS", "fold", "fold_with", "wrap"]
