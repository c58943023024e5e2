"""Random UB-free C programs with `#pragma omp simd` loops, for differential testing of s2svec.

    python testsuite/fuzz/generate.py SEED [-o FILE] [--weights kind=W,...]

`generate(seed)` is a pure function of the seed (and Options): one
``random.Random(seed)`` drives every choice.  A program is a testsuite kernel
(``/* s2s-test: vectorized=? ... */``, testsuite/harness.h, a ``main`` that
runs every function on the harness sizes 0..65 and 1001 and prints every
output as exact bits), with 2-4 functions of one annotated loop each:

* loop forms: increasing or decreasing, ``< <= > >= !=``, steps 1-3, loop
  variables of every integer width and signedness (bases chosen so that no
  value leaves the type; near the top of the range for narrow and unsigned
  types), declared in the ``for`` or before it; ``collapse(2)`` nests.
* data: element types int8..int64 signed and unsigned, plain ``char``,
  float, double, mixed in one loop; contiguous, strided (2, 3, offsets),
  gathered (index arrays, computed indices), scattered (a permutation) and
  uniform accesses; arrays of structs of 2-8 fields of one type whose
  iteration's record is read and written (``p[k].f3 = p[k].f1 + t``: the
  record groups of s2s/analysis/records.py); inputs end at a ``PROT_NONE`` page (``s2s_tail``) so a
  read past the accessed extent faults, outputs are printed whole.
* control: nested if/else on uniform and varying conditions, ``?:``, ``&&``
  and ``||`` (also under divergent conditions), inner loops with uniform
  bounds, guarded loads (``if (k + 2 < kc) x = a[k + 2]``, ``if (k < lim) x
  = a[k]`` with ``a`` ending at ``lim``, ``if (m[k]) x = t[g[k]]`` with wild
  indices where ``m`` is 0, and the same guards in ``&&``, ``||`` and ``?:``).
* divergent control flow: loops with per-lane trip counts (data masked to
  0..7) as ``for``, ``while``, ``do`` and a search ``while (j < b && c)``,
  whose counters are live after them; early exits at up to three places of
  the body, each leaving its own value; a flag that breaks out of two nested
  loops; ``continue`` of the simd loop and of inner loops at any depth;
  ``switch`` on varying or uniform values with fallthrough, grouped labels
  and ``default`` first, between cases, last or absent; per-lane local
  arrays (histograms and stacks indexed by varying values).  Loops nest at
  most two deep inside the simd loop, so every program runs quickly.
* calls: a plain function (per lane) and ``declare simd`` functions of this
  file (one per call site) with varying, ``uniform`` (values and pointers)
  and ``linear`` (the loop's k with its step, ``&a[k]``) parameters, bodies
  with a divergent if/else, a divergent loop and an early return, called
  unmasked or under a divergent condition; ``inbranch`` ones only under a
  condition, ``notinbranch`` ones only where every lane runs.  Each such
  function is written one of the ways of LINKAGES (the definition with the
  pragma; ``static``; ``static inline``; a C99 ``inline`` definition and an
  ``extern`` declaration; the pragma only on a declaration in the program's
  own header ``fz_simd_<seed>.h``; a ``static inline`` definition there),
  and the candidates of a third of the programs are built with
  ``-fopenmp-simd``, of another third with ``-fopenmp`` (metadata
  ``candidate_cflags``).  These choices come from a random stream of their
  own, so the code of the programs of earlier seeds stays what it was.
* clauses: ``reduction`` (+ - * min max & | ^ && ||), ``lastprivate``,
  ``private``, ``linear``, ``collapse``, ``simdlen``/``safelen``,
  ``if(simd:)``, ``order(concurrent)``, ``nontemporal``.

UB-freedom is by construction (see c_types.py for the arithmetic): every
index is inside its array, every loop variable stays in its type, signed
arithmetic wraps through unsigned types, shifts and divisions are guarded,
float-to-integer conversions are range-checked, variables are initialised
before use, every inner loop ends (at most 8 trips; its counter steps before
the body or in the condition, so ``continue`` cannot skip it), local arrays
are indexed ``& 7`` or below a checked stack pointer. It also keeps the
program a valid OpenMP simd loop: an iteration writes only its own elements
(``k``, ``s*k+d`` or a permutation), reads other elements only of arrays the
loop does not write, assigns ``lastprivate``/``private`` variables before
reading them, updates reduction variables only in reduction statements and
``linear`` ones by their step once per iteration. Float reductions print
``R`` lines (compared within a relative tolerance: reassociation); float
min/max results, which may legitimately differ in the sign of zero, are
printed as ``v + 0.0``.
Programs with libm calls are run with ``--math exact``.

To add a construct: a weight in STMT_WEIGHTS (and NESTING/LOOPS if it
opens a block or a loop) and a method ``stmt_<kind>`` returning C lines
(see stmt_switch for an example), a feature name for it and that name in
tests/test_fuzz_generator.py; ``--weights kind=0`` switches one off.
``--no-narrow-index`` masks values derived from the loop variable before
converting them to 8/16-bit types, to hunt for other bugs while the
wrap-around of such conversions inside a vector is broken.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from call_graph import CallGraph  # noqa: E402
from c_types import (CHAR, ELEMENT_TYPES, F32, F64, I8, I16, I32, I64,  # noqa: E402
                     INT_TYPES, U8, U16, U32, U64, CType, cast, float_to_int, int_arith,
                     int_bitwise, int_div, int_neg, int_shift)

FZ_N = 4276        # elements of every array: >= 4 * 1001 (collapse rows) and 3 * 1001 + 4
TABLE = 1024       # gather indices are below this (tables hold this many elements)
MAX_TAILS = 8      # harness.h's s2s_tail slots: arrays ending at a PROT_NONE page
MAX_OUTPUTS = 5

STMT_WEIGHTS: dict[str, float] = {
    "local": 5.0, "assign": 2.0, "store": 4.0, "reduce": 3.0,
    "if_uniform": 1.2, "if_varying": 2.5, "inner_loop": 0.8,
    "guarded_load": 0.8, "limited_load": 0.6, "guarded_gather": 0.6,
    # divergent control flow (issue 6)
    "switch": 0.7, "continue": 0.7, "divergent_loop": 1.0, "early_exit_loop": 0.8,
    "nested_break": 0.4, "local_array": 0.7, "short_circuit": 0.8,
    "formula_cascade": 0.5,
    # calls: a plain function (per lane), a declare simd one (issue 7)
    "call": 0.2, "declare_simd": 1.0,
    # arrays of structs: fields of the iteration's record read and written
    "record": 0.5,
}
# kinds that open a block: none below Options.depth
NESTING = ("if_uniform", "if_varying", "inner_loop", "switch", "divergent_loop",
           "early_exit_loop", "nested_break", "local_array", "short_circuit",
           "formula_cascade")
# kinds that open a loop: at most two loops deep inside the simd loop
LOOPS = ("inner_loop", "divergent_loop", "early_exit_loop", "nested_break", "local_array")

MATH_FUNCS = ("exp", "log", "sin", "cos", "tan", "atan", "exp2", "log2", "log10", "cbrt",
              "erf", "tanh")


@dataclass
class Options:
    """What the generator may use."""

    functions: tuple[int, int] = (2, 4)
    statements: tuple[int, int] = (3, 7)
    depth: int = 3
    math_exact: float = 0.25
    """Probability that a program calls libm (then it runs with --math exact)."""
    narrow_index: bool = True
    """Convert expressions of the loop variable, k and linear variables
    (values that step from lane to lane) to narrower integer types directly;
    False masks them first (`(int8_t)((k + 1) & 63)`), e.g. to look for
    other bugs while the wrap-around of such conversions inside a vector is
    broken."""
    weights: dict[str, float] = field(default_factory=lambda: dict(STMT_WEIGHTS))
    command: str = ""
    """Extra generate.py arguments that reproduce these options (in the header)."""


def small_options() -> Options:
    """The CI batch's programs (tests/test_fuzz.py): 1-3 loops, 2 on average,
    2-6 statements at the top of a loop body (divergent loops and declare
    simd functions made 3-7 half as slow again as before they came)."""
    return Options(functions=(1, 3), statements=(2, 6), command=" --small")


@dataclass
class Program:
    seed: int
    text: str
    features: tuple[str, ...]
    """Constructs the program uses (for statistics and reduction)."""
    headers: dict[str, str] = field(default_factory=dict)
    """The program's own headers by file name (``#include "NAME"``): they go
    next to the program's file (``write``)."""

    def write(self, path: Path) -> None:
        """The program as ``path`` and its headers next to it (a file whose
        text is already that is not rewritten: build caches see no change)."""
        for name, text in [(path.name, self.text), *self.headers.items()]:
            target = path.with_name(name)
            if not target.exists() or target.read_text() != text:
                tmp = target.with_name(target.name + ".tmp")
                tmp.write_text(text)
                tmp.replace(target)


# ---------------------------------------------------------------------------
# Values and arrays in scope


@dataclass
class Value:
    name: str
    type: CType
    uniform: bool
    steps: bool = False
    """Its value may step from lane to lane (derived from the loop variable)."""


@dataclass
class Array:
    """A pointer parameter; `role` says how it is filled, accessed and passed."""

    name: str
    type: CType
    role: str          # in | table | out | mask | gidx | perm | lim
    reads: list[tuple[int, int]] = field(default_factory=list)
    """(stride, offset) of unguarded reads at stride * k + offset (role in)."""
    guarded: bool = False
    index: str = ""    # role out: the element this iteration writes
    mask: Optional["Array"] = None     # role gidx: wild indices where mask is 0
    limit: str = ""    # role lim: the uniform parameter bounding its extent
    fill: str = "any"
    fields: int = 0    # role rec: elements per record (struct fz_r<fields>_<tag>)

    @property
    def struct(self) -> str:
        return f"struct fz_r{self.fields}_{self.type.tag}"


@dataclass
class Reduction:
    var: Value
    op: str
    updated: bool = False


@dataclass
class Scalar:
    """A uniform parameter: its C type and how main picks it per size."""

    value: Value
    init: str


@dataclass
class Result:
    """A scalar the function hands back through a pointer, printed by main."""

    value: Value
    kind: str          # exact | red | minmax
    only_if_trip: bool


@dataclass
class Shape:
    """The loop nest: header lines, the iteration index k and its count."""

    pre: list[str]
    header: list[str]
    k: str
    k_decl: Optional[str]
    k_type: CType
    span_cap: Optional[int]
    rows: Optional[str]            # collapse: the uniform row count parameter
    iv: Value
    outside: list[Value]           # loop variables declared before the loop
    clauses: list[str]
    features: list[str]
    k_step: Optional[int] = None
    """What k adds from one iteration (lane) to the next, None under collapse
    (k jumps between rows): the step of a linear declare simd argument."""


@dataclass
class SimdParam:
    """A parameter of a generated declare simd function."""

    name: str
    type: CType
    kind: str          # varying | uniform | uniform-ptr | linear:STEP | linear-ptr:STEP

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


class Gen:
    """Random choices shared by a program's functions."""

    def __init__(self, seed: int, options: Options) -> None:
        self.rng = random.Random(seed)
        self.options = options

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def weighted(self, table: dict) -> object:
        items = [(k, w) for k, w in table.items() if w > 0]
        total = sum(w for _, w in items)
        x = self.rng.random() * total
        for k, w in items:
            x -= w
            if x < 0:
                return k
        return items[-1][0]


def _fn(t: CType, name: str) -> str:
    """The libm function for t (fabsf for float)."""
    return name + "f" if t is F32 else name


# ---------------------------------------------------------------------------
# One function with one annotated loop


class FuncGen:
    def __init__(self, gen: Gen, prog: "ProgramGen", index: int) -> None:
        self.g = gen
        self.prog = prog
        self.name = f"f{index}"
        self.arrays: list[Array] = []
        self.scalars: list[Scalar] = []
        self.results: list[Result] = []
        self.reductions: list[Reduction] = []
        self.scopes: list[list[Value]] = [[]]
        self.counter = 0
        self.inner: list[tuple[str, int]] = []     # enclosing inner loops: (var, max value)
        self.features: set[str] = set()
        self.tails = 0
        self.linear: list[tuple[Value, int, Array]] = []
        self.no_continue = False
        self.in_index_expr = False
        self.varying = 0               # depth of enclosing varying branches and loops
        self.cond_depth = 0            # depth of enclosing branches and loops of any kind
        self.continued = False         # a `continue` of the simd loop was emitted
        self.types = self._pick_types()

    # -- naming and scope -------------------------------------------------

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def mark(self, feature: str) -> None:
        """Note a construct, and whether it sits under divergent control."""
        self.features.add(feature)
        if self.varying:
            self.features.add(feature + "-divergent")

    def declare(self, v: Value) -> Value:
        self.scopes[-1].append(v)
        return v

    def visible(self) -> list[Value]:
        return [v for scope in self.scopes for v in scope]

    def _pick_types(self) -> list[CType]:
        n = self.g.pick((1, 2, 2, 3, 3, 4))
        pool = list(ELEMENT_TYPES) + [I32, F64, F32, I32, CHAR]
        types: list[CType] = []
        while len(types) < n:
            t = self.g.pick(pool)
            if t not in types:
                types.append(t)
        return types

    def pick_type(self) -> CType:
        return self.g.pick(self.types)

    # -- parameters ---------------------------------------------------------

    def scalar(self, t: CType, lo: float, hi: float, prefix: str = "u") -> Value:
        v = Value(self.fresh(prefix), t, uniform=True)
        if t.floating:
            init = f"({t.name})fz_f64({lo!r}, {hi!r})"
        else:
            init = f"({t.name})fz_int({int(lo)}, {int(hi)})"
        self.scalars.append(Scalar(v, init))
        return v

    def uniform_scalar(self, t: CType) -> Value:
        existing = [s.value for s in self.scalars if s.value.type is t and s.value.name[0] == "u"]
        if existing and self.g.chance(0.6):
            return self.g.pick(existing)
        if t.floating:
            return self.scalar(t, -4.0, 4.0)
        return self.scalar(t, 0 if t.signed is False else -5, 10)

    def array(self, t: CType, role: str, **kw) -> Optional[Array]:
        tail = role in ("in", "mask", "gidx", "perm", "lim")
        if tail and self.tails >= MAX_TAILS:
            return None
        self.tails += tail
        a = Array(self.fresh({"in": "in", "table": "tb", "out": "out", "mask": "m",
                              "gidx": "gi", "perm": "perm", "lim": "lin", "rec": "rec"}[role]),
                  t, role, **kw)
        self.arrays.append(a)
        return a

    def input(self, t: CType) -> Optional[Array]:
        existing = [a for a in self.arrays if a.role == "in" and a.type is t]
        if existing and (self.g.chance(0.7) or self.tails >= MAX_TAILS):
            return self.g.pick(existing)
        return self.array(t, "in", fill=self.g.pick(("any", "small", "edge")))

    def table(self, t: CType) -> Array:
        existing = [a for a in self.arrays if a.role == "table" and a.type is t]
        if existing and self.g.chance(0.7):
            return self.g.pick(existing)
        a = self.array(t, "table", fill=self.g.pick(("any", "small", "edge")))
        assert a is not None
        return a

    def output(self, t: CType) -> Array:
        existing = [a for a in self.arrays if a.role == "out" and a.type is t]
        if existing and (self.g.chance(0.6) or
                         sum(a.role == "out" for a in self.arrays) >= MAX_OUTPUTS):
            return self.g.pick(existing)
        a = self.array(t, "out")
        assert a is not None
        a.index = self.out_index()
        return a

    def record(self, t: CType) -> Array:
        """An array of structs of t fields (read and written at the
        iteration's record only)."""
        existing = [a for a in self.arrays if a.role == "rec" and a.type is t]
        if existing and self.g.chance(0.6):
            return self.g.pick(existing)
        a = self.array(t, "rec", fields=self.g.pick((2, 2, 3, 4, 4, 5, 6, 8)))
        assert a is not None
        self.prog.record_type(a)
        return a

    def out_index(self) -> str:
        r = self.g.rng.random()
        if r < 0.15 and self.tails < MAX_TAILS:
            perm = self.array(I32, "perm")
            assert perm is not None
            self.features.add("scatter")
            return f"{perm.name}[{self.k}]"
        if r < 0.35 and self.shape.rows is None:
            s, d = self.g.pick((2, 3)), self.g.pick((0, 1))
            self.features.add("strided-store")
            return f"({self.k}) * {s} + {d}"
        return self.k

    # -- expressions ----------------------------------------------------------

    def const(self, t: CType) -> str:
        if t.floating:
            return t.literal(self.g.pick((0.0, -0.0, 0.5, 1.0, -1.0, 2.0, 3.5, 0.001, 100.0,
                                          -7.25, 1e30, 0.1)))
        if t is CHAR:
            return t.literal(self.g.pick((0, 1, 2, 7, 65, 100, 127, -1)))
        choices = [0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 100, 127, 255, 1000,
                   t.max_value, t.max_value - 1, t.min_value]
        if t.signed:
            choices += [-1, -2, -100, t.min_value + 1]
        choices.append(self.g.rng.randint(t.min_value, t.max_value))
        return t.literal(self.g.pick([c for c in choices if t.min_value <= c <= t.max_value]))

    def convert(self, text: str, src: CType, dst: CType) -> str:
        if src is dst:
            return text
        if src.floating and not dst.floating:
            return float_to_int(src, dst, text)
        if (not self.g.options.narrow_index and not dst.floating and dst.bits < src.bits
                and self.steps_per_lane(text)):
            return cast(dst, f"({text}) & 63")
        return cast(dst, text)

    def steps_per_lane(self, text: str) -> bool:
        """Whether `text` mentions a value that steps from lane to lane (the
        loop variable, k, a linear variable)."""
        names = {self.shape.iv.name, "k", *(v.name for v, _, _ in self.linear),
                 *(v.name for v in self.visible() if v.steps)}
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
            if a is not None:
                return f"{a.name}[{self.in_index(a)}]"
        tb = self.table(t)
        self.features.add("gather")
        if r < 0.85 and self.tails < MAX_TAILS:
            gi = self.array(self.g.pick((I32, U32, I64, U16)), "gidx")
            assert gi is not None
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
        kind = self.g.weighted({"arith": 4, "bit": 2, "shift": 1.2, "div": 1, "unary": 0.8,
                                "minmax": 1, "cmp": 1, "select": 1.2, "convert": 1.5})
        sub = lambda: self.expr(t, depth - 1, uniform)          # noqa: E731
        leaf = lambda: self.leaf(t, uniform)                     # noqa: E731
        if kind == "arith":
            return int_arith(t, self.g.pick("+-*"), sub(), sub(), self.g.chance(0.5))
        if kind == "bit":
            return int_bitwise(t, self.g.pick("&|^"), sub(), sub())
        if kind == "shift":
            op = self.g.pick(("<<", ">>"))
            count = (str(self.g.rng.randint(0, t.promoted_bits - 1)) if self.g.chance(0.5)
                     else self.expr(self.g.pick((I32, U8, I64, t)), depth - 1, uniform))
            return int_shift(t, op, sub(), count)
        if kind == "div":
            self.features.add("division")
            op = self.g.pick("/%")
            form = self.g.pick(("guard", "guard", "safe", "const"))
            if form == "const":
                form = self.g.pick(("3", "7", "16", "255") + (("-3", "-128") if t.signed else ()))
            a, b = self.two(leaf, t)
            if form == "guard" and b == t.literal(0):   # dead a / 0 is still a warning
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
        if kind == "cmp":     # (T)(a < b) compared to a constant is a warning: select constants
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
        kind = self.g.weighted({"arith": 5, "unary": 1, "exact": 1.5, "minmax": 0.8, "fma": 0.4,
                                "select": 1.2, "convert": 1.5,
                                "libm": 1.0 if self.prog.math_exact else 0})
        sub = lambda: self.expr(t, depth - 1, uniform)          # noqa: E731
        if kind == "arith":
            return f"({sub()} {self.g.pick('+-*/')} {sub()})"
        if kind == "unary":
            return f"(-({sub()}))"
        if kind == "exact":
            fn = self.g.pick(("fabs", "sqrt", "floor", "ceil", "trunc", "round"))
            return f"{_fn(t, fn)}({sub()})"
        if kind == "minmax":
            fn = self.g.pick(("fmin", "fmax"))
            # fmin(-0, +0) may return either zero: make the sign of zero canonical
            return f"({_fn(t, fn)}({sub()}, {sub()}) + {t.literal(0.0)})"
        if kind == "fma":
            # + 0: clang on AArch64 folds -(fma(a, b, c)) into fnmadd, which
            # differs from it in the sign of an exact zero (reference: gcc)
            return f"({_fn(t, 'fma')}({sub()}, {sub()}, {sub()}) + {t.literal(0.0)})"
        if kind == "select":
            self.mark("select")
            return f"({self.cond(depth - 1, uniform)} ? {sub()} : {sub()})"
        if kind == "libm":
            self.features.add("libm")
            fn = self.g.pick(MATH_FUNCS)
            return f"{_fn(t, fn)}({sub()})"
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
            return f"({self.k} {self.g.pick(('<', '>=', '=='))} {self.leaf(self.shape.k_type, True)})"
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

    # -- statements -----------------------------------------------------------

    def block(self, depth: int, count: Optional[int] = None) -> list[str]:
        self.scopes.append([])
        lines: list[str] = []
        lo, hi = self.g.options.statements
        n = count if count is not None else self.g.rng.randint(1, max(1, hi - 2 * depth))
        for _ in range(n):
            lines += self.stmt(depth)
        lines += self.sink_unused(self.scopes[-1], lines)
        self.scopes.pop()
        return lines

    def stmt(self, depth: int) -> list[str]:
        weights = dict(self.g.options.weights)
        off = []
        if depth >= self.g.options.depth:
            off += NESTING
        if len(self.inner) >= 2:            # loops nest at most two deep: 8 * 8 trips
            off += LOOPS
        if self.inner or depth + 1 >= self.g.options.depth:
            off.append("nested_break")      # two loops of its own
        if not self.reductions:
            off.append("reduce")
        if self.no_continue and not self.inner:   # linear steps at the end of the body
            off.append("continue")
        if self.tails >= MAX_TAILS - 1:
            off += ["limited_load", "guarded_gather", "short_circuit"]
        for k in off:
            weights[k] = 0
        kind = self.g.weighted(weights)
        return getattr(self, f"stmt_{kind}")(depth)

    def stmt_local(self, depth: int) -> list[str]:
        t = self.pick_type()
        e = self.expr(t, self.g.rng.randint(1, 3))
        v = self.declare(Value(self.fresh("t"), t, uniform=False, steps=self.steps_per_lane(e)))
        return [f"{t.name} {v.name} = {e};"]

    def stmt_assign(self, depth: int) -> list[str]:
        targets = [v for v in self.scopes[-1] + (self.scopes[-2] if len(self.scopes) > 1 else [])
                   if not v.uniform and v.name[0] == "t"]
        if not targets:
            return self.stmt_local(depth)
        v = self.g.pick(targets)
        t = v.type
        e = self.expr(t, 2)
        if e == v.name:                 # t = t op t is fine, t &= t is a warning
            e = self.const(t)
        v.steps = v.steps or self.steps_per_lane(e)
        if t.floating:
            return [f"{v.name} = {v.name} {self.g.pick('+-*')} {e};"]
        if self.g.chance(0.4):
            return [f"{v.name} {self.g.pick(('^', '|', '&'))}= {e};"]
        return [f"{v.name} = {int_arith(t, self.g.pick('+-*'), v.name, e, self.g.chance(0.5))};"]

    def stmt_store(self, depth: int) -> list[str]:
        t = self.pick_type()
        out = self.output(t)
        e = self.expr(t, self.g.rng.randint(1, 3))
        return [self.store_line(out, e)]

    def stmt_record(self, depth: int) -> list[str]:
        """Fields of the iteration's record: each new value from a field and
        an expression computed first, so that the record's loads and stores
        come together (a group that may move whole records:
        s2s/analysis/records.py)."""
        t = self.pick_type()
        rec = self.record(t)
        self.mark("record")
        field = lambda f: f"{rec.name}[{self.k}].f{f}"       # noqa: E731
        lines, stores = [], []
        for dst in self.g.rng.sample(range(rec.fields), self.g.rng.randint(1, min(4, rec.fields))):
            tmp = Value(self.fresh("t"), t, uniform=False)
            lines.append(f"{t.name} {tmp.name} = {self.expr(t, self.g.rng.randint(0, 2))};")
            self.declare(tmp)
            src = field(self.g.rng.randrange(rec.fields))
            if t.floating:
                value = f"{src} * {t.literal(0.5)} + {tmp.name}"
            else:
                value = int_arith(t, self.g.pick("+-"), src, tmp.name, self.g.chance(0.5))
            stores.append(f"{field(dst)} = {value};")
        return lines + stores

    def store_line(self, out: Array, e: str) -> str:
        t = out.type
        elem = f"{out.name}[{out.index}]"
        if self.g.chance(0.3):
            self.features.add("read-modify-write")
            if t.floating:
                return f"{elem} = {elem} + {e};"
            return f"{elem} = {int_bitwise(t, '^', elem, e)};"
        return f"{elem} = {e};"

    def stmt_reduce(self, depth: int) -> list[str]:
        red = self.g.pick(self.reductions)
        red.updated = True
        return self.reduction_update(red)

    def reduction_update(self, red: Reduction) -> list[str]:
        s, t, op = red.var.name, red.var.type, red.op
        if op in ("&&", "||"):
            return [f"{s} = {s} {op} {self.cond(1, False)};"]
        e = self.expr(t, 2)
        if op in ("min", "max"):
            tmp = self.declare(Value(self.fresh("t"), t, uniform=False))
            lt = "<" if op == "min" else ">"
            form = self.g.pick(("select", "if", "fn") if t.floating else ("select", "if"))
            upd = {"select": f"{s} = {tmp.name} {lt} {s} ? {tmp.name} : {s};",
                   "if": f"if ({tmp.name} {lt} {s}) {{ {s} = {tmp.name}; }}",
                   "fn": f"{s} = {_fn(t, 'f' + op)}({s}, {tmp.name});"}[form]
            return [f"{t.name} {tmp.name} = {e};", upd]
        if t.floating:
            if op == "*":     # factors >= 1: partial products never overflow before the whole
                e = f"({t.literal(1.0)} + {_fn(t, 'fabs')}({e}) * {t.literal(0.001)})"
            else:             # non-negative terms: no cancellation, relative error bounded
                e = f"{_fn(t, 'fabs')}({e})"
            return [f"{s} {op}= {e};" if self.g.chance(0.6) else f"{s} = {s} {op} {e};"]
        if op in "&|^":
            return [f"{s} {op}= {e};"]
        if op in "+-":
            if t.signed and t.bits >= 32:          # bounded terms: the sum cannot overflow
                e = f"(({e}) & 4095)"
            return [f"{s} {op}= {e};" if self.g.chance(0.6) else f"{s} = {s} {op} {e};"]
        # op == "*"
        if t.signed and t.bits >= 32:              # factors +-1
            return [f"{s} *= ({t.name})(1 - 2 * (({e}) & 1));"]
        if t is U16:                               # uint16_t * uint16_t would be int
            return [f"{s} = (uint16_t)((uint32_t){s} * {e});"]
        return [f"{s} *= {e};"]

    def stmt_if_uniform(self, depth: int) -> list[str]:
        self.features.add("if-uniform")
        return self.if_stmt(self.cond(1, uniform=True), depth)

    def stmt_if_varying(self, depth: int) -> list[str]:
        self.features.add("if-varying")
        self.varying += 1
        lines = self.if_stmt(self.cond(2, uniform=False), depth)
        self.varying -= 1
        return lines

    def if_stmt(self, c: str, depth: int) -> list[str]:
        self.cond_depth += 1
        lines = [f"if {paren(c)} {{", *indent(self.block(depth + 1)), "}"]
        if self.g.chance(0.5):
            if self.g.chance(0.3):
                lines[-1] = f"}} else if {paren(self.cond(1, False))} {{"
                lines += [*indent(self.block(depth + 1)), "}"]
            lines[-1] += " else {"
            lines += [*indent(self.block(depth + 1)), "}"]
        self.cond_depth -= 1
        return lines

    def stmt_formula_cascade(self, depth: int) -> list[str]:
        """An else-if cascade on varying conditions whose arms mostly evaluate
        one formula (a division and a square root: exact, so the comparison
        stays bit for bit) on their own inputs, some adding a term, some
        with another formula or none: what merge-arms computes once."""
        floats = [t for t in self.types if t.floating]
        if not floats:
            return self.stmt_local(depth)
        self.mark("formula-cascade")
        t = self.g.pick(floats)
        acc = Value(self.fresh("t"), t, uniform=False)
        lines = [f"{t.name} {acc.name} = {self.expr(t, 1)};"]
        self.varying += 1
        self.cond_depth += 1
        arms = self.g.rng.randint(2, 4)
        for k in range(arms + 1):
            head = "if" if k == 0 else "} else if" if k < arms else "} else"
            cond = f" {paren(self.cond(1, False))}" if k < arms else ""
            lines += [f"{head}{cond} {{", *indent(self.formula_arm(acc, t))]
        lines.append("}")
        self.cond_depth -= 1
        self.varying -= 1
        self.declare(acc)
        return lines

    def formula_arm(self, acc: Value, t: CType) -> list[str]:
        r = self.g.rng.random()
        if r < 0.15:
            return []
        a, b = self.expr(t, 1), self.expr(t, 1)
        if r < 0.3:
            return [f"{acc.name} = {acc.name} * {t.literal(0.5)} - {a};"]
        fabs, sqrt = _fn(t, "fabs"), _fn(t, "sqrt")
        formula = (f"({a}) / ({fabs}({b}) + {t.literal(1.5)}) "
                   f"+ {sqrt}({fabs}(({a}) * {t.literal(0.25)} + {b}))")
        if self.g.chance(0.35):
            formula += f" + {self.expr(t, 1)}"
        return [f"{acc.name} = {acc.name} + {formula};"]

    def stmt_inner_loop(self, depth: int) -> list[str]:
        self.features.add("inner-loop")
        q = self.scalar(I32, 0, 4, prefix="q")
        return self.loop_lines(f"int {{j}} = 0; {{j}} < {q.name}; {{j}}++", 3, depth)

    def loop_lines(self, header: str, jmax: int, depth: int, uniform: bool = True,
                   tail: Optional[Callable[[str], list[str]]] = None) -> list[str]:
        j = self.fresh("j")
        self.scopes.append([Value(j, I32, uniform=uniform)])
        self.inner.append((j, jmax))
        self.cond_depth += 1
        body = self.block(depth + 1)
        if tail:
            body += tail(j)
        self.cond_depth -= 1
        self.inner.pop()
        self.scopes.pop()
        return [f"for ({header.format(j=j)}) {{", *indent(body), "}"]

    def stmt_guarded_load(self, depth: int) -> list[str]:
        t = self.pick_type()
        a = self.input(t)
        if a is None:
            return self.stmt_local(depth)
        self.features.add("guarded-load")
        a.guarded = True
        d = self.g.pick((1, 2, 3))
        init = self.expr(t, 1)
        v = self.declare(Value(self.fresh("t"), t, uniform=False))
        return [f"{t.name} {v.name} = {init};",
                f"if ({self.k} + {d} < kc) {{", f"    {v.name} = {a.name}[{self.k} + {d}];", "}"]

    def stmt_limited_load(self, depth: int) -> list[str]:
        t = self.pick_type()
        lim = self.scalar(I32, 0, 0, prefix="lim")       # main sets it to 0..kc
        a = self.array(t, "lim", limit=lim.name, fill="any")
        if a is None:
            return self.stmt_local(depth)
        self.features.add("guarded-load")
        init = self.expr(t, 1)
        v = self.declare(Value(self.fresh("t"), t, uniform=False))
        return [f"{t.name} {v.name} = {init};",
                f"if ({self.k} < {lim.name}) {{", f"    {v.name} = {a.name}[{self.k}];", "}"]

    def stmt_guarded_gather(self, depth: int) -> list[str]:
        t = self.pick_type()
        m = self.array(self.g.pick((U8, I32, I8)), "mask")
        gi = self.array(self.g.pick((I32, U32, I64, U64)), "gidx")
        if m is None or gi is None:
            return self.stmt_local(depth)
        gi.mask = m
        tb = self.table(t)
        self.features.update({"guarded-load", "gather"})
        init = self.expr(t, 1)
        v = self.declare(Value(self.fresh("t"), t, uniform=False))
        return [f"{t.name} {v.name} = {init};",
                f"if ({m.name}[{self.k}] != 0) {{",
                f"    {v.name} = {tb.name}[{gi.name}[{self.k}]];", "}"]

    # -- divergent control flow ---------------------------------------------------

    def int_type(self) -> CType:
        return self.g.pick([x for x in self.types if not x.floating] or [I32])

    def small_index(self, uniform: bool = False) -> str:
        """An int 0..7 from data (a trip count, a case label, a local array index)."""
        return f"(int)(({self.expr(self.int_type(), 1, uniform)}) & 7)"

    def arms(self, varying: bool, make: Callable[[], list[str]]) -> list[str]:
        """`make()` run as the body of a branch or loop (varying: divergent)."""
        self.varying += varying
        self.cond_depth += 1
        lines = make()
        self.cond_depth -= 1
        self.varying -= varying
        return lines

    def stmt_switch(self, depth: int) -> list[str]:
        varying = self.g.chance(0.8)
        self.features.add("switch")
        if varying:
            self.features.add("switch-varying")
        labels = self.g.rng.sample(range(8), self.g.rng.randint(2, 5))
        if self.g.chance(0.85):       # default anywhere: first, between cases, last
            labels.insert(self.g.rng.randint(0, len(labels)), -1)
            pos = labels.index(-1)
            self.features.add("switch-default-" + ("first" if pos == 0 else "last"
                              if pos == len(labels) - 1 else "middle"))
        lines = [f"switch ({self.small_index(uniform=not varying)}) {{"]
        i = 0
        while i < len(labels):
            group = [labels[i]]
            while i + len(group) < len(labels) and self.g.chance(0.2):  # case 1: case 4:
                group.append(labels[i + len(group)])
            i += len(group)
            lines += ["default:" if x < 0 else f"case {x}:" for x in group]
            body = self.arms(varying, lambda: self.block(depth + 1))
            lines += indent(["{", *indent(body), "}"])
            if i < len(labels) and self.g.chance(0.35):
                self.features.add("switch-fallthrough")
                lines.append("    /* fall through */")
            else:
                lines.append("    break;")
        return lines + ["}"]

    def stmt_continue(self, depth: int) -> list[str]:
        self.features.add("continue")
        if self.inner:
            self.features.add("continue-inner")
        else:
            self.continued = True
            if self.cond_depth:
                self.features.add("continue-nested")
        return [f"if {paren(self.cond(1, False))} {{", "    continue;", "}"]

    def div_loop(self, depth: int, extra: Optional[Callable[[str], list[str]]] = None,
                 bound: Optional[str] = None) -> list[str]:
        """A loop with a per-lane trip count of 0..7 in one of C's forms,
        `extra(j)` at the end of its body (exits).  Every form steps its
        counter before the body or in its condition, so `continue` is safe;
        the counter is visible after the loop (a live-out)."""
        form = self.g.pick(("for", "while", "do", "search"))
        self.features.update({"divergent-loop", f"divergent-{form}"})
        bound = bound or self.small_index()
        j = self.fresh("j")
        self.scopes.append([Value(j, I32, uniform=False)])
        self.inner.append((j, 7 if form == "search" else 6))
        cond = paren(self.cond(1, False)) if form == "search" else ""

        def body() -> list[str]:
            return self.block(depth + 1) + (extra(j) if extra else [])
        lines = indent(self.arms(True, body))
        self.inner.pop()
        self.scopes.pop()
        self.declare(Value(j, I32, uniform=False))
        if form == "for":
            return [f"int {j};", f"for ({j} = 0; {j} < {bound}; {j}++) {{", *lines, "}"]
        if form == "while":
            return [f"int {j} = {bound};", f"while ({j} > 0) {{", f"    {j}--;", *lines, "}"]
        if form == "do":
            return [f"int {j} = 0;", "do {", *lines, f"}} while (++{j} < {bound});"]
        return [f"int {j} = 0;", f"while ({j} < {bound} && {cond}) {{", f"    {j}++;", *lines, "}"]

    def stmt_divergent_loop(self, depth: int) -> list[str]:
        return self.div_loop(depth)

    def stmt_early_exit_loop(self, depth: int) -> list[str]:
        """Exits at several places of the body, each leaving its own value."""
        self.features.add("early-exit-loop")
        t = self.pick_type()
        r = Value(self.fresh("t"), t, uniform=False)
        init = self.expr(t, 1)
        exits = self.g.rng.randint(1, 3)
        if exits > 1:
            self.features.add("multi-exit-loop")

        def extra(j: str) -> list[str]:
            out: list[str] = []
            for e in range(exits):
                if e:
                    out += self.block(depth + 1, count=self.g.rng.randint(0, 2))
                out += [f"if {paren(self.cond(1, False))} {{",
                        f"    {r.name} = {self.expr(t, 2)};", "    break;", "}"]
            return out
        bound = "6" if self.g.chance(0.3) else None     # uniform trip count, divergent exits
        lines = [f"{t.name} {r.name} = {init};", *self.div_loop(depth, extra, bound)]
        self.declare(r)
        return lines

    def stmt_nested_break(self, depth: int) -> list[str]:
        """A hit in the inner of two loops leaves both (a flag tested after the inner)."""
        self.features.add("nested-break")
        hit = self.fresh("hit")

        def inner_exit(j: str) -> list[str]:
            return [f"if {paren(self.cond(1, False))} {{", f"    {hit} = {j} + 1;",
                    "    break;", "}"]

        def outer_extra(j: str) -> list[str]:
            return (self.div_loop(depth + 1, inner_exit)
                    + [f"if ({hit} != 0) {{", "    break;", "}"])
        lines = [f"int {hit} = 0;", *self.div_loop(depth, outer_extra)]
        self.declare(Value(hit, I32, uniform=False))
        return lines

    def stmt_local_array(self, depth: int) -> list[str]:
        self.features.add("local-array")
        if self.g.chance(0.5):
            return self.histogram(depth)
        return self.stack(depth)

    def histogram(self, depth: int) -> list[str]:
        """Counts in a per-lane array at data-dependent indices."""
        self.features.add("local-histogram")
        t = self.int_type()
        h = self.fresh("h")

        def extra(j: str) -> list[str]:
            elem = f"{h}[{self.small_index()}]"
            add = self.g.pick(("1", self.leaf(t, False)))
            return [f"{elem} = {int_arith(t, '+', elem, add, True)};"]
        lines = [f"{t.name} {h}[8] = {{0}};", *self.div_loop(depth, extra)]
        v = Value(self.fresh("t"), t, uniform=False)
        lines.append(f"{t.name} {v.name} = {h}[{self.small_index()}];")
        self.declare(v)
        return lines

    def stack(self, depth: int) -> list[str]:
        """Pushes and pops on a per-lane stack: a varying stack pointer."""
        self.features.add("local-stack")
        t = self.pick_type()
        st, sp = self.fresh("st"), self.fresh("sp")
        acc = Value(self.fresh("t"), t, uniform=False)
        lines = [f"{t.name} {st}[8];", f"int {sp} = 0;", f"{t.name} {acc.name} = {self.const(t)};"]
        if self.g.chance(0.5):     # a uniform loop over a per-lane array
            j = self.fresh("j")
            lines.append(f"for (int {j} = 0; {j} < 8; {j}++) {st}[{j}] = {self.const(t)};")
        else:
            lines[0] = f"{t.name} {st}[8] = {{0}};"

        def extra(j: str) -> list[str]:
            push = self.expr(t, 1)
            pop = (f"{acc.name} + {st}[{sp}]" if t.floating
                   else int_bitwise(t, "^", acc.name, f"{st}[{sp}]"))
            return [f"if {paren(self.cond(1, False))} {{",
                    f"    if ({sp} < 8) {{", f"        {st}[{sp}] = {push};", f"        {sp}++;",
                    "    }", f"}} else if ({sp} > 0) {{", f"    {sp}--;",
                    f"    {acc.name} = {pop};", "}"]
        lines += self.div_loop(depth, extra)
        top = Value(self.fresh("t"), t, uniform=False)
        lines.append(f"{t.name} {top.name} = {sp} > 0 ? {st}[{sp} - 1] : {acc.name};")
        self.declare(acc)
        self.declare(top)
        return lines

    def guard(self) -> Optional[tuple[str, str, str, CType]]:
        """(condition, its negation, a load only defined when it holds, type)."""
        t = self.pick_type()
        if self.g.chance(0.5):
            a = self.input(t)
            if a is None:
                return None
            a.guarded = True
            d = self.g.pick((1, 2, 3))
            return (f"{self.k} + {d} < kc", f"{self.k} + {d} >= kc", f"{a.name}[{self.k} + {d}]", t)
        m = self.array(self.g.pick((U8, I32, I8)), "mask")
        gi = self.array(self.g.pick((I32, U32, I64, U64)), "gidx")
        if m is None or gi is None:
            return None
        gi.mask = m
        tb = self.table(t)
        self.features.add("gather")
        return (f"{m.name}[{self.k}] != 0", f"{m.name}[{self.k}] == 0",
                f"{tb.name}[{gi.name}[{self.k}]]", t)

    def stmt_short_circuit(self, depth: int) -> list[str]:
        """`&&`, `||` and `?:` guarding a load that is undefined where the guard fails."""
        g = self.guard()
        if g is None:
            return self.stmt_local(depth)
        ok, bad, load, t = g
        self.mark("short-circuit")
        test = f"{load} {self.g.pick(('<', '>', '!=', '<='))} {self.leaf(t, True)}"
        form = self.g.pick(("and", "or", "select", "if"))
        if form == "select":
            v = Value(self.fresh("t"), t, uniform=False)
            lines = [f"{t.name} {v.name} = ({ok}) ? {load} : {self.expr(t, 1)};"]
        elif form == "if":
            lines = self.arms(True, lambda: [f"if ({ok} && {test}) {{",
                                             *indent(self.block(depth + 1)), "}"])
            return lines
        else:
            v = Value(self.fresh("t"), I32, uniform=False)
            c = f"{ok} && {test}" if form == "and" else f"{bad} || {test}"
            lines = [f"int32_t {v.name} = {c};"]
        self.declare(v)
        return lines

    def stmt_call(self, depth: int) -> list[str]:
        self.features.add("call")
        t = self.g.pick([x for x in self.types if x.floating] or [F64])
        self.prog.helper(t)
        call = self.prog.call_graph.direct_calls(t, self.expr(t, 2), self.uniform_scalar(t).name)
        v = self.declare(Value(self.fresh("t"), t, uniform=False))
        return [f"{t.name} {v.name} = {call};"]

    # -- declare simd calls -----------------------------------------------------

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
            lines = [f"{t.name} {v.name} = {self.expr(t, 1)};",
                     *self.arms(True, lambda: [f"if {paren(c)} {{", f"    {v.name} = {call};",
                                               "}"])]
        else:
            lines = [f"{t.name} {v.name} = {call};"]
        self.declare(v)
        return lines

    def simd_args(self, t: CType) -> tuple[list["SimdParam"], list[str]]:
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
        if step is not None and self.g.chance(0.6):     # k steps by `step` from lane to lane
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

    def sink_unused(self, scope: list[Value], block: list[str]) -> list[str]:
        """Store every local the block never reads (assignments are not
        reads), so each computed value is observable and none is unused."""
        lines = []
        for v in scope:
            if not v.uniform and not is_read(v.name, block):
                lines.append(self.store_line(self.output(v.type), v.name))
        return lines

    # -- the loop -------------------------------------------------------------

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
            reds.setdefault(red.op, []).append(red.var.name)
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
        for v, step, _ in self.linear:
            body.append(f"{v.name} += {step};")
        pragma = "#pragma omp " + self.directive() + "".join(f" {c}" for c in clauses)
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
        ops = ["+", "*", "min", "max", "-"] if t.floating else \
            ["+", "*", "min", "max", "&", "|", "^", "-", "&&", "||"]
        op = self.g.pick(ops)
        if op in ("&&", "||"):
            t = I32
        v = Value(self.fresh("s"), t, uniform=False)
        init = {"*": t.literal(1) if not t.floating else t.literal(1.5),
                "&&": "1", "||": "0"}.get(op, self.const(t))
        if t.floating and op in ("min", "max"):
            init = t.literal(1e30 if op == "min" else -1e30)
        elif t.floating and op in "+-":      # terms move away from zero: no cancellation
            init = t.literal(0.5 if op == "+" else -0.5)
        elif t.signed and t.bits >= 32 and op in "+-":   # bounded sums cannot overflow
            init = t.literal(self.g.rng.randint(-1000, 1000))
        pre.append(f"{t.name} {v.name} = {init};")
        red = Reduction(v, op)
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

    # -- loop shapes ------------------------------------------------------------

    IV_TYPES = (("int", I32, 8), ("unsigned", U32, 2), ("long", I64, 2),
                ("unsigned long", U64, 1), ("size_t", U64, 1), ("short", I16, 1),
                ("unsigned short", U16, 1), ("signed char", I8, 1), ("unsigned char", U8, 1.5),
                ("int64_t", I64, 1), ("uint32_t", U32, 1), ("long long", I64, 0.5))

    def make_shape(self) -> Shape:
        spelled, t = self.pick_iv_type()
        if self.g.chance(0.12):
            return self.collapse_shape(spelled, t)
        return self.single_shape(spelled, t)

    def pick_iv_type(self) -> tuple[str, CType]:
        choice = self.g.weighted({(s, t): w for s, t, w in self.IV_TYPES})
        assert isinstance(choice, tuple)
        return choice

    def iv_range(self, t: CType, step: int, margin: int) -> tuple[int, Optional[int]]:
        """(base, cap): i covers base .. base + span with span = min(n, cap).
        base - margin (the last value a decreasing loop or `<=` computes below
        base) and base + span + step stay inside t."""
        cap: Optional[int] = None
        if t.bits == 8:
            cap = self.g.pick((60, 100) if t.signed else (60, 100, 200))
        lo = t.min_value + margin
        hi = t.max_value - (cap or 1001) - step - 1
        bases = [b for b in (0, 1, step, 5, 20, -50, -100, 1000, 64000, 31000, -32000,
                             (1 << 31) - 700, 2147481000, -2147483000, (1 << 40),
                             (1 << 63) - 600, (1 << 64) - 2000, 9223372036854774000,
                             -9223372036854775000, 4294965000, hi, lo) if lo <= b <= hi]
        weights = {b: (6 if b == 0 else 1) for b in bases}
        base = self.g.weighted(weights)
        assert isinstance(base, int)
        if base in (hi, lo) or base > 1000 or base < -1000:
            self.features.add("iv-extreme")
        return base, cap

    def span_decl(self, cap: Optional[int]) -> str:
        return "const int span = n;" if cap is None else \
            f"const int span = n < {cap} ? n : {cap};"

    def single_shape(self, spelled: str, t: CType) -> Shape:
        up = self.g.chance(0.7)
        step = self.g.pick((1, 1, 1, 2, 3))
        test = self.g.pick(("<", "<", "<=", "!=") if up else (">", ">", ">=", "!="))
        if test == "!=":
            step = 1
        margin = {"<": 0, "!=": 0, "<=": 1, ">": step - 1, ">=": step}[test]
        base, cap = self.iv_range(t, step, margin)
        B = t.literal(base)
        features = [f"iv-{t.tag}", "loop-up" if up else "loop-down", f"step-{step}",
                    f"test-{test}"]
        pre = [self.span_decl(cap), "const int kc = span;", "(void)kc;"]
        natural = (base == 0 and up and test == "<" and cap is None
                   and spelled in ("int", "long", "size_t", "unsigned") and self.g.chance(0.5))
        inline_bound = self.g.chance(0.3)

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
            incr = self.g.pick(("i++", "++i", f"i += {step}", f"i = i + {step}")) \
                if step == 1 else self.g.pick((f"i += {step}", f"i = i + {step}"))
            koff = base
        else:
            if test == ">=":
                init = f"({spelled})({B} + span - 1)"
                koff = base
            else:
                init = f"({spelled})({B} + span)"
                koff = base + 1
            cond = f"i {test} {B}"
            incr = self.g.pick(("i--", "--i", f"i -= {step}")) if step == 1 else f"i -= {step}"
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
        return Shape(pre, header, k, k_decl, k_type, cap, None, iv, [iv] if outside else [],
                     clauses, features, k_step=step if up else -step)

    def k_expr(self, var: str, t: CType, koff: int, pre_rows: Optional[str]
               ) -> tuple[str, Optional[str], CType]:
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
        pre = [self.span_decl(cap), f"const int kc = {rows.name} * span;", "(void)kc;",
               f"const {spelled} hi = ({spelled})({B} + span);"]
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
        header = [f"for ({'' if outside_r else 'int '}r = 0; r < {rows.name}; r++)",
                  f"    for ({'' if outside_c else spelled + ' '}c = {B}; c < hi; {incr})"]
        k, k_decl, k_type = self.k_expr("c", t, base, pre_rows="r")
        self.features.add("collapse")
        features = [f"iv-{t.tag}", "collapse", f"step-{step}"]
        if any(c.startswith("lastprivate") for c in clauses):
            features.append("collapse-lastprivate")
        return Shape(pre, header, k, k_decl, k_type, cap, rows.name, cv, outside, clauses,
                     features)

    # -- text -------------------------------------------------------------------

    def params(self) -> list[str]:
        out = ["int n"]
        out += [f"{s.value.type.name} {s.value.name}" for s in self.scalars]
        for a in self.arrays:
            const = "" if a.role in ("out", "rec") else "const "
            out.append(f"{a.struct} *{a.name}" if a.role == "rec"
                       else f"{const}{a.type.name} *{a.name}")
        out += [f"{r.value.type.name} *res_{r.value.name}" for r in self.results]
        return out

    def function_text(self, pre: list[str], pragma: str, body: list[str]) -> str:
        sh = self.shape
        lines = [f"void {self.name}({', '.join(self.params())})", "{", *indent(pre), pragma]
        lines += indent(sh.header)
        body_indent = "    " * len(sh.header)
        lines += [body_indent + "{", *(body_indent + b for b in indent(body)), body_indent + "}"]
        for r in self.results:
            lines.append(f"    *res_{r.value.name} = {r.value.name};")
        unused = [s.value.name for s in self.scalars
                  if not self.mentions(s.value.name, pre + [pragma] + sh.header + body)]
        lines += [f"    (void){u};" for u in unused]
        lines.append("}")
        return "\n".join(lines) + "\n"

    @staticmethod
    def mentions(name: str, lines: list[str]) -> bool:
        pat = re.compile(rf"\b{re.escape(name)}\b")
        return any(pat.search(ln) for ln in lines)

    def main_lines(self) -> list[str]:
        """Main's code for one size n: inputs, the call, the printing."""
        f = self.name
        sh = self.shape
        cap = sh.span_cap
        lines = [f"const int span = n < {cap} ? n : {cap};" if cap else "const int span = n;"]
        body: list[str] = []
        args = ["n"]
        for s in self.scalars:
            nm = s.value.name
            if nm.startswith("lim"):
                continue
            body.append(f"const {s.value.type.name} {nm} = {s.init};")
        kc = "span" if sh.rows is None else f"{sh.rows} * span"
        body.append(f"const int kc = {kc};")
        body.append("(void)kc;")
        for s in self.scalars:
            if s.value.name.startswith("lim"):
                body.append(f"const int {s.value.name} = (int)fz_int(0, kc);")
        tailed = [a for a in self.arrays if a.role not in ("table", "out", "rec")]
        for a in tailed:                    # elements the loop may read: filled and passed
            body.append(f"const int e_{a.name} = {self.extent(a)};")
        for a in self.arrays:
            body += self.fill(a)
        for s in self.scalars:
            args.append(s.value.name)
        slot = 0
        for a in self.arrays:
            arr = f"{f}_{a.name}"
            if a.role in ("table", "out"):
                args.append(arr)
                continue
            if a.role == "rec":
                args.append(f"({a.struct} *){arr}")
                continue
            args.append(f"s2s_tail({slot}, {arr}, (size_t)e_{a.name} * sizeof {arr}[0])")
            slot += 1
        for r in self.results:
            body.append(f"{r.value.type.name} r_{r.value.name} = 0;")
            args.append(f"&r_{r.value.name}")
        body.append(f"{f}({', '.join(args)});")
        for a in self.arrays:
            arr = f"{f}_{a.name}"
            if a.role == "out":
                body.append(f'fz_out_array("{f}.{a.name}", {arr}, sizeof {arr}[0], '
                            f'{int(a.type.floating)}, 3 * kc + 8);')
            for c in range(a.fields):     # a record array: FZ_N elements at a time
                body.append(f'fz_out_array("{f}.{a.name}.{c}", {arr} + {c} * FZ_N, '
                            f'sizeof {arr}[0], {int(a.type.floating)}, 3 * kc + 8);')
        for r in self.results:
            body.append(self.print_result(r))
        return lines + body

    def extent(self, a: Array) -> str:
        if a.role == "lim":
            return a.limit
        if a.role != "in" or not a.reads:
            return "kc"
        parts = [f"fz_ext(kc, {s}, {d})" for s, d in sorted(set(a.reads))]
        if a.guarded:
            parts.append("kc")
        text = parts[0]
        for p in parts[1:]:
            text = f"fz_max({text}, {p})"
        return text

    def fill(self, a: Array) -> list[str]:
        """Fill what the loop may read (inputs: their extent, tables: FZ_TABLE
        elements); outputs get cheap varying bytes everywhere."""
        arr = f"{self.name}_{a.name}"
        t = a.type
        size = f"sizeof {arr}[0], {int(t.floating)}"
        if a.role == "out":
            salt = self.arrays.index(a) + 64 * int(self.name[1:])
            return [f"fz_bytes({arr}, sizeof {arr}, (uint64_t)n * 4096u + {salt}u);"]
        count = {"table": "FZ_TABLE", "rec": f"FZ_N * {a.fields}"}.get(a.role, f"e_{a.name}")
        if a.role == "mask":
            return [f"fz_mask({arr}, {size}, {count}, (int)fz_int(0, S2S_NPATTERNS - 1), kc);"]
        if a.role == "perm":
            return [f"fz_perm({arr}, kc);"]
        if a.role == "gidx":
            if a.mask is not None:
                m = f"{self.name}_{a.mask.name}"
                return [f"fz_index({arr}, sizeof {arr}[0], {m}, sizeof {m}[0], {count});"]
            return [f"fz_index({arr}, sizeof {arr}[0], 0, 0, {count});"]
        mode = {"any": "0", "small": "1", "edge": "2"}[a.fill]
        if self.g.chance(0.3):
            mode = "(int)fz_int(0, 2)"
        return [f"fz_fill({arr}, {size}, {count}, {mode});"]

    def print_result(self, r: Result) -> str:
        v, t = r.value, r.value.type
        tag = f'"{self.name}.{v.name}"'
        val = f"r_{v.name}"
        if t.floating:
            if r.kind == "red":
                line = f"s2s_out_red({tag}, (double){val});"
            elif r.kind == "minmax":
                line = f"fz_out_fp({tag}, (double){val} + 0.0);"
            else:
                line = f"fz_out_fp({tag}, (double){val});"
        elif t.signed is False:
            line = f"s2s_out_u64({tag}, (unsigned long long){val});"
        else:
            line = f"s2s_out_i64({tag}, (long long){val});"
        return f"if (kc > 0) {line}" if r.only_if_trip else line


def is_read(name: str, lines: list[str]) -> bool:
    """Whether `name` is read in `lines` (one statement per line): any
    mention except as the target of `=` or `op=` at the start of a statement."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    target = re.compile(rf"^\s*(?:[A-Za-z_][\w ]*\s)?{re.escape(name)}\s*"
                        r"(?:[-+*/%&|^]|<<|>>)?=(?!=)")
    for line in lines:
        m = target.match(line)
        rest = line[m.end():] if m else line
        if word.search(rest):
            return True
    return False


def paren(c: str) -> str:
    """`c` in exactly one pair of parentheses (clang warns about `if ((a == b))`)."""
    if c.startswith("(") and c.endswith(")"):
        depth = 0
        for i, ch in enumerate(c):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(c) - 1:
                return f"({c})"
        return c
    return f"({c})"


def indent(lines: list[str]) -> list[str]:
    return ["    " + ln if ln else ln for ln in lines]


# ---------------------------------------------------------------------------
# declare simd functions


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
            out += [f"if ({self.cond()}) {{", f"    r = {self.combine('r', self.term())};",
                    "} else {", f"    r = {self.combine(self.term(), 'r')};", "}"]
        if self.g.chance(0.4):
            count = (f"(({self.term()}) > {t.literal(0.0)}) ? 3 : 1" if t.floating
                     else f"(int)(({self.term()}) & 7)")
            out += [f"int c = {count};", "while (c > 0) {",
                    f"    r = {self.combine('r', self.term())};", "    c--;", "}"]
        if self.g.chance(0.3):
            out += [f"if ({self.cond()}) {{", f"    return {self.combine('r', self.term())};", "}"]
        ret = "r"
        for x in self.terms:
            if x not in self.used:
                ret = self.combine(ret, x)
        return out + [f"return {ret};"]


# ---------------------------------------------------------------------------
# The program


LINKAGES = ("extern", "static", "static inline", "inline", "header-declaration",
            "header-definition")
"""How a declare simd function is written (DeclareSimdForm); ``extern``: the
definition with the pragma in the program, as before issue 19."""
OPENMP_FLAGS = ("", "-fopenmp-simd", "-fopenmp")
"""The candidate builds of a program are made with one of these (metadata
``candidate_cflags``): s2svec's output must build as OpenMP programs are built."""


class ProgramGen:
    def __init__(self, seed: int, options: Options) -> None:
        self.seed = seed
        self.g = Gen(seed, options)
        self.math_exact = self.g.chance(options.math_exact)
        self.helpers: dict[str, str] = {}
        self.red_float: set[str] = set()
        self.call_graph = CallGraph(seed)
        # choices made after issue 19 draw from a stream of their own, so the
        # programs of the seeds before it keep their code
        self.forms = random.Random(f"declare-simd-forms:{seed}")
        self.header: list[str] = []
        """Declarations and definitions for the program's own header."""
        self.features: set[str] = set()

    def helper(self, t: CType) -> str:
        """The top of a call graph of plain functions of the program
        (call_graph.py: inlined, given vector variants or kept calls)."""
        key = t.tag
        if key not in self.helpers:
            for k, text in enumerate(self.call_graph.texts(t)):
                self.helpers[key if k == 0 else f"{key}:{k}"] = text
        return f"fz_h_{t.tag}"

    def record_type(self, a: Array) -> None:
        """Declare ``a``'s struct (before the functions)."""
        fields = ", ".join(f"f{i}" for i in range(a.fields))
        self.helpers.setdefault(a.struct, f"{a.struct} {{ {a.type.name} {fields}; }};\n")

    def declare_simd(self, t: CType, params: list[SimdParam], branch: str) -> str:
        """A new declare simd function of `params` returning t; its name."""
        name = f"fz_simd{len(self.helpers)}"
        uniform = [p.name for p in params if p.kind.startswith("uniform")]
        linear = [f"{p.name}:{p.kind.split(':')[1]}" for p in params if p.kind.startswith("linear")]
        pragma = "#pragma omp declare simd"
        pragma += f" uniform({', '.join(uniform)})" if uniform else ""
        pragma += "".join(f" linear({x})" for x in linear)     # one step per clause
        pragma += f" {branch}" if branch else ""
        body = SimdBody(self.g, t, params).lines()
        signature = f"{t.name} {name}({', '.join(p.decl() for p in params)})"
        self.helpers[name] = self.place_declare_simd(pragma, signature, body)
        return name

    def place_declare_simd(self, pragma: str, signature: str, body: list[str]) -> str:
        """The program's text of a declare simd function, written in one of
        LINKAGES (its header gets the rest):

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
        form = self.forms.choice(LINKAGES)
        self.features.add(f"declare-simd-form-{form.replace(' ', '-')}")
        definition = [signature, "{", *indent(body), "}"]
        if form == "header-declaration":
            self.header += [pragma, signature + ";", ""]
            return "\n".join(definition) + "\n"
        if form == "header-definition":
            self.header += [pragma, "static inline " + definition[0], *definition[1:], ""]
            return ""
        if form == "inline":
            return "\n".join([pragma, "inline " + definition[0], *definition[1:],
                              f"extern {signature};"]) + "\n"
        prefix = "" if form == "extern" else form + " "
        return "\n".join([pragma, prefix + definition[0], *definition[1:]]) + "\n"

    def header_name(self) -> str:
        return f"fz_simd_{self.seed}.h"

    def header_text(self) -> str:
        guard = f"FZ_SIMD_{self.seed}_H"
        return "\n".join([f"/* declare simd functions of testsuite/fuzz/generate.py seed "
                          f"{self.seed} */", f"#ifndef {guard}", f"#define {guard}", "",
                          *self.header, f"#endif /* {guard} */", ""])

    def float_reduction(self, t: CType) -> None:
        self.red_float.add(t.tag)

    def build(self) -> Program:
        opts = self.g.options
        nfun = self.g.rng.randint(*opts.functions)
        funcs, mains, features = [], [], set()
        for i in range(nfun):
            fg = FuncGen(self.g, self, i)
            text, main = fg.build()
            funcs.append((fg, text))
            mains.append(main)
            features |= fg.features
            features |= {f"type-{t.tag}" for t in fg.types}
        features |= self.call_graph.features
        if self.math_exact:
            features.add("math-exact")
        tol = "exact"
        if self.red_float:
            tol = f"reduction-fp rel={'2e-3' if 'f32' in self.red_float else '1e-9'}"
        # even seeds: lane refill wherever it can be built, not only where
        # it pays (the cost model lets few generated loops through)
        s2s_args = ["--math exact"] * self.math_exact + ["--refill-ratio 0"] * (self.seed % 2 == 0)
        args = f' args="{" ".join(s2s_args)}"' if s2s_args else ""
        # gcc 12 folds 0.0 - (double)k to -(double)k at any -O (and so gives
        # -0.0 for k == 0; IEEE and clang give +0.0) once an operand folds to
        # zero, e.g. ((double)i - (double)i) - (double)k: seed 20200082.
        # -frounding-math keeps that fold out of the reference and the
        # candidate alike.  gcc only: clang 19 needs none, and its strict-FP
        # path crashes now and then at -O3 (LICM, seeds 137 and 20603878).
        cflags = ' gcc_cflags="-frounding-math"'
        # s2svec's output is built as OpenMP programs are, by part of the seeds
        openmp = self.forms.choice(OPENMP_FLAGS)
        if "for-simd" in features:
            # an orphaned 'omp for simd' may not reduce into a local of its
            # function: OpenMP compilers reject it (gcc: "reduction variable
            # is private in outer context", clang: "... must be shared")
            openmp = ""
        if openmp:
            cflags += f' candidate_cflags="{openmp}"'
            features.add(f"build{openmp}")
        features |= self.features
        header = (f"/* s2s-test: vectorized=? tolerance={tol}{args}{cflags} */\n"
                  f"/* Generated by testsuite/fuzz/generate.py, seed {self.seed}: "
                  "python testsuite/fuzz/generate.py "
                  f"{self.seed}{opts.command}\n * features: {' '.join(sorted(features))} */\n")
        include = f'#include "{self.header_name()}"\n' if self.header else ""
        text = (header + PRELUDE + include + "\n"
                + "".join(h + "\n" for h in self.helpers.values() if h)
                + "\n".join(text for _, text in funcs) + "\n" + self.main(funcs, mains))
        headers = {self.header_name(): self.header_text()} if self.header else {}
        return Program(self.seed, text, tuple(sorted(features)), headers)

    def main(self, funcs, mains: list[list[str]]) -> str:
        """One test_fN(n) per function (a small function each: gcc's SLP
        vectorizer is slow on one huge main), main calls them per size."""
        out = []
        for (fg, _), body in zip(funcs, mains):
            decls = [f"static {a.type.name} {fg.name}_{a.name}[FZ_N{f' * {a.fields}' if a.fields else ''}];"
                     for a in fg.arrays]
            out += [f"static void test_{fg.name}(int n)", "{", *indent(decls), *indent(body),
                    "}", ""]
        out += ["int main(int argc, char **argv)", "{", "    (void)argc;", "    (void)argv;",
                "    S2S_FOR_SIZES(n) {",
                *(f"        test_{fg.name}(n);" for fg, _ in funcs), "    }", "    return 0;",
                "}"]
        return "\n".join(out) + "\n"


PRELUDE = f"""#include "harness.h"
#include <limits.h>

#define FZ_N {FZ_N}
#define FZ_TABLE {TABLE}

static int fz_max(int a, int b) {{ return a > b ? a : b; }}

/* Elements a loop reads at stride * k + offset for k < kc. */
static int fz_ext(int kc, int stride, int offset) {{ return kc > 0 ? (kc - 1) * stride + offset + 1 : 0; }}

/* A float result printed exactly, every NaN as the canonical one. */
static void fz_out_fp(const char *tag, double v)
{{
    s2s_out_f64(tag, v != v ? (double)NAN : v);
}}

/* An output array: its first `shown` elements in lines of 96 (a difference
 * shows its index), then the hash of all FZ_N elements (a stray store
 * anywhere shows).  Float NaNs print as the canonical one (C leaves the sign
 * and payload of a computed NaN open). */
__attribute__((noinline)) static void fz_out_array(const char *tag, const void *p, int elsize,
                                                   int isfloat, int shown)
{{
    static unsigned char tmp[8 * FZ_N];
    char name[64];
    memcpy(tmp, p, (size_t)elsize * FZ_N);
    for (int i = 0; isfloat && i < FZ_N; i++) {{
        unsigned char *e = tmp + (size_t)i * elsize;
        if (elsize == 8) {{
            double d;
            memcpy(&d, e, 8);
            if (d != d) {{ d = NAN; memcpy(e, &d, 8); }}
        }} else {{
            float f;
            memcpy(&f, e, 4);
            if (f != f) {{ f = NAN; memcpy(e, &f, 4); }}
        }}
    }}
    if (shown > FZ_N) shown = FZ_N;
    for (int i = 0; i < shown; i += 96) {{
        snprintf(name, sizeof name, "%s@%d", tag, i);
        s2s_out_bytes(name, tmp + (size_t)i * elsize, (size_t)elsize, shown - i < 96 ? shown - i : 96);
    }}
    s2s_out_bytes(tag, tmp, (size_t)elsize, FZ_N);
}}

/* p[0..kc) = a random permutation of 0..kc-1: scatter targets that never collide. */
static void fz_perm(int32_t *p, int kc)
{{
    for (int j = 0; j < kc; j++) p[j] = j;
    for (int j = kc - 1; j > 0; j--) {{
        int o = (int)(s2s_u32() % (uint32_t)(j + 1));
        int32_t t = p[j]; p[j] = p[o]; p[o] = t;
    }}
}}

static uint64_t fz_edge_bits(int bits)
{{
    static const int64_t small[] = {{0, 1, -1, 2, -2, 3, 127, -128, 255, 32767, -32768}};
    uint64_t top = bits == 64 ? ~0ull : (1ull << bits) - 1;
    switch (s2s_u32() % 6) {{
    case 0: return top;                        /* all ones */
    case 1: return top >> 1;                   /* signed max */
    case 2: return (top >> 1) + 1;             /* signed min */
    case 3: return ((top >> 1) + 1) | 1;       /* min + 1 */
    default: return (uint64_t)small[s2s_u32() % 11];
    }}
}}

static double fz_special(int elsize)
{{
    static const double d[] = {{NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0,
                               5e-324, 1e308, -1e308}};
    static const double f[] = {{NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0,
                               1e-40, 3e38, -3e38}};
    return (elsize == 8 ? d : f)[s2s_u32() % 11];
}}

/* The main-side helpers are not inlined: gcc's SLP vectorizer is very slow
 * on test functions that inline a dozen fill loops. */

/* Uniform parameters (s2s_int/s2s_f64 not inlined at every call site). */
__attribute__((noinline)) static long long fz_int(long long lo, long long hi) {{ return s2s_int(lo, hi); }}
__attribute__((noinline)) static double fz_f64(double lo, double hi) {{ return s2s_f64(lo, hi); }}

/* n elements of elsize bytes: mode 0 any bits / [-10, 10), 1 small values,
 * 2 edge values (integer limits; NaN, infinities, signed zeros, denormals). */
__attribute__((noinline)) static void fz_fill(void *p, int elsize, int isfloat, int n, int mode)
{{
    unsigned char *b = (unsigned char *)p;
    for (int j = 0; j < n; j++, b += elsize) {{
        if (isfloat) {{
            double d = mode == 1 ? s2s_f64(-2.0, 2.0) : s2s_f64(-10.0, 10.0);
            if (mode == 2 && s2s_u32() % 8 == 0) d = fz_special(elsize);
            if (elsize == 4) {{ float f = (float)d; memcpy(b, &f, 4); }} else memcpy(b, &d, 8);
        }} else {{
            uint64_t v = mode == 0 ? s2s_u64() : mode == 1 ? (uint64_t)s2s_int(-20, 20)
                       : (s2s_u32() & 1) ? fz_edge_bits(8 * elsize) : s2s_u64();
            memcpy(b, &v, (size_t)elsize);     /* little-endian: the low bytes */
        }}
    }}
}}

/* Bytes that differ per element and per size, cheaply (output arrays). */
__attribute__((noinline)) static void fz_bytes(void *p, size_t bytes, uint64_t salt)
{{
    uint64_t x = salt * 0x9E3779B97F4A7C15ull + 1;
    unsigned char *b = (unsigned char *)p;
    for (size_t j = 0; j + 8 <= bytes; j += 8) {{
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t v = x ^ (x >> 29);
        memcpy(b + j, &v, 8);
    }}
}}

/* Lane-pattern conditions (harness.h's s2s_pattern) as 0/1 of any type. */
__attribute__((noinline)) static void fz_mask(void *p, int elsize, int isfloat, int n,
                                              int pattern, int kc)
{{
    unsigned char *b = (unsigned char *)p;
    for (int j = 0; j < n; j++, b += elsize) {{
        int v = s2s_pattern(pattern, j, kc);
        if (isfloat) {{ float f = (float)v; memcpy(b, &f, 4); }}
        else {{ uint64_t u = (uint64_t)v; memcpy(b, &u, (size_t)elsize); }}
    }}
}}

/* Gather indices below FZ_TABLE; where mask (if any) is 0, a wild index far
 * outside every array (only a guarded load may use it). */
__attribute__((noinline)) static void fz_index(void *p, int elsize, const void *mask,
                                               int melsize, int n)
{{
    unsigned char *b = (unsigned char *)p;
    const unsigned char *m = (const unsigned char *)mask;
    for (int j = 0; j < n; j++, b += elsize) {{
        uint64_t v = (uint64_t)s2s_int(0, FZ_TABLE - 1), zero = 0;
        if (m && memcmp(m + (size_t)j * melsize, &zero, (size_t)melsize) == 0) v = 0x3fffff00u;
        memcpy(b, &v, (size_t)elsize);
    }}
}}
"""


def generate(seed: int, options: Optional[Options] = None) -> Program:
    """The program of `seed` (a pure function of seed and options)."""
    return ProgramGen(seed, options or Options()).build()


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    ap.add_argument("--small", action="store_true",
                    help="the CI batch's smaller programs (1-3 loops, 2-6 statements)")
    ap.add_argument("--no-narrow-index", action="store_true",
                    help="mask the loop variable before converting it to a narrower type")
    ap.add_argument("--weights", default="",
                    help="statement weights, e.g. switch=0,continue=2 (see STMT_WEIGHTS)")
    ns = ap.parse_args(argv)
    options = small_options() if ns.small else Options()
    for item in filter(None, ns.weights.split(",")):
        key, _, value = item.partition("=")
        if key not in options.weights:
            ap.error(f"unknown statement kind {key!r} (known: {', '.join(options.weights)})")
        options.weights[key] = float(value)
    if ns.weights:
        options.command += f" --weights {ns.weights}"
    if ns.no_narrow_index:
        options.narrow_index = False
        options.command += " --no-narrow-index"
    prog = generate(ns.seed, options)
    if ns.output:
        prog.write(Path(ns.output))
    else:
        sys.stdout.write(prog.text)
        for name in prog.headers:
            print(f"generate.py: the program includes its own header {name}: write both "
                  "with -o FILE", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
