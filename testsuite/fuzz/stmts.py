"""Statements of a loop body: locals, assignments, stores, records,
reduction updates, if/else on uniform and varying conditions, inner loops
with uniform bounds, guarded loads and calls of the program's plain
functions.  ``stmt`` picks a kind by weight (Options.weights) and runs its
``stmt_<kind>`` method, also those of control.py and declare_simd.py."""

from __future__ import annotations

from collections.abc import Callable

from c_text import indent, is_read, math_fn, paren
from c_types import F64, I8, I32, I64, U8, U16, U32, U64, CType, int_arith, int_bitwise
from exprs import Expressions
from options import LOOPS, MAX_TAILS, NESTING
from values import Array, Reduction, Value


class Statements(Expressions):
    """Blocks and statements of one function's loop body."""

    def block(self, depth: int, count: int | None = None) -> list[str]:
        self.scopes.append([])
        lines: list[str] = []
        _, hi = self.g.options.statements
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
        if len(self.inner) >= 2:  # loops nest at most two deep: 8 * 8 trips
            off += LOOPS
        if self.inner or depth + 1 >= self.g.options.depth:
            off.append("nested_break")  # two loops of its own
        if not self.reductions:
            off.append("reduce")
        if self.no_continue and not self.inner:  # linear steps at the end of the body
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
        targets = [
            v
            for v in self.scopes[-1] + (self.scopes[-2] if len(self.scopes) > 1 else [])
            if not v.uniform and v.name[0] == "t"
        ]
        if not targets:
            return self.stmt_local(depth)
        v = self.g.pick(targets)
        t = v.type
        e = self.expr(t, 2)
        if e == v.name:  # t = t op t is fine, t &= t is a warning
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

        def field(f):
            return f"{rec.name}[{self.k}].f{f}"

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
            upd = {
                "select": f"{s} = {tmp.name} {lt} {s} ? {tmp.name} : {s};",
                "if": f"if ({tmp.name} {lt} {s}) {{ {s} = {tmp.name}; }}",
                "fn": f"{s} = {math_fn(t, 'f' + op)}({s}, {tmp.name});",
            }[form]
            return [f"{t.name} {tmp.name} = {e};", upd]
        if t.floating:
            if op == "*":  # factors >= 1: partial products never overflow before the whole
                e = f"({t.literal(1.0)} + {math_fn(t, 'fabs')}({e}) * {t.literal(0.001)})"
            else:  # non-negative terms: no cancellation, relative error bounded
                e = f"{math_fn(t, 'fabs')}({e})"
            return [f"{s} {op}= {e};" if self.g.chance(0.6) else f"{s} = {s} {op} {e};"]
        if op in "&|^":
            return [f"{s} {op}= {e};"]
        if op in "+-":
            if t.signed and t.bits >= 32:  # bounded terms: the sum cannot overflow
                e = f"(({e}) & 4095)"
            return [f"{s} {op}= {e};" if self.g.chance(0.6) else f"{s} = {s} {op} {e};"]
        # op == "*"
        if t.signed and t.bits >= 32:  # factors +-1
            return [f"{s} *= ({t.name})(1 - 2 * (({e}) & 1));"]
        if t is U16:  # uint16_t * uint16_t would be int
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
        fabs, sqrt = math_fn(t, "fabs"), math_fn(t, "sqrt")
        formula = (
            f"({a}) / ({fabs}({b}) + {t.literal(1.5)}) "
            f"+ {sqrt}({fabs}(({a}) * {t.literal(0.25)} + {b}))"
        )
        if self.g.chance(0.35):
            formula += f" + {self.expr(t, 1)}"
        return [f"{acc.name} = {acc.name} + {formula};"]

    def stmt_inner_loop(self, depth: int) -> list[str]:
        self.features.add("inner-loop")
        q = self.scalar(I32, 0, 4, prefix="q")
        return self.loop_lines(f"int {{j}} = 0; {{j}} < {q.name}; {{j}}++", 3, depth)

    def loop_lines(
        self,
        header: str,
        jmax: int,
        depth: int,
        uniform: bool = True,
        tail: Callable[[str], list[str]] | None = None,
    ) -> list[str]:
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
        return [
            f"{t.name} {v.name} = {init};",
            f"if ({self.k} + {d} < kc) {{",
            f"    {v.name} = {a.name}[{self.k} + {d}];",
            "}",
        ]

    def stmt_limited_load(self, depth: int) -> list[str]:
        t = self.pick_type()
        lim = self.scalar(I32, 0, 0, prefix="lim")  # main sets it to 0..kc
        a = self.array(t, "lim", limit=lim.name, fill="any")
        if a is None:
            return self.stmt_local(depth)
        self.features.add("guarded-load")
        init = self.expr(t, 1)
        v = self.declare(Value(self.fresh("t"), t, uniform=False))
        return [
            f"{t.name} {v.name} = {init};",
            f"if ({self.k} < {lim.name}) {{",
            f"    {v.name} = {a.name}[{self.k}];",
            "}",
        ]

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
        return [
            f"{t.name} {v.name} = {init};",
            f"if ({m.name}[{self.k}] != 0) {{",
            f"    {v.name} = {tb.name}[{gi.name}[{self.k}]];",
            "}",
        ]

    def arms(self, varying: bool, make: Callable[[], list[str]]) -> list[str]:
        """`make()` run as the body of a branch or loop (varying: divergent)."""
        self.varying += varying
        self.cond_depth += 1
        lines = make()
        self.cond_depth -= 1
        self.varying -= varying
        return lines

    def stmt_call(self, depth: int) -> list[str]:
        self.features.add("call")
        t = self.g.pick([x for x in self.types if x.floating] or [F64])
        self.prog.helper(t)
        call = self.prog.call_graph.direct_calls(t, self.expr(t, 2), self.uniform_scalar(t).name)
        v = self.declare(Value(self.fresh("t"), t, uniform=False))
        return [f"{t.name} {v.name} = {call};"]

    def sink_unused(self, scope: list[Value], block: list[str]) -> list[str]:
        """Store every local the block never reads (assignments are not
        reads), so each computed value is observable and none is unused."""
        lines = []
        for v in scope:
            if not v.uniform and not is_read(v.name, block):
                lines.append(self.store_line(self.output(v.type), v.name))
        return lines
