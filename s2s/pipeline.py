"""The pass pipeline for one region: canonicalize, transform control flow, analyse, generate.

Every change of control flow is a pass here, on the IR, before widening:

    inline            calls of functions with a body in the translation unit
                      replaced by that body (and what it calls in turn)
    sroa              stack objects whose address does not escape (struct
                      locals, ``&seed`` of an inlined call) become SSA values
    strength          integer division and remainder by a power of two become
                      shifts and masks (no target divides integer vectors)
    narrow            int arithmetic truncated to 8/16 bits done in those bits
                      (short data runs at the width of shorts)
    dce               dead code (a local computed with ``&&`` and never read)
                      deleted before it decides anything
    canonicalize      preheaders, one latch, dedicated exits, loop-closed SSA
    unroll            small loops with a constant trip count become straight-line
                      code (then sroa again: their arrays get constant indices)
    licm              loop-invariant computations move before their loop
    merge-arms        what the arms of a divergent cascade compute alike on
                      different inputs, computed once after they join
    hoist             what sibling arms compute alike on the same inputs,
                      computed once before they part
    per-lane-storage  local arrays one copy per lane, interleaved
    speculate         short harmless arms of divergent branches become selects
    all-true          unmasked copies of divergent arms, taken when every lane is
                      in them
    boscc             all-false skips in front of expensive divergent arms
    divergent-loops   divergent loops (and loops under divergent control) made uniform
    loop-closed-ssa   canonicalize again: loop-closed SSA for the rebuilt loops
    linearize         partial linearization: divergent branches removed, phis
                      to selects on edge predicates, masks on memory and calls
    cleanup           dce again: predicates nothing uses

Two variants of a loop region are pipelines of their own over a copy of
the lowered loop (``analyze_variant``, VARIANTS): the masked last iteration
(``masked-tail`` then the pipeline) and lane refill (inline .. unroll and licm, then
``refill``, then the pipeline).  A variant's pass raises Declined when the
loop has no such variant; when it can tell from the loop as lowered
(``Pass.declines``: refill, a loop without loops) its pipeline is not run.

Each transform module exports its pass object (s2s.transform.passes.Pass):
the pass manager (``run_passes``) computes the analyses a pass requires
before it runs (the pass may read no other: AnalysisCache.only), drops
those it does not preserve after it (none when what it returned says it
changed nothing: Pass.changed), and runs the verifier (after
``linearize`` it also rejects a divergent branch that is left);
``print_after`` prints the IR after the named passes, the variants' too
(``s2svec --print-after=linearize``).  The code generator then receives IR
whose control flow is uniform, with the divergence and memory analyses of
that IR; the report's branch and loop counts come from the analysis of the
source as written (after dce and canonicalize).  Every stage may raise
``Unsupported``; the region then stays scalar.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TextIO

from .analysis.divergence import DivergenceInfo
from .analysis.memory import MemoryAccesses
from .analysis.records import RecordInfo
from .codegen.generate import CodegenOptions, GeneratedLoop, generate_loop
from .codegen.target import Target
from .deep import is_too_deep
from .diagnostics import Location, Unsupported
from .ir.clone import clone_region
from .ir.printer import print_function
from .ir.region import Region
from .ir.values import Alloca, CondBr, Switch
from .ir.verifier import verify
from .report import RegionReport
from .transform import (
    all_true,
    boscc,
    canonicalize,
    cse,
    dce,
    divergent_loops,
    hoist,
    inline,
    licm,
    linearize,
    masked_tail,
    merge_arms,
    narrow,
    per_lane_storage,
    refill,
    speculate,
    sroa,
    strength,
    unroll,
)
from .transform.all_true import AllTruePath
from .transform.boscc import Gadget
from .transform.inline import CallSite
from .transform.passes import Declined, Pass, PassOptions, PassState

PIPELINE: tuple[Pass, ...] = (
    inline.PASS,
    sroa.PASS,
    strength.PASS,
    narrow.PASS,
    dce.PASS,
    canonicalize.PASS,
    unroll.PASS,
    licm.PASS,
    merge_arms.PASS,
    hoist.PASS,
    per_lane_storage.PASS,
    speculate.PASS,
    all_true.PASS,
    boscc.PASS,
    divergent_loops.PASS,
    replace(canonicalize.PASS, name="loop-closed-ssa"),
    linearize.PASS,
    cse.PASS,
    replace(dce.PASS, name="cleanup"),
)


def passes(*names: str) -> tuple[Pass, ...]:
    """The pipeline's passes of these names, in the order given."""
    by_name = {p.name: p for p in PIPELINE}
    return tuple(by_name[n] for n in names)


VARIANTS: dict[str, tuple[str, tuple[Pass, ...]]] = {
    "tail": ("masked tail", (masked_tail.PASS,) + PIPELINE),
    "refill": (
        "lane refill",
        passes("inline", "sroa", "strength", "narrow", "dce", "canonicalize", "unroll", "licm")
        + (refill.PASS,)
        + PIPELINE,
    ),
}
"""The variants of a loop region: (what the IR dumps call it, its pipeline)."""
PASS_NAMES = tuple(p.name for p in PIPELINE) + (masked_tail.PASS.name, refill.PASS.name)
"""What ``--print-after`` takes."""


@dataclass
class AnalyzedRegion:
    """A region with uniform control flow and the analyses the code generator reads."""

    region: Region
    div: DivergenceInfo
    """Divergence of the transformed IR (what widening reads)."""
    mem: MemoryAccesses
    source_counts: dict[str, dict[str, int]]
    """Uniform and divergent branches and loops of the region as written."""
    gadgets: list[Gadget] = field(default_factory=list[Gadget])
    """The BOSCC gadgets inserted (transform.boscc.Gadget)."""
    all_true: list[AllTruePath] = field(default_factory=list[AllTruePath])
    """The all-true paths added (transform.all_true.AllTruePath)."""
    records: RecordInfo | None = None
    """Strided field accesses that move whole records (analysis.records)."""
    call_sites: list[CallSite] = field(default_factory=list)
    """The inlinable calls of the source and whether they were inlined."""


Observer = Callable[[str, PassState], None]
"""Called after each pass with its name (debug views: ``--emit-cfg``)."""


def analyze(
    region: Region,
    options: PassOptions | None = None,
    print_after: tuple[str, ...] = (),
    out: TextIO | None = None,
    observe: Observer | None = None,
    pipeline: tuple[Pass, ...] = PIPELINE,
    label: str = "",
) -> AnalyzedRegion:
    """Run ``pipeline`` on ``region`` (changes it) and the analyses the code
    generator reads; raises Declined when a variant's pass finds none."""
    state = PassState.of_region(region, options)
    try:
        source_counts = run_passes(state, pipeline, print_after, out, label or region.name, observe)
        div, mem = state.get(DivergenceInfo), state.get(MemoryAccesses)
        records = state.get(RecordInfo)
    except (RecursionError, ctypes.ArgumentError) as exc:
        if not is_too_deep(exc):
            raise
        raise _too_deep(region) from None
    return AnalyzedRegion(
        state.region or region,
        div,
        mem,
        source_counts,
        state.results_of("boscc", Gadget),
        state.results_of("all-true", AllTruePath),
        records,
        state.results_of("inline", CallSite),
    )


def analyze_variant(
    region: Region,
    kind: str,
    options: PassOptions | None = None,
    print_after: tuple[str, ...] = (),
    out: TextIO | None = None,
) -> AnalyzedRegion | None:
    """A variant of a loop region (VARIANTS: ``tail``, the masked last
    iteration, transform.masked_tail; ``refill``, the lane refill schedule,
    transform.refill), made by its pipeline from a copy of ``region`` (the
    lowered loop, unchanged); None when the loop has no such variant."""
    title, pipeline = VARIANTS[kind]
    if any(p.declines is not None and p.declines(region) for p in pipeline):
        return None
    try:
        return analyze(
            clone_region(region),
            options,
            print_after,
            out,
            pipeline=pipeline,
            label=f"{region.name} ({title})",
        )
    except Declined:
        return None


def options_read(passes: tuple[Pass, ...], options: PassOptions) -> tuple[object, ...]:
    """The values of the options ``passes`` read (``Pass.options``): two
    runs of them on one region with the same values give the same result."""
    names = sorted({name for p in passes for name in p.options})
    return tuple(getattr(options, name) for name in names)


def _too_deep(region: Region) -> Unsupported:
    """The walkers recurse over the region's nesting; beyond the depth
    s2s.deep allows the loop stays scalar."""
    return Unsupported("loop nested too deeply", Location(region.file, region.line, region.column))


def run_passes(
    state: PassState,
    passes: tuple[Pass, ...],
    print_after: tuple[str, ...] = (),
    out: TextIO | None = None,
    label: str = "",
    observe: Observer | None = None,
) -> dict[str, dict[str, int]]:
    """Run ``passes`` in order: the analyses each requires first, then the
    pass, then every analysis it does not preserve dropped (none when what
    it returned says it changed nothing) and the verifier run (after each
    pass with ``S2S_VERIFY_EACH=1``, else after the last; after each pass
    the analyses kept are also checked against new ones).
    Returns the branch and loop classes seen after the first
    ``canonicalize`` (else the first pass): the source as written, less its
    dead code."""
    source_counts: dict[str, dict[str, int]] = {}
    count_after = (
        "canonicalize"
        if any(p.name == "canonicalize" for p in passes)
        else passes[0].name
        if passes
        else ""
    )
    verify_each = os.environ.get(VERIFY_EACH) == "1" or bool(print_after)
    linearized = False
    for p in passes:
        for key in p.requires:
            state.get(key)
        with state.analyses.only(p.requires):
            result = state.results[p.name] = p.run(state)
        if p.changes_region:
            state.region_changed()
        elif p.changed is None or p.changed(result):
            state.analyses.keep(p.preserves)
        if verify_each:
            _check_preserved(state, p)
        if verify_each or p is passes[-1]:
            _verify(state, p)
        linearized = linearized or p.name == "linearize"
        if linearized and (verify_each or p is passes[-1]):
            _check_linearized(state, p)
        if not source_counts and p.name == count_after:
            source_counts = _source_counts(state.get(DivergenceInfo))
        if p.name in print_after:
            (out or sys.stdout).write(
                f"; IR of {label or state.fn.name} after {p.name}\n{print_function(state.fn)}\n"
            )
        if observe is not None:
            observe(p.name, state)
    return source_counts


VERIFY_EACH = "S2S_VERIFY_EACH"
"""Set to 1, the verifier runs after every pass, as LLVM's -verify-each
(the test suite and the fuzz campaigns set it, and --print-after); else
after the last pass of each pipeline: the IR code generation reads is
always verified, and the pipeline costs a third less."""


def _verify(state: PassState, p: Pass) -> None:
    try:
        verify(state.fn)
    except Exception as e:
        raise Unsupported(
            f"internal error after the {p.name} pass ({e}); please report this"
        ) from e


def _check_preserved(state: PassState, p: Pass) -> None:
    """The analyses kept after ``p`` are what computing them anew gives."""
    stale = state.analyses.stale()
    if stale:
        raise Unsupported(
            f"internal error after the {p.name} pass: it changed the "
            f"{', '.join(key.__name__ for key in stale)} it claims to preserve; "
            "please report this"
        )


def _check_linearized(state: PassState, p: Pass) -> None:
    """No divergent branch is left after linearization (checked after
    ``p``: the last pass, where code generation reads the divergence
    analysis anyway, and after every pass with ``S2S_VERIFY_EACH=1``)."""
    div = state.get(DivergenceInfo)
    left = [b.name for b in state.fn.blocks if div.is_divergent_branch(b)]
    if left:
        raise Unsupported(
            f"internal error: divergent branches left after the {p.name} pass "
            f"({', '.join(left)}); please report this"
        )


def _source_counts(div: DivergenceInfo) -> dict[str, dict[str, int]]:
    """Branch and loop classes of the canonical source region (for the report)."""
    counts = {"branches": {"uniform": 0, "divergent": 0}, "loops": {"uniform": 0, "divergent": 0}}
    for block in div.cfg.block_order:
        if isinstance(block.terminator, (CondBr, Switch)):
            kind = "divergent" if div.is_divergent_branch(block) else "uniform"
            counts["branches"][kind] += 1
    for loop in div.loops.loops:
        counts["loops"]["divergent" if div.loop_is_divergent(loop.header) else "uniform"] += 1
    return counts


def control_counts(analyzed: AnalyzedRegion, report: RegionReport) -> None:
    """Fill the branch, loop and alloca statistics of the report."""
    for key in ("branches", "loops"):
        for kind, n in analyzed.source_counts[key].items():
            getattr(report, key)[kind] += n
    transform_notes(analyzed, report)
    for inst in analyzed.region.fn.instructions():
        if isinstance(inst, Alloca):
            report.allocas["uniform" if analyzed.div.alloca_is_uniform(inst) else "varying"] += 1


def transform_notes(analyzed: AnalyzedRegion, report: RegionReport) -> None:
    """The BOSCC gadget count, and a note on each branch of the source that
    got a gadget or an all-true path."""
    report.boscc = len(analyzed.gadgets)
    report.notes = list(analyzed.region.notes)
    for g in analyzed.gadgets:
        if g.where is not None:
            report.notes.append(
                f"{g.where}: note: BOSCC: a vector in which no lane takes the "
                f"{'true' if g.true_arm else 'false'} arm of this branch skips it"
            )
    for p in analyzed.all_true:
        if p.where is not None:
            report.notes.append(
                f"{p.where}: note: all-true path: the "
                f"{'true' if p.true_arm else 'false'} arm of this branch runs "
                "unmasked when every lane takes it"
            )


def generate(
    analyzed: AnalyzedRegion,
    target: Target,
    options: CodegenOptions,
    report: RegionReport,
    tail: AnalyzedRegion | None = None,
    refill: AnalyzedRegion | None = None,
) -> GeneratedLoop:
    """Vector code for one target; the report gets its width and counts.
    ``tail``: the loop's masked last iteration (analyze_tail), used instead
    of the scalar remainder when it widens.  Raises Unsupported when the
    target cannot take the region."""
    try:
        loop = generate_loop(
            analyzed.region,
            analyzed.div,
            analyzed.mem,
            target,
            options,
            analyzed.records,
            tail,
            refill,
            [site.callee for site in analyzed.call_sites if site.inlined],
        )
    except (RecursionError, ctypes.ArgumentError) as exc:
        if not is_too_deep(exc):
            raise
        raise _too_deep(analyzed.region) from None
    report.vectorized = True
    report.width = loop.width
    report.scalable = target.scalable
    report.refill = loop.refill
    if loop.refill and refill is not None:
        transform_notes(refill, report)
    for kind, n in loop.stats.get("memory", {}).items():
        report.memory[kind] += n
    call_sites(analyzed, loop, report)
    return loop


def call_sites(analyzed: AnalyzedRegion, loop: GeneratedLoop, report: RegionReport) -> None:
    """The report's account of each call: inlined ones from the inline pass,
    the rest as the code generator made them."""
    report.call_sites = []
    for site in analyzed.call_sites:
        if site.inlined:
            report.add_call_site("inlined", site.callee, site.loc)
    for how, callee, loc, detail in loop.stats.get("call_sites", []):
        report.add_call_site(how, callee, loc, detail)
    # count calls of the source, not their copies (all-true paths, unrolling)
    for how, key in (
        ("inlined", "inlined"),
        ("variant", "vector_variant"),
        ("vector math", "vector_math"),
        ("serialized", "serialized"),
    ):
        report.calls[key] = sum(s["how"] == how for s in report.call_sites)
