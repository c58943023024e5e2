"""Small helpers for C text: indentation, parentheses, whether a statement
reads a name, and the float spelling of <math.h> functions."""

from __future__ import annotations

import re

from c_types import F32, CType


def math_fn(t: CType, name: str) -> str:
    """The <math.h> function for t (fabsf for float)."""
    return name + "f" if t is F32 else name


def is_read(name: str, lines: list[str]) -> bool:
    """Whether `name` is read in `lines` (one statement per line): any
    mention except as the target of `=` or `op=` at the start of a statement."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    target = re.compile(
        rf"^\s*(?:[A-Za-z_][\w ]*\s)?{re.escape(name)}\s*"
        r"(?:[-+*/%&|^]|<<|>>)?=(?!=)"
    )
    for line in lines:
        m = target.match(line)
        rest = line[m.end() :] if m else line
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
