"""Random loop bodies (nested if/else, inner loops with break/continue,
switch with fallthrough, ?:, && ||, simd-loop continue) lowered and run by
the interpreter against gcc: a stress test of the SSA construction."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from test_lower_semantics import SIGNED, check

VARS = ["v0", "v1", "v2", "v3"]
# More seeds for a longer local run: S2S_RANDOM_SEEDS=300 pytest tests/test_lower_random.py
SEEDS = int(os.environ.get("S2S_RANDOM_SEEDS", "24"))


class BodyGen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.counter = 0

    def expr(self, depth: int = 0) -> str:
        r = self.rng.random()
        if depth > 2 or r < 0.3:
            return self.rng.choice(VARS + ["a[i]", "i", str(self.rng.randint(-5, 9))])
        if r < 0.65:
            op = self.rng.choice(["+", "-", "*", "^", "&", "|", "/ 3", "% 5", ">> 1"])
            if op in ("/ 3", "% 5", ">> 1"):
                return f"({self.expr(depth + 1)} {op})"
            return f"(({self.expr(depth + 1)} {op} {self.expr(depth + 1)}) & 1023)"
        if r < 0.8:
            return f"({self.cond(depth + 1)} ? {self.expr(depth + 1)} : {self.expr(depth + 1)})"
        return f"({self.cond(depth + 1)})"

    def cond(self, depth: int = 0) -> str:
        r = self.rng.random()
        cmp = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        base = f"{self.expr(depth + 1)} {cmp} {self.expr(depth + 1)}"
        if r < 0.2 and depth < 2:
            return f"({base}) {self.rng.choice(['&&', '||'])} ({self.cond(depth + 1)})"
        if r < 0.3:
            return f"!({base})"
        return base

    def stmts(self, depth: int, in_loop: bool, n: int = 3) -> str:
        return "\n".join(self.stmt(depth, in_loop) for _ in range(self.rng.randint(1, n)))

    def stmt(self, depth: int, in_loop: bool) -> str:
        r = self.rng.random()
        v = self.rng.choice(VARS)
        if depth > 2 or r < 0.35:
            kind = self.rng.choice(["=", "+=", "-=", "^=", "++", "--"])
            if kind in ("++", "--"):
                return f"{v}{kind};"
            return f"{v} {kind} {self.expr()};"
        if r < 0.55:
            else_part = (
                f" else {{\n{self.stmts(depth + 1, in_loop)}\n}}" if self.rng.random() < 0.6 else ""
            )
            return f"if ({self.cond()}) {{\n{self.stmts(depth + 1, in_loop)}\n}}{else_part}"
        if r < 0.7:
            self.counter += 1
            j = f"j{self.counter}"
            return (
                f"for (int {j} = 0; {j} < {self.rng.randint(0, 4)}; {j}++) {{\n"
                f"{self.stmts(depth + 1, True)}\n"
                f"if ({self.cond()}) break;\nif ({self.cond()}) continue;\n"
                f"{v} += {j};\n}}"
            )
        if r < 0.8:
            self.counter += 1
            j = f"k{self.counter}"
            return (
                f"{{ int {j} = 0;\ndo {{\n{self.stmts(depth + 1, True)}\n"
                f"if ({self.cond()}) continue;\n{v} ^= {j};\n}} while (++{j} < 3); }}"
            )
        if r < 0.9:
            return (
                f"switch ({v} & 3) {{\ncase 0: {self.stmt(depth + 1, in_loop)}\n"
                f"case 1: {self.stmt(depth + 1, in_loop)} break;\n"
                f"case 3: {self.stmt(depth + 1, in_loop)}\n"
                f"default: {self.stmt(depth + 1, in_loop)}\n}}"
            )
        if not in_loop:
            return f"if ({self.cond()}) {{ o[i] = -1; continue; }}"
        return f"{v} = {self.expr()};"


@pytest.mark.parametrize("seed", range(SEEDS))
def test_random_bodies(tmp_path: Path, seed: int) -> None:
    gen = BodyGen(seed)
    body = gen.stmts(0, False, 6)
    loop = (
        f"for (int i = 0; i < n; i++) {{\nint v0 = a[i], v1 = i, v2 = 3, v3;\n"
        f"v3 = v0 - 1;\n{body}\no[i] = v0 + 3 * v1 + 7 * v2 + 11 * v3;\ns += v0 ^ v3;\n}}"
    )
    check(
        tmp_path,
        "#pragma omp simd reduction(+:s)",
        loop,
        10,
        {"a": ("int", SIGNED), "o": ("int", [0] * 10)},
        carried={"s": ("long", 0)},
    )
