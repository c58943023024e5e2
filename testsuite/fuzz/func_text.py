"""The C text of a generated function (parameters, the loop nest, results
stored through pointers) and main's code that fills its inputs, calls it
once per size and prints every output."""

from __future__ import annotations

import re

from c_text import indent
from func_state import FuncState
from values import Array, Result


class FunctionText(FuncState):
    """Writes one function and its part of main."""

    def params(self) -> list[str]:
        out = ["int n"]
        out += [f"{s.value.type.name} {s.value.name}" for s in self.scalars]
        for a in self.arrays:
            const = "" if a.role in ("out", "rec") else "const "
            out.append(
                f"{a.struct} *{a.name}" if a.role == "rec" else f"{const}{a.type.name} *{a.name}"
            )
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
        unused = [
            s.value.name
            for s in self.scalars
            if not self.mentions(s.value.name, pre + [pragma] + sh.header + body)
        ]
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
        for a in tailed:  # elements the loop may read: filled and passed
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
                body.append(
                    f'fz_out_array("{f}.{a.name}", {arr}, sizeof {arr}[0], '
                    f"{int(a.type.floating)}, 3 * kc + 8);"
                )
            for c in range(a.fields):  # a record array: FZ_N elements at a time
                body.append(
                    f'fz_out_array("{f}.{a.name}.{c}", {arr} + {c} * FZ_N, '
                    f"sizeof {arr}[0], {int(a.type.floating)}, 3 * kc + 8);"
                )
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
