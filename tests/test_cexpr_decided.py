"""Integer comparisons whose type decides them are written as their value.

gcc warns about ``x >= 0u``, ``x < INT_MIN`` (-Wtype-limits) and ``x < x``
(-Wtautological-compare) under -Wextra, and the IR after the transforms can
hold them (constants propagated into range checks, two values that CSE
made one; fuzz seeds 12, 61 and 63), so s2s.codegen.cexpr writes their
value.  Checked exhaustively on 8-bit types: a comparison is folded only
when every value of the type gives that result.
"""

from __future__ import annotations

import itertools
import operator

import pytest

from s2s.codegen.cexpr import scalar_expr
from s2s.ir.types import IntType
from s2s.ir.values import Argument, Cmp, Constant

OPS = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}


@pytest.mark.parametrize("signed", [True, False])
def test_folded_only_when_every_value_agrees(signed: bool) -> None:
    t = IntType(8, signed)
    values = range(-128, 128) if signed else range(256)
    x = Argument(t, "x", 0)
    folded = 0
    for pred, c in itertools.product(OPS, values):
        for cmp, truth in (
            (Cmp(pred, x, Constant(t, c)), [OPS[pred](v, c) for v in values]),
            (Cmp(pred, Constant(t, c), x), [OPS[pred](c, v) for v in values]),
        ):
            text = scalar_expr(cmp, ["x", "c"])
            if text in ("0", "1"):
                folded += 1
                assert set(truth) == {text == "1"}, (pred, c, text)
    # x < MIN, x >= MIN, x > MAX, x <= MAX and the mirrored forms
    assert folded == 8


def test_a_value_compared_with_itself() -> None:
    t = IntType(32, True)
    x = Argument(t, "x", 0)
    assert [scalar_expr(Cmp(p, x, x), ["x", "x"]) for p in OPS] == ["1", "0", "0", "1", "0", "1"]
    y = Argument(t, "y", 1)
    assert scalar_expr(Cmp("lt", x, y), ["x", "y"]) == "(x < y)"
