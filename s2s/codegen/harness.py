"""Vectorize every simd loop of a C file for one target (tests and tools).

The real driver (s2s/driver.py) adds target dispatch, reports and
diagnostics; this is the minimal pipeline the code generator tests use:
parse -> pragmas -> lower_loop -> divergence -> generate_loop -> splice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..diagnostics import Unsupported
from .generate import CodegenOptions, GeneratedLoop, generate_loop, prelude
from .target import load_target


@dataclass
class HarnessResult:
    text: str
    loops: list[GeneratedLoop] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)


def vectorize_file(path: str, target_name: str, options: Optional[CodegenOptions] = None,
                   include_dirs: Optional[list[str]] = None) -> HarnessResult:
    from ..pipeline import analyze
    from ..frontend.lower import lower_loop
    from ..frontend.parse import parse_file
    from ..frontend.pragmas import find_pragmas

    target = load_target(target_name)
    parsed = parse_file(path, include_dirs or [], [], "c11")
    raw = parsed.raw
    pieces: list[tuple[int, int, str]] = []
    result = HarnessResult("")
    needs: set[Any] = set()
    for pragma in find_pragmas(parsed):
        if pragma.clauses.directive == "declare simd":
            continue
        try:
            region = lower_loop(parsed, pragma)
            analyzed = analyze(region)
            gen = generate_loop(region, analyzed.div, analyzed.mem, target, options)
        except Unsupported as exc:
            result.unsupported.append(exc.format())
            continue
        assert region.replace is not None
        start = raw.rfind(b"\n", 0, region.replace.start) + 1
        pieces.append((start, region.replace.end, gen.text))
        result.loops.append(gen)
        needs |= gen.needs
    out = raw
    for start, end, text in sorted(pieces, reverse=True):
        out = out[:start] + text.encode() + out[end:]
    head = prelude(target, needs) if pieces else ""
    result.text = head + out.decode("utf-8", "surrogateescape")
    return result
