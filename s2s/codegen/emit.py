"""Emission: vector IR -> C text through the target's templates.

Every VOp is rendered by the macro of its name in templates/<target>/ops.j2
(``dst = <expression>;`` or the macro's statement).  Operations the widener
decided to run per lane are rendered by the generic fallback: spill the
vector inputs to arrays, run the scalar C of one lane in a loop over the
lanes (guarded by the mask bits when masked), reload the result.
"""

from __future__ import annotations

from typing import Any

from ..ir.types import PtrType
from .cexpr import c_type
from .target import Target, TypeInfo
from .vector_ir import CStmt, Item, LaneCode, VectorBody, VOp

INDENT = "    "


class Emitter:
    """Renders vector IR items to C lines for one target."""

    def __init__(self, target: Target, width: int) -> None:
        self.target = target
        self.W = width
        self.needs: set[Any] = set()
        self.ops = target.ops(self._need)

    def _need(self, name: str) -> str:
        self.needs.add(("helper", name))
        return ""

    def macro(self, name: str, **args: Any) -> str:
        macro = getattr(self.ops, name, None)
        text = str(macro(**args)).strip() if macro is not None else ""
        if not text:
            raise KeyError(
                f"target {self.target.name} has no template '{name}' for "
                + ", ".join(f"{k}={v.key}" for k, v in args.items() if isinstance(v, TypeInfo))
            )
        return text

    # -- items ----------------------------------------------------------------------
    def items(self, items: list[Item]) -> list[str]:
        lines: list[str] = []
        for item in items:
            if isinstance(item, CStmt):
                lines.append(item.text)
            elif item.name == "$extract":
                lines.extend(self.extract(item))
            elif item.name == "$if_any":
                a = item.args
                bits = self.macro("mask_bits", mt=a["mt"], m=a["m"])
                live = (1 << self.W) - 1  # bits at and above W are unspecified
                if item.dst is None:
                    lines.append(f"if (({bits}) & {live}u) {a['stmt']}")
                else:
                    lines.append(f"{item.dst} = (({bits}) & {live}u) ? {a['expr']} : {a['zero']};")
            elif item.fallback is not None:
                lines.extend(self.per_lane(item, item.fallback))
            else:
                text = self.macro(item.name, **item.args)
                lines.append(f"{item.dst} = {text};" if item.dst else text)
        return lines

    def blocks(self, body: VectorBody) -> list[str]:
        lines: list[str] = []
        for block in body.blocks:
            if block.label:
                lines.append(f"{block.label}:;")
            lines.extend(self.items(block.items))
        if body.end_label:
            lines.append(f"{body.end_label}:;")
        return lines

    # -- lane extraction ---------------------------------------------------------------
    def extract(self, op: VOp) -> list[str]:
        t: TypeInfo = op.args["t"]
        v, j, cast = op.args["v"], op.args["j"], op.args.get("cast", "")
        text = (
            self.macro("extract", t=t, v=v, j=j)
            if not t.is_mask and self.target.has("extract", t=t)
            else ""
        )
        if text:
            return [f"{op.dst} = {cast}{text};"]
        if t.is_mask:
            bits = self.macro("mask_bits", mt=t, m=v)
            return [f"{op.dst} = (int)(({bits} >> {j}) & 1u);"]
        return [
            "{",
            f"{INDENT}{t.scalar} s2s_x[{self.W}];",
            f"{INDENT}{self.macro('store', t=t, p='s2s_x', v=v)}",
            f"{INDENT}{op.dst} = {cast}s2s_x[{j}];",
            "}",
        ]

    # -- the generic per-lane fallback ----------------------------------------------------
    def per_lane(self, op: VOp, lc: LaneCode) -> list[str]:
        """``op`` run lane by lane: its fallback ``lc``."""
        W = self.W
        pre: list[str] = []
        lane_texts: list[str] = []
        for idx, inp in enumerate(lc.inputs):
            if inp.type is None:
                lane_texts.append(inp.text)
            elif inp.type.is_mask:
                pre.append(
                    f"unsigned s2s_mb{idx} = {self.macro('mask_bits', mt=inp.type, m=inp.text)};"
                )
                lane_texts.append(f"((s2s_mb{idx} >> s2s_j) & 1u)")
            else:
                arr = f"s2s_in{idx}"
                pre.append(f"{inp.type.scalar} {arr}[{W}];")
                pre.append(self.macro("store", t=inp.type, p=arr, v=inp.text))
                if isinstance(inp.ir_type, PtrType):
                    lane_texts.append(f"(({c_type(inp.ir_type)})(uintptr_t){arr}[s2s_j])")
                else:
                    lane_texts.append(f"{arr}[s2s_j]")
        code = lc.code.format(*lane_texts)
        guard = ""
        if op.mask is not None:
            pre.append(
                f"unsigned s2s_mk = {self.macro('mask_bits', mt=op.mask.type, m=op.mask.text)};"
            )
            guard = "if ((s2s_mk >> s2s_j) & 1u) "
        post: list[str] = []
        rt: TypeInfo | None = op.result if op.dst else None
        if rt is None:
            stmt = code
        else:
            init = " = {0}" if op.mask is not None else ""
            if rt.is_mask:
                it = self.target.vtype(f"i{rt.bits}", W)
                assert it is not None
                pre.append(f"{it.scalar} s2s_out[{W}]{init};")
                stmt = f"s2s_out[s2s_j] = ({code}) ? -1 : 0;"
                post.append(f"{it.ctype} s2s_t = {self.macro('load', t=it, p='s2s_out')};")
                post.append(f"{it.ctype} s2s_z = {self.macro('broadcast', t=it, x='0')};")
                post.append(
                    f"{op.dst} = {self.macro('cmp_ne', t=it, a='s2s_t', b='s2s_z', mt=rt)};"
                )
            else:
                pre.append(f"{rt.scalar} s2s_out[{W}]{init};")
                if isinstance(lc.result_ir_type, PtrType):
                    code = f"(uint64_t)(uintptr_t){code}"
                stmt = f"s2s_out[s2s_j] = {code};"
                post.append(f"{op.dst} = {self.macro('load', t=rt, p='s2s_out')};")
        text = self.target.render("per_lane.c.j2", W=W, pre=pre, guard=guard, stmt=stmt, post=post)
        return text.rstrip("\n").split("\n")


def indent_lines(lines: list[str], level: int) -> list[str]:
    """Indent C lines, following the braces the statements open and close."""
    out: list[str] = []
    depth = level
    for line in lines:
        for sub in line.split("\n"):
            stripped = sub.strip()
            if not stripped:
                out.append("")
                continue
            if stripped.startswith("}"):
                depth = max(level, depth - 1)
            label = stripped.endswith(":;") and " " not in stripped
            out.append(INDENT * (depth - (1 if label and depth > 0 else 0)) + stripped)
            if stripped.endswith("{") or stripped.startswith("{ /*"):
                depth += 1
    return out
