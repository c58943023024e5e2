"""One function with one annotated loop: the loop nest, the data-sharing
clauses (reduction, lastprivate, private, linear, simdlen, safelen, ...)
and the body, from the generator's parts combined in FuncGen."""

from __future__ import annotations

from dataclasses import replace

from c_types import I32, I64, U32, U64, CType
from control import ControlFlow
from declare_simd import DeclareSimdCalls
from func_text import FunctionText
from shapes import LoopShapes
from values import Reduction, Result, Value

UDR_COMBINERS = {
    "+": "omp_out += omp_in",
    "min": "omp_out = omp_in < omp_out ? omp_in : omp_out",
    "max": "omp_out = omp_in > omp_out ? omp_in : omp_out",
    "|": "omp_out |= omp_in",
    "&": "omp_out &= omp_in",
    "^": "omp_out ^= omp_in",
}
"""Integer reductions a ``declare reduction`` may stand for."""


def declare_reduction(name: str, t: CType, op: str) -> str:
    """``#pragma omp declare reduction`` of ``op`` for ``t`` (block scope,
    before the loop): the identity as the initializer, or none where it is
    0 (a private copy then starts as 0)."""
    start = {"min": t.max_value, "max": t.min_value, "&": t.max_value if not t.signed else -1}
    init = f" initializer(omp_priv = {t.literal(start[op])})" if op in start else ""
    return f"#pragma omp declare reduction({name} : {t.name} : {UDR_COMBINERS[op]}){init}"


class FuncGen(ControlFlow, DeclareSimdCalls, LoopShapes, FunctionText):
    """Generates one function: ``build`` gives its text and main's code."""

    def build(self) -> tuple[str, list[str]]:
        """The function's text and main's code for one size (inside S2S_FOR_SIZES)."""
        self.shape = self.make_shape()
        self.k = self.shape.k
        sh = self.shape
        pre = list(sh.pre)
        clauses = list(sh.clauses)
        self.features.update(sh.features)
        for v in sh.outside:
            self.results.append(Result(v, "exact", only_if_trip=sh.rows is not None))
        body_pre: list[str] = []
        self.scopes = [[]]
        if sh.k_decl:
            body_pre.append(sh.k_decl)
        self.scopes[0].append(sh.iv)
        if sh.k_decl:
            self.scopes[0].append(Value("k", sh.k_type, uniform=False))
        # data-sharing clauses
        reds: dict[str, list[str]] = {}
        for _ in range(self.g.pick((0, 0, 1, 1, 2, 3))):
            red = self.new_reduction(pre)
            reds.setdefault(red.declared or red.op, []).append(red.var.name)
        clauses += [f"reduction({op}:{', '.join(names)})" for op, names in reds.items()]
        if self.g.chance(0.25):
            pre_lines, assign = self.new_lastprivate(private=False)
            pre += pre_lines
            body_pre += assign
            clauses.append(f"lastprivate({self.results[-1].value.name})")
        if self.g.chance(0.2):
            v = Value(self.fresh("pv"), self.pick_type(), uniform=False)
            pre.append(f"{v.type.name} {v.name} = {self.const(v.type)};")
            body_pre.append(f"{v.name} = {self.expr(v.type, 2)};")
            self.scopes[0].append(v)
            clauses.append(f"private({v.name})")
            self.features.add("private")
        if sh.rows is None and self.g.chance(0.25):
            clauses.append(self.new_linear(pre))
            self.no_continue = True
        clauses += self.extra_clauses()
        if any(c.startswith("safelen") for c in clauses):
            # a safelen shorter than a target's vectors keeps the loop scalar
            # there, and a compiler that honours the pragma (clang with
            # -fopenmp-simd) leaves a loop variable declared outside the loop
            # at 0 after no trip, where the sequential program keeps its
            # start: OpenMP leaves that value open, so it is printed only
            # after a trip
            outside = {v.name for v in sh.outside}
            self.results = [
                replace(r, only_if_trip=True) if r.value.name in outside else r
                for r in self.results
            ]
        n_stmts = self.g.rng.randint(*self.g.options.statements)
        self.scopes.append([])
        body = body_pre
        for _ in range(n_stmts):
            body += self.stmt(0)
        for red in self.reductions:
            if not red.updated:
                body += self.reduction_update(red)
        privates = [v for v in self.scopes[0] if v.name.startswith("pv")]
        body += self.sink_unused(self.scopes[-1] + privates, body)
        self.scopes.pop()
        if self.prog.conditional.random() < 0.3:
            body += self.conditional_lastprivate(pre, clauses)
        for v, step, _ in self.linear:
            body.append(f"{v.name} += {step};")
        pragma, feature = self.prog.loop_pragma(
            self.directive() + "".join(f" {c}" for c in clauses)
        )
        if feature:
            self.features.add(feature)
        return self.function_text(pre, pragma, body), self.main_lines()

    def directive(self) -> str:
        r = self.g.rng.random()
        if r < 0.05:
            self.features.add("for-simd")
            return "for simd"
        return "simd"

    def extra_clauses(self) -> list[str]:
        out = []
        r = self.g.rng.random()
        if r < 0.08:
            out.append(f"simdlen({self.g.pick((2, 4, 8))})")
        elif r < 0.14:
            out.append(f"safelen({self.g.pick((2, 4, 8, 16))})")
        elif r < 0.18:
            out += ["simdlen(4)", "safelen(8)"]
        if self.g.chance(0.04):
            out.append("order(concurrent)")
        if self.g.chance(0.04):
            u = self.uniform_scalar(I32)
            out.append(f"if(simd: {u.name} > 2)")
        if out:
            self.features.add("clauses")
        return out

    def new_reduction(self, pre: list[str]) -> Reduction:
        t = self.pick_type()
        ops = (
            ["+", "*", "min", "max", "-"]
            if t.floating
            else ["+", "*", "min", "max", "&", "|", "^", "-", "&&", "||"]
        )
        op = self.g.pick(ops)
        if op in ("&&", "||"):
            t = I32
        v = Value(self.fresh("s"), t, uniform=False)
        init = {"*": t.literal(1) if not t.floating else t.literal(1.5), "&&": "1", "||": "0"}.get(
            op, self.const(t)
        )
        if t.floating and op in ("min", "max"):
            init = t.literal(1e30 if op == "min" else -1e30)
        elif t.floating and op in "+-":  # terms move away from zero: no cancellation
            init = t.literal(0.5 if op == "+" else -0.5)
        elif t.signed and t.bits >= 32 and op in "+-":  # bounded sums cannot overflow
            init = t.literal(self.g.rng.randint(-1000, 1000))
        pre.append(f"{t.name} {v.name} = {init};")
        red = Reduction(v, op)
        if not t.floating and t.tag != "char" and op in UDR_COMBINERS and self.g.chance(0.15):
            red.declared = self.fresh("udr")
            pre.append(declare_reduction(red.declared, t, op))
            self.features.add("declare-reduction")
        self.reductions.append(red)
        kind = ("red" if op in "+-*" else "minmax") if t.floating else "exact"
        self.results.append(Result(v, kind, only_if_trip=False))
        self.features.add(f"reduction-{op}")
        if t.floating and op in "+-*":
            self.prog.float_reduction(t)
        return red

    def new_lastprivate(self, private: bool) -> tuple[list[str], list[str]]:
        t = self.pick_type()
        v = Value(self.fresh("lp"), t, uniform=False)
        pre = [f"{t.name} {v.name} = {self.const(t)};"]
        assign = [f"{v.name} = {self.expr(t, 2)};"]
        self.scopes[0].append(v)
        self.results.append(Result(v, "exact", only_if_trip=True))
        self.features.add("lastprivate")
        return pre, assign

    def conditional_lastprivate(self, pre: list[str], clauses: list[str]) -> list[str]:
        """``lastprivate(conditional: lc)`` assigned a value of the loop
        variable in the iterations a test of it picks (the variable ends
        with the last such iteration's value, as the scalar loop's; a
        speculated select(c, i, undef) once gave lane 0's).  Drawn from the
        program's ``conditional`` stream: the other choices stay as they were."""
        r = self.prog.conditional
        t = r.choice((I32, I64, U32, U64))
        v = Value(self.fresh("lc"), t, uniform=False)
        pre.append(f"{t.name} {v.name} = {t.literal(r.randint(0, 9))};")
        clauses.append(f"lastprivate(conditional: {v.name})")
        self.results.append(Result(v, "exact", only_if_trip=False))
        self.features.add("lastprivate-conditional")
        iv = self.shape.iv.name
        m, a, b = r.randint(2, 7), r.randint(1, 5), r.randint(0, 9)
        mul, add = r.choice((3, 7, 11)), r.randint(0, 5)
        test = f"(uint32_t)((uint32_t){iv} * {mul}u + {add}u) % {m}u == 0u"
        # in uint64_t: no signed overflow, whatever the loop variable's range
        return [f"if ({test}) {v.name} = ({t.name})((uint64_t){iv} * {a}u + {b}u);"]

    def new_linear(self, pre: list[str]) -> str:
        t = self.g.pick((I32, I64, U32, U64))
        step = self.g.pick((1, 2, 3))
        v = Value(self.fresh("ln"), t, uniform=False)
        pre.append(f"{t.name} {v.name} = {t.literal(self.g.rng.randint(0, 3))};")
        out = self.array(self.pick_type(), "out")
        assert out is not None
        out.index = v.name
        self.linear.append((v, step, out))
        self.scopes[0].append(v)
        self.results.append(Result(v, "exact", only_if_trip=False))
        self.features.add("linear")
        return f"linear({v.name}:{step})"
