"""Layout of the C lines code generation writes.

The emitters write one statement per line without indentation; the loop
skeleton and the variants are indented here, one level per brace the lines
open, so that the output reads like hand-written C."""

from __future__ import annotations

INDENT = "    "


def indent_lines(lines: list[str], level: int) -> list[str]:
    """Indent C lines, following the braces the statements open and close
    (a label sits one level out)."""
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
