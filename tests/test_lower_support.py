"""Shared helpers of the lowering tests (no tests here): lower C snippets, run regions."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from s2s.diagnostics import Unsupported
from s2s.frontend.lower import lower_loop
from s2s.frontend.parse import parse_file
from s2s.frontend.pragmas import find_pragmas
from s2s.ir.interpreter import Memory, run_scalar
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.region import Region
from s2s.ir.verifier import verify


def lower_all(tmp_path: Path, code: str, name: str = "k.c") -> list[Region]:
    """Lower every simd loop of a C file (verifying each region)."""
    path = tmp_path / name
    path.write_text(code)
    parsed = parse_file(str(path), [], [], "c11")
    regions = []
    for pragma in find_pragmas(parsed):
        if pragma.target.kind.name != "FOR_STMT":
            continue
        region = lower_loop(parsed, pragma)
        verify(region.fn)
        # The printed IR must read back as the same function.
        text = print_function(region.fn)
        assert print_function(parse_function(text)) == text
        regions.append(region)
    return regions


def lower_one(tmp_path: Path, code: str) -> Region:
    regions = lower_all(tmp_path, code)
    assert len(regions) == 1
    return regions[0]


def unsupported_of(tmp_path: Path, code: str) -> Unsupported:
    """The Unsupported raised when lowering the (only) simd loop of ``code``."""
    path = tmp_path / "k.c"
    path.write_text(code)
    parsed = parse_file(str(path), [], [], "c11")
    pragmas = [p for p in find_pragmas(parsed) if p.target.kind.name == "FOR_STMT"]
    assert len(pragmas) == 1
    try:
        lower_loop(parsed, pragmas[0])
    except Unsupported as exc:
        return exc
    raise AssertionError("lowering did not raise Unsupported")


def ir_text(region: Region) -> str:
    return print_function(region.fn)


_CMP: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "!=": operator.ne,
}


def run_loop(
    region: Region,
    values: dict[str, Any],
    memory: Memory,
    externals: dict[str, Callable[..., Any]] | None = None,
    max_iters: int = 10_000,
) -> dict[str, Any]:
    """Run the loop sequentially, one region call per iteration.

    ``values`` gives each binding's value by its ``c_expr`` (scalars, array
    addresses, ``&s`` addresses) and the initial value of reductions and
    linears by name; the bounds are evaluated as Python expressions over it.
    Returns the final reduction and lastprivate values by variable name."""
    assert region.bounds is not None
    b = region.bounds
    iv = eval(b.lower, {}, dict(values))
    upper = eval(b.upper, {}, dict(values))
    carried = {a.c_expr: values[a.c_expr] for a in region.args if a.role in ("reduction", "linear")}
    final: dict[str, Any] = {}
    k = 0
    while _CMP[b.cmp](iv, upper):
        args = []
        for a in region.args:
            if a.role == "iv":
                args.append(iv)
            elif a.role == "linear":
                args.append(carried[a.c_expr] + k * a.step)
            elif a.role == "reduction":
                args.append(carried[a.c_expr])
            else:
                args.append(values[a.c_expr])
        out = run_scalar(region.fn, args, memory, externals)
        for res in region.results:
            if res.role == "reduction":
                carried[res.c_var] = out[res.index]
            final[res.c_var] = out[res.index]
        iv += b.step
        k += 1
        assert k < max_iters, "runaway loop"
    return final


def alloc(memory: Memory, t: Any, values: Sequence[Any]) -> int:
    return memory.alloc_array(t, list(values))
