"""Call graphs of plain functions for the generated programs' loops to call.

A loop's ``stmt_call`` calls ``fz_h_<type>``, the top of a small call graph
of functions of the program (issue 19: s2svec inlines them, gives the large
ones vector variants of its own, keeps the rest calls with a reason), each
``static``, ``static inline`` or extern by chance:

    fz_h_T(x, s)         calls leaf, and by chance walk, find, mix, rec, taken, big
      fz_leaf_T(x, s)    arithmetic and a ?: (as before issue 19)
      fz_walk_T(x, n)    a loop of n trips (divergent when n is) that may
                         return early, reading a global constant table
      fz_find_T(e)       a binary search of a sorted global table (an int)
      fz_mix_T(p, x)     a struct parameter by value
      fz_rec_T(x, d)     recursion (the recursive call stays a call)
      fz_taken_T(x, s)   a function whose address is taken (stays a call)
      fz_big_T(x, k)     a long formula called three times (a variant), here
                         or straight from the loop (direct_calls)

Floating types only: their arithmetic has no undefined behaviour; every
conversion to int is of a value known to be small.  The choices come from
a random stream of their own, so the rest of a seed's program is as before.
"""

from __future__ import annotations

import random

from c_types import F32, CType

LINKAGES = ("static ", "static inline ", "")


def _fn(t: CType, name: str) -> str:
    return name + "f" if t is F32 else name


class CallGraph:
    """The functions of one program's call graphs, by type."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(f"call-graph:{seed}")
        self.features: set[str] = set()

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def link(self) -> str:
        return self.r.choice(LINKAGES)

    def texts(self, t: CType) -> list[str]:
        """The globals and functions of ``t``'s graph, callees first; the
        top is ``fz_h_<tag>(x, s)``."""
        tag, T = t.tag, t.name
        lit = (lambda v: f"{v}f") if t is F32 else str
        out = [self.leaf(t)]
        calls = [f"r = fz_leaf_{tag}(x, s);"]
        find = self.chance(0.6)
        if self.chance(0.7):
            self.features.add("call-walk")
            out.append(self.walk(t, lit))
            calls += [
                "if (x > s)",
                f"    r += fz_walk_{tag}(x, ((int)({_fn(t, 'fabs')}(x) < {lit(100.0)} ? "
                f"{_fn(t, 'fabs')}(x) : {lit(0.0)})) & 7);",
            ]
        if find:
            self.features.add("call-find")
            out.append(self.find(t, lit))
            calls.append(f"r += fz_grid_{tag}[fz_find_{tag}(x)];")
        if self.chance(0.5):
            self.features.add("call-mix")
            out += [f"struct fz_pair_{tag} {{ {T} a; {T} b; }};", self.mix(t)]
            calls += [f"struct fz_pair_{tag} p = {{ s, x }};", f"r += fz_mix_{tag}(p, x);"]
        if self.chance(0.3):
            self.features.add("call-rec")
            out.append(self.rec(t, lit))
            calls.append(f"r += fz_rec_{tag}(x, 3);")
        if self.chance(0.3):
            self.features.add("call-taken")
            out += [self.taken(t), f"{T} (*const fz_taken_ptr_{tag})({T}, {T}) = fz_taken_{tag};"]
            calls.append(f"r += fz_taken_{tag}(x, s);")
        out.append(self.big(t, lit))  # also called by loops (direct_calls)
        if self.chance(0.3):
            self.features.add("call-big")
            calls += [
                f"r += fz_big_{tag}(x, 1) - fz_big_{tag}(s, 2);",
                "if (r < s)",
                f"    r += fz_big_{tag}(r, 3);",
            ]
        out.append(
            "\n".join(
                [
                    f"{self.link()}{T} fz_h_{tag}({T} x, {T} s)",
                    "{",
                    f"    {T} r;",
                    *("    " + c for c in calls),
                    "    return r;",
                    "}",
                ]
            )
        )
        # only the tables a chosen callee reads: -Wall warns of unused ones
        out.insert(0, self.tables(t, find))
        return [text + "\n" for text in out]

    def direct_calls(self, t: CType, x: str, s: str) -> str:
        """An expression calling the graph from a loop: its top, or (by
        chance) the large function three times (one vector variant of
        s2svec's own serves them)."""
        tag = t.tag
        if self.chance(0.35):
            self.features.add("call-big-thrice")
            return f"fz_big_{tag}({x}, 1) + fz_big_{tag}({s}, 2) * fz_big_{tag}({x}, 3)"
        return f"fz_h_{tag}({x}, {s})"

    def tables(self, t: CType, find: bool) -> str:
        grid = ", ".join(f"{k * 1.5 - 8.0}" for k in range(16))
        tab = ", ".join(f"{(k * 7 % 11) * 0.25 - 1.0}" for k in range(16))
        return "".join(
            [
                f"static const {t.name} fz_grid_{t.tag}[16] = {{ {grid} }};\n" if find else "",
                f"static const {t.name} fz_tab_{t.tag}[16] = {{ {tab} }};\n",
            ]
        )  # walk and big

    def leaf(self, t: CType) -> str:
        T = t.name
        return "\n".join(
            [
                f"{self.link()}{T} fz_leaf_{t.tag}({T} x, {T} s)",
                "{",
                f"    return x * s + ({_fn(t, 'fabs')}(x) < s ? s : x);",
                "}",
            ]
        )

    def walk(self, t: CType, lit) -> str:
        T = t.name
        return "\n".join(
            [
                f"{self.link()}{T} fz_walk_{t.tag}({T} x, int n)",
                "{",
                f"    {T} r = x;",
                "    for (int k = 0; k < n; k++) {",
                f"        if (r > {lit(8.0)})",
                f"            return r * {lit(0.5)};",
                f"        r = r * {lit(0.75)} + fz_tab_{t.tag}[k & 15];",
                "    }",
                "    return r;",
                "}",
            ]
        )

    def find(self, t: CType, lit) -> str:
        return "\n".join(
            [
                f"{self.link()}int fz_find_{t.tag}({t.name} e)",
                "{",
                "    int lo = 0, hi = 15;",
                "    while (hi - lo > 1) {",
                "        int mid = (lo + hi) / 2;",
                f"        if (fz_grid_{t.tag}[mid] > e)",
                "            hi = mid;",
                "        else",
                "            lo = mid;",
                "    }",
                "    return lo;",
                "}",
            ]
        )

    def mix(self, t: CType) -> str:
        T = t.name
        return "\n".join(
            [
                f"{self.link()}{T} fz_mix_{t.tag}(struct fz_pair_{t.tag} p, {T} x)",
                "{",
                "    p.b = p.b * x;",
                "    return p.a * x + p.b;",
                "}",
            ]
        )

    def rec(self, t: CType, lit) -> str:
        T = t.name
        return "\n".join(
            [
                f"static {T} fz_rec_{t.tag}({T} x, int d)",
                "{",
                f"    return d <= 0 ? x : fz_rec_{t.tag}(x * {lit(0.5)}, d - 1) + {lit(1.0)};",
                "}",
            ]
        )

    def taken(self, t: CType) -> str:
        T = t.name
        return "\n".join(
            [f"static {T} fz_taken_{t.tag}({T} x, {T} s)", "{", "    return x - s * x;", "}"]
        )

    def big(self, t: CType, lit) -> str:
        T = t.name
        terms = [
            f"    r = r * {lit(0.5)} + x * {lit(round(0.25 + 0.125 * k, 3))} "
            f"- fz_tab_{t.tag}[(k + {k}) & 15];"
            for k in range(40)
        ]
        return "\n".join(
            [
                f"{self.link()}{T} fz_big_{t.tag}({T} x, int k)",
                "{",
                f"    {T} r = x;",
                *terms,
                f"    if (r > {lit(4.0)})",
                f"        r = r * {lit(0.125)};",
                "    return r;",
                "}",
            ]
        )


__all__ = ["CallGraph"]
