"""Expectation checker for analysis tests written as textual IR (tests/ir/).

A test file holds one or more cases separated by a line ``; -----``.  Each
case is one IR function plus comment directives stating the expected answer:

    ; ARG %i stride(1,a8)          shape of an argument (default: varying)
    ; WIDTH 8                       vector width for the compare rule T6
    ; CANONICALIZE                  run transform.canonicalize first
    ; SHAPE %x stride(2,a16)        exact shape of a value
    ; BRANCH entry divergent        class of a block's branch (or uniform)
    ; JOINS entry: d, x             exact join points of a divergent branch
    ; LOOP head divergent: x, y     loop class and its exact divergent exits
    ; LOOP head uniform
    ; ALLOCA %stack uniform         stack object class (or varying)
    ; ACCESS %v contiguous          access kind of the load defining %v
    ; STORE body 0 scatter          access kind of the n-th store of a block
    ; UNSUPPORTED                   the analysis must refuse the function

Every branch and every loop must have a BRANCH / LOOP line.  Value names
carry expectations too: a value named ``uni`` or ``uni.*`` must
be uniform, ``div`` / ``div.*`` must not be.  ``check_text`` returns the
list of failures (empty when the file passes); ``python -m
s2s.analysis.expect FILE...`` runs it from the command line.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import Optional

from ..diagnostics import Unsupported
from ..ir.parser import parse_function
from ..ir.values import Alloca, Function, Load, Store, Value
from .shapes import VectorShape


@dataclass
class Case:
    """One function and its directives."""

    text: str
    directives: list[tuple[str, str]] = field(default_factory=list)

    def get(self, key: str) -> list[str]:
        return [v for k, v in self.directives if k == key]


def split_cases(text: str) -> list[Case]:
    cases = []
    for chunk in re.split(r"^;\s*-{5,}\s*$", text, flags=re.M):
        if "func @" not in chunk:
            continue
        case = Case(chunk)
        for m in re.finditer(r"^\s*;\s*([A-Z][A-Z-]+)\b:?[ \t]*(.*)$", chunk, flags=re.M):
            case.directives.append((m.group(1), m.group(2).strip()))
        cases.append(case)
    return cases


def arg_shapes_of(fn: Function, case: Case) -> dict:
    """The ``ARG`` directives as a map from Argument to VectorShape."""
    by_name = {a.name: a for a in fn.args}
    out = {}
    for spec in case.get("ARG"):
        name, shape = spec.split(None, 1)
        out[by_name[name.lstrip("%")]] = VectorShape.parse(shape)
    return out


def width_of(case: Case) -> Optional[int]:
    w = case.get("WIDTH")
    return int(w[0]) if w else None


def analyze(case: Case):
    """Parse, optionally canonicalize, and run the divergence analysis."""
    from .divergence import compute_divergence
    fn = parse_function(case.text)
    if any(k == "CANONICALIZE" for k, _ in case.directives):
        from ..transform.canonicalize import canonicalize
        canonicalize(fn)
    return fn, compute_divergence(fn, arg_shapes_of(fn, case), width=width_of(case))


def check_case(case: Case) -> list[str]:
    unsupported = any(k == "UNSUPPORTED" for k, _ in case.directives)
    try:
        fn, info = analyze(case)
    except Unsupported as exc:
        return [] if unsupported else [f"unexpected unsupported: {exc.message}"]
    if unsupported:
        return ["expected the analysis to refuse the function"]
    return _check(fn, info, case)


def _values(fn: Function) -> dict[str, Value]:
    out: dict[str, Value] = {a.name: a for a in fn.args}
    for inst in fn.instructions():
        if inst.name:
            out[inst.name] = inst
    return out


def _check(fn: Function, info, case: Case) -> list[str]:
    from .memory import access_of
    errors: list[str] = []
    values = _values(fn)
    blocks = {b.name: b for b in fn.blocks}
    for name, v in values.items():
        shape = info.shape_of(v)
        if (name == "uni" or name.startswith("uni.")) and not shape.is_uniform:
            errors.append(f"%{name} should be uniform, is {shape}")
        if (name == "div" or name.startswith("div.")) and shape.is_uniform:
            errors.append(f"%{name} should not be uniform")
    for spec in case.get("SHAPE"):
        name, want = spec.split(None, 1)
        got = info.shape_of(values[name.lstrip("%")])
        if str(got) != str(VectorShape.parse(want)):
            errors.append(f"{name}: expected {want}, got {got}")
    for spec in case.get("BRANCH"):
        name, want = spec.split()
        got = "divergent" if info.is_divergent_branch(blocks[name]) else "uniform"
        if got != want:
            errors.append(f"branch {name}: expected {want}, got {got}")
    for spec in case.get("JOINS"):
        name, _, rest = spec.partition(" ")
        name = name.rstrip(":")
        want = sorted(x.strip() for x in rest.split(",") if x.strip())
        got = sorted(b.name for b in info.join_points(blocks[name]))
        if got != want:
            errors.append(f"joins of {name}: expected {want}, got {got}")
    for spec in case.get("LOOP"):
        head, _, rest = spec.partition(" ")
        kind, _, exits = rest.partition(":")
        kind = kind.strip()
        got_kind = "divergent" if info.loop_is_divergent(blocks[head]) else "uniform"
        if got_kind != kind:
            errors.append(f"loop {head}: expected {kind}, got {got_kind}")
        if exits.strip() or kind == "divergent":
            want = sorted(x.strip() for x in exits.split(",") if x.strip())
            got = sorted(b.name for b in info.divergent_exits(blocks[head]))
            if exits.strip() and got != want:
                errors.append(f"divergent exits of {head}: expected {want}, got {got}")
    errors.extend(_unclassified(fn, info, case))
    for spec in case.get("ALLOCA"):
        name, want = spec.split()
        a = values[name.lstrip("%")]
        assert isinstance(a, Alloca)
        got = "uniform" if info.alloca_is_uniform(a) else "varying"
        if got != want:
            errors.append(f"alloca {name}: expected {want}, got {got}")
    for spec in case.get("ACCESS"):
        name, want = spec.split()
        load = values[name.lstrip("%")]
        assert isinstance(load, Load)
        got = access_of(load, info).kind
        if got != want:
            errors.append(f"access {name}: expected {want}, got {got}")
    for spec in case.get("STORE"):
        name, index, want = spec.split()
        stores = [i for i in blocks[name].instructions if isinstance(i, Store)]
        got = access_of(stores[int(index)], info).kind
        if got != want:
            errors.append(f"store {index} of {name}: expected {want}, got {got}")
    return errors


def _unclassified(fn: Function, info, case: Case) -> list[str]:
    """Every branch and every loop of a test must have its expected class."""
    branches = {spec.split()[0] for spec in case.get("BRANCH")}
    loops = {spec.split()[0] for spec in case.get("LOOP")}
    errors = []
    for b in fn.blocks:
        if len(b.successors) > 1 and b.name not in branches and info.cfg.reachable(b):
            errors.append(f"branch {b.name} has no BRANCH line")
    for lp in info.loops.loops:
        if lp.header.name not in loops:
            errors.append(f"loop {lp.header.name} has no LOOP line")
    return errors


def check_text(text: str) -> list[str]:
    errors: list[str] = []
    for n, case in enumerate(split_cases(text)):
        errors.extend(f"case {n}: {e}" for e in check_case(case))
    return errors


def main(argv: list[str]) -> int:
    status = 0
    for path in argv:
        with open(path) as f:
            for e in check_text(f.read()):
                print(f"{path}: {e}")
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
