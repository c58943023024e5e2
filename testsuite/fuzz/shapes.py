"""Loop nests of the annotated loop: the loop variable's type, direction,
test and step (bases chosen so that no value leaves the type), declared in
the ``for`` or before it, or a ``collapse(2)`` nest; and the iteration index
k (0..kc-1) that array subscripts use."""

from __future__ import annotations

from dataclasses import dataclass

from c_types import I8, I16, I32, I64, U8, U16, U32, U64, CType
from func_state import FuncState
from values import Value


@dataclass
class Shape:
    """The loop nest: header lines, the iteration index k and its count."""

    pre: list[str]
    header: list[str]
    k: str
    k_decl: str | None
    k_type: CType
    span_cap: int | None
    rows: str | None  # collapse: the uniform row count parameter
    iv: Value
    outside: list[Value]  # loop variables declared before the loop
    clauses: list[str]
    features: list[str]
    k_step: int | None = None
    """What k adds from one iteration (lane) to the next, None under collapse
    (k jumps between rows): the step of a linear declare simd argument."""


class LoopShapes(FuncState):
    """Picks the loop nest of one function (FuncGen.build calls make_shape)."""

    IV_TYPES = (
        ("int", I32, 8),
        ("unsigned", U32, 2),
        ("long", I64, 2),
        ("unsigned long", U64, 1),
        ("size_t", U64, 1),
        ("short", I16, 1),
        ("unsigned short", U16, 1),
        ("signed char", I8, 1),
        ("unsigned char", U8, 1.5),
        ("int64_t", I64, 1),
        ("uint32_t", U32, 1),
        ("long long", I64, 0.5),
    )

    def make_shape(self) -> Shape:
        spelled, t = self.pick_iv_type()
        if self.g.chance(0.12):
            return self.collapse_shape(spelled, t)
        return self.single_shape(spelled, t)

    def pick_iv_type(self) -> tuple[str, CType]:
        choice = self.g.weighted({(s, t): w for s, t, w in self.IV_TYPES})
        assert isinstance(choice, tuple)
        return choice

    def iv_range(self, t: CType, step: int, margin: int) -> tuple[int, int | None]:
        """(base, cap): i covers base .. base + span with span = min(n, cap).
        base - margin (the last value a decreasing loop or `<=` computes below
        base) and base + span + step stay inside t."""
        cap: int | None = None
        if t.bits == 8:
            cap = self.g.pick((60, 100) if t.signed else (60, 100, 200))
        lo = t.min_value + margin
        hi = t.max_value - (cap or 1001) - step - 1
        bases = [
            b
            for b in (
                0,
                1,
                step,
                5,
                20,
                -50,
                -100,
                1000,
                64000,
                31000,
                -32000,
                (1 << 31) - 700,
                2147481000,
                -2147483000,
                (1 << 40),
                (1 << 63) - 600,
                (1 << 64) - 2000,
                9223372036854774000,
                -9223372036854775000,
                4294965000,
                hi,
                lo,
            )
            if lo <= b <= hi
        ]
        weights = {b: (6 if b == 0 else 1) for b in bases}
        base = self.g.weighted(weights)
        assert isinstance(base, int)
        if base in (hi, lo) or base > 1000 or base < -1000:
            self.features.add("iv-extreme")
        return base, cap

    def span_decl(self, cap: int | None) -> str:
        return "const int span = n;" if cap is None else f"const int span = n < {cap} ? n : {cap};"

    def single_shape(self, spelled: str, t: CType) -> Shape:
        up = self.g.chance(0.7)
        step = self.g.pick((1, 1, 1, 2, 3))
        test = self.g.pick(("<", "<", "<=", "!=") if up else (">", ">", ">=", "!="))
        if test == "!=":
            step = 1
        margin = {"<": 0, "!=": 0, "<=": 1, ">": step - 1, ">=": step}[test]
        base, cap = self.iv_range(t, step, margin)
        B = t.literal(base)
        features = [f"iv-{t.tag}", "loop-up" if up else "loop-down", f"step-{step}", f"test-{test}"]
        pre = [self.span_decl(cap), "const int kc = span;", "(void)kc;"]
        natural = (
            base == 0
            and up
            and test == "<"
            and cap is None
            and spelled in ("int", "long", "size_t", "unsigned")
            and self.g.chance(0.5)
        )
        inline_bound = self.g.chance(0.3)
        # a step the loop reads from a variable: vectorized under a test of
        # its sign, with a version of its own for a step of 1
        runtime = test != "!=" and self.g.chance(0.15)
        by = "iv_step" if runtime else str(step)
        if runtime:
            pre.append(f"const int iv_step = {step};")
            features.append("step-runtime")

        def bound(expr: str) -> str:
            if inline_bound:
                return f"({spelled})({expr})"
            pre.append(f"const {spelled} hi = ({spelled})({expr});")
            return "hi"

        if up:
            init = B
            if natural:
                cond = "i < n" if spelled == "int" else f"i < ({spelled})n"
            elif test == "<=":
                cond = f"i <= {bound(f'{B} + span - 1')}"
            else:
                cond = f"i {test} {bound(f'{B} + span')}"
            incr = (
                self.g.pick(("i++", "++i", f"i += {by}", f"i = i + {by}"))
                if step == 1 and not runtime
                else self.g.pick((f"i += {by}", f"i = i + {by}"))
            )
            koff = base
        else:
            if test == ">=":
                init = f"({spelled})({B} + span - 1)"
                koff = base
            else:
                init = f"({spelled})({B} + span)"
                koff = base + 1
            cond = f"i {test} {B}"
            incr = (
                self.g.pick(("i--", "--i", f"i -= {by}"))
                if step == 1 and not runtime
                else f"i -= {by}"
            )
        outside = self.g.chance(0.2)
        iv = Value("i", t, uniform=False)
        k, k_decl, k_type = self.k_expr("i", t, koff, pre_rows=None)
        clauses = []
        if outside:
            pre.append(f"{spelled} i = {t.literal(0)};")
            header = [f"for (i = {init}; {cond}; {incr})"]
            features.append("iv-outside")
            if up and self.g.chance(0.3):
                clauses.append(f"linear(i:{step})")
        else:
            header = [f"for ({spelled} i = {init}; {cond}; {incr})"]
        return Shape(
            pre,
            header,
            k,
            k_decl,
            k_type,
            cap,
            None,
            iv,
            [iv] if outside else [],
            clauses,
            features,
            k_step=step if up else -step,
        )

    def k_expr(
        self, var: str, t: CType, koff: int, pre_rows: str | None
    ) -> tuple[str, str | None, CType]:
        """The iteration index k in 0..kc-1 (array subscripts), inline or declared."""
        diff = var if koff == 0 else f"{var} - {t.literal(koff)}"
        if pre_rows is not None:
            return "k", f"const int k = {pre_rows} * span + (int)({diff});", I32
        if koff == 0 and t.bits >= 32 and t.signed is not None and self.g.chance(0.6):
            return var, None, t
        if self.g.chance(0.5):
            return "k", f"const int k = (int)({diff});", I32
        return f"(int)({diff})", None, I32

    def collapse_shape(self, spelled: str, t: CType) -> Shape:
        step = self.g.pick((1, 1, 2))
        base, cap = self.iv_range(t, step, 0)
        rows = self.scalar(I32, 0, 3, prefix="rows")
        B = t.literal(base)
        pre = [
            self.span_decl(cap),
            f"const int kc = {rows.name} * span;",
            "(void)kc;",
            f"const {spelled} hi = ({spelled})({B} + span);",
        ]
        outside_r = self.g.chance(0.4)
        outside_c = self.g.chance(0.3)
        clauses = ["collapse(2)"]
        outside: list[Value] = []
        rv = Value("r", I32, uniform=False)
        cv = Value("c", t, uniform=False)
        if outside_r:
            pre.append("int r = 0;")
            outside.append(rv)
            if self.g.chance(0.5):
                clauses.append("lastprivate(r)")
        if outside_c:
            pre.append(f"{spelled} c = {t.literal(0)};")
            outside.append(cv)
            if self.g.chance(0.5):
                clauses.append("lastprivate(c)")
        incr = "c++" if step == 1 else f"c += {step}"
        header = [
            f"for ({'' if outside_r else 'int '}r = 0; r < {rows.name}; r++)",
            f"    for ({'' if outside_c else spelled + ' '}c = {B}; c < hi; {incr})",
        ]
        k, k_decl, k_type = self.k_expr("c", t, base, pre_rows="r")
        self.features.add("collapse")
        features = [f"iv-{t.tag}", "collapse", f"step-{step}"]
        if any(c.startswith("lastprivate") for c in clauses):
            features.append("collapse-lastprivate")
        return Shape(pre, header, k, k_decl, k_type, cap, rows.name, cv, outside, clauses, features)
