"""The pass pipeline for one region: canonicalize, analyse, generate per target.

Target-independent work (canonicalization, divergence and memory analyses)
runs once per region; code generation runs once per target.  Every stage may
raise ``Unsupported``; the region then stays scalar for that target.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

from .analysis.divergence import DivergenceInfo, compute_divergence
from .analysis.memory import memory_shapes
from .codegen.generate import CodegenOptions, GeneratedLoop, generate_loop, region_arg_shapes
from .codegen.target import Target
from .deep import is_too_deep
from .diagnostics import Location, Unsupported
from .ir.region import Region
from .ir.values import Alloca, CondBr, Switch
from .report import RegionReport
from .transform.canonicalize import canonicalize


@dataclass
class AnalyzedRegion:
    """A canonical region with the analyses every target's code generator reads."""

    region: Region
    div: DivergenceInfo
    mem: Any


def analyze(region: Region) -> AnalyzedRegion:
    """Canonicalize the region's loops and run divergence + memory analyses."""
    try:
        canonicalize(region.fn)
        div = compute_divergence(region.fn, region_arg_shapes(region))
        return AnalyzedRegion(region, div, memory_shapes(region.fn, div))
    except (RecursionError, ctypes.ArgumentError) as exc:
        if not is_too_deep(exc):
            raise
        raise _too_deep(region) from None


def _too_deep(region: Region) -> Unsupported:
    """The walkers recurse over the region's nesting; beyond the depth
    s2s.deep allows the loop stays scalar."""
    return Unsupported("loop nested too deeply",
                       Location(region.file, region.line, region.column))


def control_counts(analyzed: AnalyzedRegion, report: RegionReport) -> None:
    """Fill the branch, loop and alloca statistics from the divergence analysis."""
    div = analyzed.div
    for block in analyzed.region.fn.blocks:
        term = block.terminator
        if isinstance(term, (CondBr, Switch)):
            kind = "divergent" if div.is_divergent_branch(block) else "uniform"
            report.branches[kind] += 1
    for loop in div.loops.loops:
        report.loops["divergent" if div.loop_is_divergent(loop.header) else "uniform"] += 1
    for inst in analyzed.region.fn.instructions():
        if isinstance(inst, Alloca):
            report.allocas["uniform" if div.alloca_is_uniform(inst) else "varying"] += 1


def generate(analyzed: AnalyzedRegion, target: Target, options: CodegenOptions,
             report: RegionReport) -> GeneratedLoop:
    """Vector code for one target; the report gets its width and counts.
    Raises Unsupported when the target cannot take the region."""
    try:
        loop = generate_loop(analyzed.region, analyzed.div, analyzed.mem, target, options)
    except (RecursionError, ctypes.ArgumentError) as exc:
        if not is_too_deep(exc):
            raise
        raise _too_deep(analyzed.region) from None
    report.vectorized = True
    report.width = loop.width
    for kind, n in loop.stats.get("memory", {}).items():
        report.memory[kind] += n
    for kind, n in loop.stats.get("calls", {}).items():
        report.calls[kind] += n
    return loop
