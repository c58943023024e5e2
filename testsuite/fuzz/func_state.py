"""The state of one function being generated: its name, the values in
scope, the element types it mixes and its parameters (uniform scalars and
arrays by role), which every part of the generator adds to as it writes the
function's loop."""

from __future__ import annotations

from typing import TYPE_CHECKING

from c_types import CHAR, ELEMENT_TYPES, F32, F64, I32, CType
from options import MAX_OUTPUTS, MAX_TAILS, Gen
from values import Array, Reduction, Result, Scalar, Value

if TYPE_CHECKING:
    from program import ProgramGen
    from shapes import Shape


class FuncState:
    """One function's state and parameters.  The generator's parts are
    mixins of this class (expressions, statements, control flow, declare
    simd calls, loop shapes, text), combined by FuncGen (func_gen.py)."""

    shape: Shape
    """The loop nest, chosen first by FuncGen.build."""
    k: str
    """The iteration index 0..kc-1 as C text (shape.k): array subscripts."""

    def __init__(self, gen: Gen, prog: ProgramGen, index: int) -> None:
        self.g = gen
        self.prog = prog
        self.name = f"f{index}"
        self.arrays: list[Array] = []
        self.scalars: list[Scalar] = []
        self.results: list[Result] = []
        self.reductions: list[Reduction] = []
        self.scopes: list[list[Value]] = [[]]
        self.counter = 0
        self.inner: list[tuple[str, int]] = []  # enclosing inner loops: (var, max value)
        self.features: set[str] = set()
        self.tails = 0
        self.linear: list[tuple[Value, int, Array]] = []
        self.no_continue = False
        self.in_index_expr = False
        self.rows: dict[str, tuple[str, int]] = {}
        """Per table: the row index (C text) and row length of its row loads."""
        self.varying = 0  # depth of enclosing varying branches and loops
        self.cond_depth = 0  # depth of enclosing branches and loops of any kind
        self.continued = False  # a `continue` of the simd loop was emitted
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

    def int_type(self) -> CType:
        return self.g.pick([x for x in self.types if not x.floating] or [I32])

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

    def array(self, t: CType, role: str, **kw) -> Array | None:
        tail = role in ("in", "mask", "gidx", "perm", "lim")
        if tail and self.tails >= MAX_TAILS:
            return None
        self.tails += tail
        a = Array(
            self.fresh(
                {
                    "in": "in",
                    "table": "tb",
                    "out": "out",
                    "mask": "m",
                    "gidx": "gi",
                    "perm": "perm",
                    "lim": "lin",
                    "rec": "rec",
                }[role]
            ),
            t,
            role,
            **kw,
        )
        self.arrays.append(a)
        return a

    def input(self, t: CType) -> Array | None:
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
        if existing and (
            self.g.chance(0.6) or sum(a.role == "out" for a in self.arrays) >= MAX_OUTPUTS
        ):
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
