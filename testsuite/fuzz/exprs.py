"""Expressions of a given C type: constants, values in scope, loads
(contiguous, strided, gathered, uniform), integer and float arithmetic in
UB-free forms (c_types.py), comparisons, conditions and selects."""

from __future__ import annotations

import re
from collections.abc import Callable

from c_text import math_fn
from c_types import (
    CHAR,
    F32,
    I8,
    I32,
    I64,
    INT_TYPES,
    U8,
    U16,
    U32,
    CType,
    cast,
    float_to_int,
    int_arith,
    int_bitwise,
    int_div,
    int_neg,
    int_shift,
)
from func_state import FuncState
from options import MAX_TAILS, TABLE
from values import Array

MATH_FUNCS = (
    "exp",
    "log",
    "sin",
    "cos",
    "tan",
    "atan",
    "exp2",
    "log2",
    "log10",
    "cbrt",
    "erf",
    "tanh",
)


class Expressions(FuncState):
    """Expressions of one function (``uniform``: only of values the same in
    every lane)."""

    def const(self, t: CType) -> str:
        if t.floating:
            return t.literal(
                self.g.pick((0.0, -0.0, 0.5, 1.0, -1.0, 2.0, 3.5, 0.001, 100.0, -7.25, 1e30, 0.1))
            )
        if t is CHAR:
            return t.literal(self.g.pick((0, 1, 2, 7, 65, 100, 127, -1)))
        choices = [
            0,
            1,
            2,
            3,
            5,
            7,
            8,
            15,
            16,
            31,
            100,
            127,
            255,
            1000,
            t.max_value,
            t.max_value - 1,
            t.min_value,
        ]
        if t.signed:
            choices += [-1, -2, -100, t.min_value + 1]
        choices.append(self.g.rng.randint(t.min_value, t.max_value))
        return t.literal(self.g.pick([c for c in choices if t.min_value <= c <= t.max_value]))

    def convert(self, text: str, src: CType, dst: CType) -> str:
        if src is dst:
            return text
        if src.floating and not dst.floating:
            return float_to_int(src, dst, text)
        if (
            not self.g.options.narrow_index
            and not dst.floating
            and dst.bits < src.bits
            and self.steps_per_lane(text)
        ):
            return cast(dst, f"({text}) & 63")
        return cast(dst, text)

    def steps_per_lane(self, text: str) -> bool:
        """Whether `text` mentions a value that steps from lane to lane (the
        loop variable, k, a linear variable)."""
        names = {
            self.shape.iv.name,
            "k",
            *(v.name for v, _, _ in self.linear),
            *(v.name for v in self.visible() if v.steps),
        }
        return any(re.search(rf"\b{re.escape(n)}\b", text) for n in names)

    def leaf(self, t: CType, uniform: bool) -> str:
        vals = [v for v in self.visible() if (v.uniform or not uniform)]
        vals += [s.value for s in self.scalars if s.value.name[0] == "u"]
        same = [v for v in vals if v.type is t]
        r = self.g.rng.random()
        if r < 0.35 and same:
            v = self.g.pick(same)
            return v.name
        if r < 0.45 and vals:
            v = self.g.pick(vals)
            return self.convert(v.name, v.type, t)
        if r < 0.55 or uniform:
            if uniform and self.g.chance(0.5):
                v = self.uniform_scalar(t)
                return v.name
            return self.const(t)
        if r < 0.62 or self.in_index_expr:
            return self.convert(self.k, self.shape.k_type, t)
        return self.load(t)

    def load(self, t: CType) -> str:
        r = self.g.rng.random()
        if r < 0.7:
            a = self.input(t)
            if a is not None and self.shape.rows is None and self.g.chance(0.06):
                return self.record_ends(a, t)
            if a is not None:
                return f"{a.name}[{self.in_index(a)}]"
        tb = self.table(t)
        self.features.add("gather")
        if tb.name in self.rows and self.g.chance(0.7):
            return self.row_element(tb)
        if r < 0.85 and self.tails < MAX_TAILS:
            gi = self.array(self.g.pick((I32, U32, I64, U16)), "gidx")
            assert gi is not None
            if self.g.chance(0.2):
                row = self.g.pick((2, 3, 4, 5, 8))
                rows = TABLE // row  # the row start: a signed int (C: no wrap)
                self.rows[tb.name] = (f"(int32_t)((uint32_t){gi.name}[{self.k}] % {rows}u)", row)
                return self.row_element(tb)
            return f"{tb.name}[{gi.name}[{self.k}]]"
        if r < 0.93 or not self.inner:
            it = self.g.pick([x for x in INT_TYPES if x.bits >= 16] + [I32])
            self.in_index_expr = True
            e = self.expr(it, 1, uniform=False)
            self.in_index_expr = False
            return f"{tb.name}[({it.arith})({e}) & {TABLE - 1}u]"
        j, _ = self.inner[-1]
        self.features.add("uniform-load")
        return f"{tb.name}[{j}]"

    def row_element(self, tb: Array) -> str:
        """An element of the table's row at its row index: loads of one row
        that a vectorizer may copy per lane and transpose (the last row
        ends at the table's end)."""
        index, row = self.rows[tb.name]
        self.features.add("gather-row")
        return f"{tb.name}[{index} * {row} + {self.g.rng.randrange(row)}]"

    def record_ends(self, a: Array, t: CType) -> str:
        """The first and the last element of the iteration's record of s
        elements, combined: an array read at a stride that may move as
        whole records (s2s.analysis.records needs both ends)."""
        s = self.g.pick((2, 3, 4))
        a.reads += [(s, 0), (s, s - 1)]
        self.features.add("strided-record")
        base = f"({self.k}) * {s}"
        first, last = f"{a.name}[{base}]", f"{a.name}[{base} + {s - 1}]"
        return f"({first} + {last})" if t.floating else f"(({t.name})({first} ^ {last}))"

    def in_index(self, a: Array) -> str:
        if self.inner and self.g.chance(0.4):
            j, jmax = self.inner[-1]
            a.reads.append((1, jmax))
            return f"{self.k} + {j}"
        if self.shape.rows is not None or self.g.chance(0.7):
            s = 1
        else:
            s = self.g.pick((2, 3))
            self.features.add("strided-load")
        d = self.g.pick((0, 0, 0, 1, 2, 3))
        a.reads.append((s, d))
        base = self.k if s == 1 else f"({self.k}) * {s}"
        return base if d == 0 else f"{base} + {d}"

    def expr(self, t: CType, depth: int, uniform: bool = False) -> str:
        if depth <= 0 or self.g.chance(0.25):
            return self.leaf(t, uniform)
        if t.floating:
            return self.float_expr(t, depth, uniform)
        return self.int_expr(t, depth, uniform)

    def int_expr(self, t: CType, depth: int, uniform: bool) -> str:
        kind = self.g.weighted(
            {
                "arith": 4,
                "bit": 2,
                "shift": 1.2,
                "div": 1,
                "unary": 0.8,
                "minmax": 1,
                "cmp": 1,
                "select": 1.2,
                "convert": 1.5,
            }
        )

        def sub():
            return self.expr(t, depth - 1, uniform)

        def leaf():
            return self.leaf(t, uniform)

        if kind == "arith":
            return int_arith(t, self.g.pick("+-*"), sub(), sub(), self.g.chance(0.5))
        if kind == "bit":
            return int_bitwise(t, self.g.pick("&|^"), sub(), sub())
        if kind == "shift":
            op = self.g.pick(("<<", ">>"))
            count = (
                str(self.g.rng.randint(0, t.promoted_bits - 1))
                if self.g.chance(0.5)
                else self.expr(self.g.pick((I32, U8, I64, t)), depth - 1, uniform)
            )
            return int_shift(t, op, sub(), count)
        if kind == "div":
            self.features.add("division")
            op = self.g.pick("/%")
            form = self.g.pick(("guard", "guard", "safe", "const"))
            if form == "const":
                form = self.g.pick(("3", "7", "16", "255") + (("-3", "-128") if t.signed else ()))
            a, b = self.two(leaf, t)
            if form == "guard" and b == t.literal(0):  # dead a / 0 is still a warning
                form = "safe"
            return int_div(t, op, a, b, form)
        if kind == "unary":
            a = sub()
            if self.g.chance(0.5):
                return int_neg(t, a)
            return cast(t, f"~{leaf()}")
        if kind == "minmax":
            a, b = self.two(leaf, t)
            return f"({a} {self.g.pick(('<', '>'))} {b} ? {a} : {b})"
        if kind == "cmp":  # (T)(a < b) compared to a constant is a warning: select constants
            u = self.pick_type()
            c1, c2 = self.two(lambda: self.const(t), t)
            return f"({self.compare(u, depth - 1, uniform)} ? {c1} : {c2})"
        if kind == "select":
            self.mark("select")
            return f"({self.cond(depth - 1, uniform)} ? {sub()} : {sub()})"
        u = self.pick_type()
        inner = self.leaf(u, uniform) if u.floating else self.expr(u, depth - 1, uniform)
        return self.convert(inner, u, t)

    def float_expr(self, t: CType, depth: int, uniform: bool) -> str:
        kind = self.g.weighted(
            {
                "arith": 5,
                "unary": 1,
                "exact": 1.5,
                "minmax": 0.8,
                "fma": 0.4,
                "select": 1.2,
                "convert": 1.5,
                "libm": 1.0 if self.prog.math_exact else 0,
            }
        )

        def sub():
            return self.expr(t, depth - 1, uniform)

        if kind == "arith":
            return f"({sub()} {self.g.pick('+-*/')} {sub()})"
        if kind == "unary":
            return f"(-({sub()}))"
        if kind == "exact":
            fn = self.g.pick(("fabs", "sqrt", "floor", "ceil", "trunc", "round"))
            return f"{math_fn(t, fn)}({sub()})"
        if kind == "minmax":
            fn = self.g.pick(("fmin", "fmax"))
            # fmin(-0, +0) may return either zero: make the sign of zero canonical
            return f"({math_fn(t, fn)}({sub()}, {sub()}) + {t.literal(0.0)})"
        if kind == "fma":
            # + 0: clang on AArch64 folds -(fma(a, b, c)) into fnmadd, which
            # differs from it in the sign of an exact zero (reference: gcc)
            return f"({math_fn(t, 'fma')}({sub()}, {sub()}, {sub()}) + {t.literal(0.0)})"
        if kind == "select":
            self.mark("select")
            return f"({self.cond(depth - 1, uniform)} ? {sub()} : {sub()})"
        if kind == "libm":
            self.features.add("libm")
            fn = self.g.pick(MATH_FUNCS)
            return f"{math_fn(t, fn)}({sub()})"
        u = self.pick_type()
        return self.convert(self.expr(u, depth - 1, uniform), u, t)

    def compare(self, t: CType, depth: int, uniform: bool) -> str:
        op = self.g.pick(("<", "<=", ">", ">=", "==", "!="))
        a, b = self.two(lambda: self.expr(t, depth, uniform), t)
        return f"({a} {op} {b})"

    def two(self, make: Callable[[], str], t: CType) -> tuple[str, str]:
        """Two operands of type t, not the same text (x < x is a constant and
        a warning): the second becomes x + 1 or x - 1 if need be, wrapping
        (a plain ``x + 1`` of a 32- or 64-bit signed x may overflow: fuzz
        seed 20600973, where gcc folded ``x < x + 1`` and its UBSan saw
        nothing)."""
        a, b = make(), make()
        for _ in range(3):
            if a != b:
                break
            b = make()
        if a == b:
            op = self.g.pick("+-")
            b = f"({b} {op} 1)" if t.floating else int_arith(t, op, b, t.literal(1), True)
        return a, b

    def cond(self, depth: int, uniform: bool) -> str:
        r = self.g.rng.random()
        if depth > 0 and r < 0.2:
            self.mark("logical")
            op = self.g.pick(("&&", "||"))
            return f"({self.cond(depth - 1, uniform)} {op} {self.cond(depth - 1, uniform)})"
        if depth > 0 and r < 0.27:
            return f"(!{self.cond(depth - 1, uniform)})"
        if not uniform and r < 0.42 and self.tails < MAX_TAILS:
            m = self.mask_array()
            return f"({m.name}[{self.k}] != 0)"
        if not uniform and r < 0.5:
            return (
                f"({self.k} {self.g.pick(('<', '>=', '=='))} {self.leaf(self.shape.k_type, True)})"
            )
        t = self.pick_type()
        if not t.floating and r < 0.6:
            return f"(({self.leaf(t, uniform)} & {self.g.pick((1, 2, 3, 4, 7))}) != 0)"
        return self.compare(t, min(depth, 1), uniform)

    def mask_array(self) -> Array:
        existing = [a for a in self.arrays if a.role == "mask"]
        if existing and (self.g.chance(0.5) or self.tails >= MAX_TAILS):
            return self.g.pick(existing)
        a = self.array(self.g.pick((U8, I32, I8, I64, F32)), "mask")
        assert a is not None
        return a

    def small_index(self, uniform: bool = False) -> str:
        """An int 0..7 from data (a trip count, a case label, a local array index)."""
        return f"(int)(({self.expr(self.int_type(), 1, uniform)}) & 7)"
