"""Divergent control flow inside the simd loop: switch, continue, loops
with per-lane trip counts (for, while, do, search) and early exits, a break
out of two nested loops, per-lane local arrays (histograms and stacks) and
short-circuit guards of loads that are only defined where the guard holds.

Every loop ends (at most 8 trips, its counter steps before the body or in
the condition, so ``continue`` cannot skip it) and every local array index
is masked ``& 7`` or below a checked stack pointer."""

from __future__ import annotations

from collections.abc import Callable

from c_text import indent, paren
from c_types import I8, I32, I64, U8, U32, U64, CType, int_arith, int_bitwise
from stmts import Statements
from values import Value


class ControlFlow(Statements):
    """The divergent statement kinds (stmt_switch, stmt_continue, ...)."""

    def stmt_switch(self, depth: int) -> list[str]:
        varying = self.g.chance(0.8)
        self.features.add("switch")
        if varying:
            self.features.add("switch-varying")
        labels = self.g.rng.sample(range(8), self.g.rng.randint(2, 5))
        if self.g.chance(0.85):  # default anywhere: first, between cases, last
            labels.insert(self.g.rng.randint(0, len(labels)), -1)
            pos = labels.index(-1)
            self.features.add(
                "switch-default-"
                + ("first" if pos == 0 else "last" if pos == len(labels) - 1 else "middle")
            )
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

    def div_loop(
        self,
        depth: int,
        extra: Callable[[str], list[str]] | None = None,
        bound: str | None = None,
    ) -> list[str]:
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
                out += [
                    f"if {paren(self.cond(1, False))} {{",
                    f"    {r.name} = {self.expr(t, 2)};",
                    "    break;",
                    "}",
                ]
            return out

        bound = "6" if self.g.chance(0.3) else None  # uniform trip count, divergent exits
        lines = [f"{t.name} {r.name} = {init};", *self.div_loop(depth, extra, bound)]
        self.declare(r)
        return lines

    def stmt_nested_break(self, depth: int) -> list[str]:
        """A hit in the inner of two loops leaves both (a flag tested after the inner)."""
        self.features.add("nested-break")
        hit = self.fresh("hit")

        def inner_exit(j: str) -> list[str]:
            return [
                f"if {paren(self.cond(1, False))} {{",
                f"    {hit} = {j} + 1;",
                "    break;",
                "}",
            ]

        def outer_extra(j: str) -> list[str]:
            return self.div_loop(depth + 1, inner_exit) + [f"if ({hit} != 0) {{", "    break;", "}"]

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
        if self.g.chance(0.5):  # a uniform loop over a per-lane array
            j = self.fresh("j")
            lines.append(f"for (int {j} = 0; {j} < 8; {j}++) {st}[{j}] = {self.const(t)};")
        else:
            lines[0] = f"{t.name} {st}[8] = {{0}};"

        def extra(j: str) -> list[str]:
            push = self.expr(t, 1)
            pop = (
                f"{acc.name} + {st}[{sp}]"
                if t.floating
                else int_bitwise(t, "^", acc.name, f"{st}[{sp}]")
            )
            return [
                f"if {paren(self.cond(1, False))} {{",
                f"    if ({sp} < 8) {{",
                f"        {st}[{sp}] = {push};",
                f"        {sp}++;",
                "    }",
                f"}} else if ({sp} > 0) {{",
                f"    {sp}--;",
                f"    {acc.name} = {pop};",
                "}",
            ]

        lines += self.div_loop(depth, extra)
        top = Value(self.fresh("t"), t, uniform=False)
        lines.append(f"{t.name} {top.name} = {sp} > 0 ? {st}[{sp} - 1] : {acc.name};")
        self.declare(acc)
        self.declare(top)
        return lines

    def guard(self) -> tuple[str, str, str, CType] | None:
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
        return (
            f"{m.name}[{self.k}] != 0",
            f"{m.name}[{self.k}] == 0",
            f"{tb.name}[{gi.name}[{self.k}]]",
            t,
        )

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
            lines = self.arms(
                True, lambda: [f"if ({ok} && {test}) {{", *indent(self.block(depth + 1)), "}"]
            )
            return lines
        else:
            v = Value(self.fresh("t"), I32, uniform=False)
            c = f"{ok} && {test}" if form == "and" else f"{bad} || {test}"
            lines = [f"int32_t {v.name} = {c};"]
        self.declare(v)
        return lines
