"""Comparisons whose operands' type decides them, folded to constants.

An integer comparison of a value with itself, or with its type's least or
greatest value (``x >= 0u``, ``x < INT_MIN``), has one result whatever the
value.  Written as C, gcc warns about it (-Wtautological-compare,
-Wtype-limits), and a code generator that writes the known result leaves
the operands' C variables unread.  Folding them to constants before code is
made lets dead code elimination remove those operands.
"""

from __future__ import annotations

from ..ir.types import I1, IntType, VectorType, element_type
from ..ir.values import Cmp, Constant, Function, Value
from ..ir.vector import Splat

_MIRROR = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def decided_comparison(inst: Cmp) -> bool | None:
    """The result of ``inst`` when its operands' type decides it, else None."""
    a, b = inst.operands
    t = element_type(a.type)
    if not isinstance(t, IntType) or t.bits == 1:
        return None
    if a is b:
        return inst.pred in ("eq", "le", "ge")
    if isinstance(b, Constant):
        pred, c = inst.pred, _int_value(b, t)
    elif isinstance(a, Constant):
        pred, c = _MIRROR[inst.pred], _int_value(a, t)
    else:
        return None
    low, high = (
        (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else (0, (1 << t.bits) - 1)
    )
    known = {("lt", low): False, ("ge", low): True, ("gt", high): False, ("le", high): True}
    return known.get((pred, c))


def _int_value(c: Constant, t: IntType) -> int:
    """The constant as a value of ``t`` (its bits read with t's signedness)."""
    bits = int(c.value) & ((1 << t.bits) - 1)
    return bits - (1 << t.bits) if t.signed and bits >> (t.bits - 1) else bits


def fold_decided_comparisons(fn: Function) -> int:
    """Replace every decided comparison of ``fn`` by its result (a splat of
    it for a vector comparison); returns how many."""
    folded = 0
    for block in fn.blocks:
        for inst in list(block.instructions):
            if not isinstance(inst, Cmp) or inst.mask is not None:
                continue
            known = decided_comparison(inst)
            if known is None:
                continue
            value: Value = Constant(I1, int(known))
            if isinstance(inst.type, VectorType):
                value = Splat(value, inst.type, inst.name)
                block.insert(block.instructions.index(inst), value)
            inst.replace_all_uses_with(value)
            inst.erase()
            folded += 1
    return folded
