"""The analysis printer: the IR annotated with what the analyses computed.

One line per definition with its vector shape, each load's and store's
access kind, each branch's class and join points, one summary line per loop
(``s2svec --print-shapes``; the textual IR tests read it).  It changes nothing.
"""

from __future__ import annotations

from ..ir.printer import print_function
from ..ir.values import Alloca, CondBr, Function, Load, Store, Switch, Terminator, Value
from .divergence import DivergenceInfo
from .memory import access_of


def print_divergence(fn: Function, info: DivergenceInfo) -> str:
    """The IR with each value's shape, each load's and store's access kind,
    each branch's class, then one summary line per loop (changes nothing)."""

    def annotate(v: Value) -> str | None:
        if isinstance(v, (CondBr, Switch)):
            block = v.block
            if block is None or block not in info.divergent_branches:
                return "uniform branch"
            joins = ", ".join(b.name for b in info.join_points(block))
            return f"divergent branch, joins: {joins}" if joins else "divergent branch"
        if isinstance(v, Terminator):
            return None
        if isinstance(v, (Load, Store)):
            acc = access_of(v, info)
            text = f"{acc.kind}{', masked' if acc.masked else ''}"
            return text if isinstance(v, Store) else f"{info.shape_of(v)}, {text}"
        if isinstance(v, Alloca):
            kind = "uniform object" if info.alloca_is_uniform(v) else "per-lane object"
            return f"{info.shape_of(v)}, {kind}"
        return str(info.shape_of(v))

    lines = [print_function(fn, annotate=annotate).rstrip("\n")]
    for lp in info.loops.loops:
        exits = ", ".join(
            f"{e.name} ({'divergent' if info.loop_exit_is_divergent(lp.header, e) else 'uniform'})"
            for e in lp.exits
        )
        kind = "divergent" if info.loop_is_divergent(lp.header) else "uniform"
        lines.append(f"; loop {lp.header.name}: {kind}, exits: {exits}")
    return "\n".join(lines) + "\n"
