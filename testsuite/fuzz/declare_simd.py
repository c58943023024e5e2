"""``declare simd`` functions of a program and the loops' calls to them.

A call site (DeclareSimdCalls.stmt_declare_simd) passes varying, uniform
(values and pointers) and linear (the loop's k with its step, ``&a[k]``)
arguments, unmasked or under a divergent condition: ``inbranch`` functions
only under a condition, ``notinbranch`` ones only where every lane runs.
The function gets a body of its own (SimdBody) and is written one of the
ways of LINKAGES (``written_as``; the program, program.py, keeps the texts)."""

from __future__ import annotations

from dataclasses import dataclass

from c_text import indent, paren
from c_types import I32, CType, int_arith, int_bitwise
from options import Gen
from stmts import Statements
from values import Value


@dataclass
class SimdParam:
    """A parameter of a generated declare simd function."""

    name: str
    type: CType
    kind: str  # varying | uniform | uniform-ptr | linear:STEP | linear-ptr:STEP

    def decl(self) -> str:
        if self.kind.endswith("ptr") or self.kind.startswith("linear-ptr"):
            return f"const {self.type.name} *{self.name}"
        return f"{self.type.name} {self.name}"

    def term(self, t: CType) -> str:
        """The parameter's value as a t."""
        text = {"uniform-ptr": "p[i]"}.get(self.kind, "*q" if self.name == "q" else self.name)
        if self.type is t:
            return text
        return f"(({t.name})({text}))"


LINKAGES = (
    "extern",
    "static",
    "static inline",
    "inline",
    "header-declaration",
    "header-definition",
)
"""How a declare simd function is written (DeclareSimdForm); ``extern``: the
definition with the pragma in the program, as before issue 19."""


class DeclareSimdCalls(Statements):
    """Call sites of new declare simd functions in one function's loop."""

    def stmt_declare_simd(self, depth: int) -> list[str]:
        """A call to a declare simd function of this file: varying, uniform
        and linear arguments, unmasked or under a divergent condition.
        inbranch functions are called only under a condition and
        notinbranch ones only where every lane runs (as OpenMP requires)."""
        self.features.add("declare-simd")
        # the widest type mostly: its variants' vlen is the loop's width (others run per lane)
        widest = max(self.types, key=lambda x: x.bits)
        t = widest if self.g.chance(0.7) else self.pick_type()
        conditional = bool(self.cond_depth or self.continued)
        masked = conditional or self.g.chance(0.4)
        branch = self.g.pick(("", "inbranch") if masked else ("", "notinbranch"))
        if branch:
            self.features.add(f"declare-simd-{branch}")
        params, args = self.simd_args(t)
        name = self.prog.declare_simd(t, params, branch)
        v = Value(self.fresh("t"), t, uniform=False)
        call = f"{name}({', '.join(args)})"
        if conditional:
            self.features.add("declare-simd-masked")
            lines = [f"{t.name} {v.name} = {call};"]
        elif masked:
            self.features.add("declare-simd-masked")
            c = self.cond(2, False)
            lines = [
                f"{t.name} {v.name} = {self.expr(t, 1)};",
                *self.arms(True, lambda: [f"if {paren(c)} {{", f"    {v.name} = {call};", "}"]),
            ]
        else:
            lines = [f"{t.name} {v.name} = {call};"]
        self.declare(v)
        return lines

    def simd_args(self, t: CType) -> tuple[list[SimdParam], list[str]]:
        """The parameters of a new declare simd function and this call's arguments."""
        params = [SimdParam("x", t, "varying")]
        args = [self.expr(t, 2)]
        if self.g.chance(0.6):
            params.append(SimdParam("s", t, "uniform"))
            args.append(self.leaf(t, True))
        if self.g.chance(0.3):
            u = self.int_type()
            params.append(SimdParam("y", u, "varying"))
            args.append(self.expr(u, 1))
        step = self.shape.k_step
        if step is not None and self.g.chance(0.6):  # k steps by `step` from lane to lane
            params.append(SimdParam("i", I32, f"linear:{step}"))
            args.append(f"(int)({self.k})")
            a = self.input(t) if self.g.chance(0.6) else None
            if a is not None:
                a.reads.append((1, 0))
                params.append(SimdParam("p", t, "uniform-ptr"))
                args.append(a.name)
        if step is not None and self.g.chance(0.25):
            a = self.input(t)
            if a is not None:
                a.reads.append((1, 0))
                params.append(SimdParam("q", t, f"linear-ptr:{step}"))
                args.append(f"&{a.name}[{self.k}]")
        order = list(range(len(params)))
        self.g.rng.shuffle(order)
        for p in params:
            self.features.add("declare-simd-" + p.kind.split(":")[0])
        return [params[i] for i in order], [args[i] for i in order]


class SimdBody:
    """The body of a declare simd function: UB-free arithmetic on its
    parameters, a divergent if/else, a divergent loop and an early return
    (each by chance), every parameter used."""

    def __init__(self, gen: Gen, t: CType, params: list[SimdParam]) -> None:
        self.g = gen
        self.t = t
        self.params = params
        self.terms = [p.term(t) for p in params]
        self.used: set[str] = set()

    def term(self) -> str:
        x = self.g.pick(self.terms)
        self.used.add(x)
        return x

    def combine(self, a: str, b: str) -> str:
        t = self.t
        if t.floating:
            return f"({a} {self.g.pick('+-*')} {b})"
        op = self.g.pick("+-*^")
        return int_bitwise(t, "^", a, b) if op == "^" else int_arith(t, op, a, b, True)

    def cond(self) -> str:
        if not self.t.floating and self.g.chance(0.4):
            return f"(({self.term()}) & {self.g.pick((1, 2, 3, 5))}) != 0"
        a, b = self.term(), self.term()
        if a == b:
            b = self.t.literal(self.g.pick((0, 1, 3)) if not self.t.floating else 0.5)
        return f"{a} {self.g.pick(('<', '>', '<=', '>=', '!='))} {b}"

    def lines(self) -> list[str]:
        t = self.t
        a = self.term()
        b = self.g.pick([x for x in self.terms if x != a] or [t.literal(1)])
        self.used.add(b)
        out = [f"{t.name} r = {self.combine(a, b)};"]
        if self.g.chance(0.6):
            out += [
                f"if ({self.cond()}) {{",
                f"    r = {self.combine('r', self.term())};",
                "} else {",
                f"    r = {self.combine(self.term(), 'r')};",
                "}",
            ]
        if self.g.chance(0.4):
            count = (
                f"(({self.term()}) > {t.literal(0.0)}) ? 3 : 1"
                if t.floating
                else f"(int)(({self.term()}) & 7)"
            )
            out += [
                f"int c = {count};",
                "while (c > 0) {",
                f"    r = {self.combine('r', self.term())};",
                "    c--;",
                "}",
            ]
        if self.g.chance(0.3):
            out += [f"if ({self.cond()}) {{", f"    return {self.combine('r', self.term())};", "}"]
        ret = "r"
        for x in self.terms:
            if x not in self.used:
                ret = self.combine(ret, x)
        return out + [f"return {ret};"]


def simd_pragma(params: list[SimdParam], branch: str, simdlen: int = 0) -> str:
    """The ``declare simd`` pragma of a function of `params` (a ``simdlen``
    other than the ABI's: loops take the lanes of narrower variants)."""
    uniform = [p.name for p in params if p.kind.startswith("uniform")]
    linear = [f"{p.name}:{p.kind.split(':')[1]}" for p in params if p.kind.startswith("linear")]
    pragma = "#pragma omp declare simd"
    pragma += f" uniform({', '.join(uniform)})" if uniform else ""
    pragma += "".join(f" linear({x})" for x in linear)  # one step per clause
    pragma += f" {branch}" if branch else ""
    pragma += f" simdlen({simdlen})" if simdlen else ""
    return pragma


def written_as(form: str, pragma: str, signature: str, body: list[str]) -> tuple[str, list[str]]:
    """The program's text of a declare simd function written as `form` (one
    of LINKAGES) and the lines the program's header gets:

        extern               the pragma and the definition
        static               ... a static definition (static variants)
        static inline        ... a static inline one
        inline               a C99 inline definition and an extern
                             declaration: this file has the external one
        header-declaration   the pragma only on a declaration in the
                             header, the definition here without it
        header-definition    a static inline definition in the header
                             (its variants go at the end of the file)
    """
    definition = [signature, "{", *indent(body), "}"]
    if form == "header-declaration":
        return "\n".join(definition) + "\n", [pragma, signature + ";", ""]
    if form == "header-definition":
        return "", [pragma, "static inline " + definition[0], *definition[1:], ""]
    if form == "inline":
        return "\n".join(
            [pragma, "inline " + definition[0], *definition[1:], f"extern {signature};"]
        ) + "\n", []
    prefix = "" if form == "extern" else form + " "
    return "\n".join([pragma, prefix + definition[0], *definition[1:]]) + "\n", []
