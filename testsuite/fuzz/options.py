"""What the generator may use (Options, statement weights, size limits) and
how it chooses (Gen: every choice of a program from one seeded random stream)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

FZ_N = 4276  # elements of every array: >= 4 * 1001 (collapse rows) and 3 * 1001 + 4
TABLE = 1024  # gather indices are below this (tables hold this many elements)
MAX_TAILS = 8  # harness.h's s2s_tail slots: arrays ending at a PROT_NONE page
MAX_OUTPUTS = 5

STMT_WEIGHTS: dict[str, float] = {
    "local": 5.0,
    "assign": 2.0,
    "store": 4.0,
    "reduce": 3.0,
    "if_uniform": 1.2,
    "if_varying": 2.5,
    "inner_loop": 0.8,
    "guarded_load": 0.8,
    "limited_load": 0.6,
    "guarded_gather": 0.6,
    # divergent control flow (issue 6)
    "switch": 0.7,
    "continue": 0.7,
    "divergent_loop": 1.0,
    "early_exit_loop": 0.8,
    "nested_break": 0.4,
    "local_array": 0.7,
    "short_circuit": 0.8,
    "formula_cascade": 0.5,
    # calls: a plain function (per lane), a declare simd one (issue 7)
    "call": 0.2,
    "declare_simd": 1.0,
    # arrays of structs: fields of the iteration's record read and written
    "record": 0.5,
}
# kinds that open a block: none below Options.depth
NESTING = (
    "if_uniform",
    "if_varying",
    "inner_loop",
    "switch",
    "divergent_loop",
    "early_exit_loop",
    "nested_break",
    "local_array",
    "short_circuit",
    "formula_cascade",
)
# kinds that open a loop: at most two loops deep inside the simd loop
LOOPS = ("inner_loop", "divergent_loop", "early_exit_loop", "nested_break", "local_array")


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
