"""The pass pipeline for one region: canonicalize, transform control flow, analyse, generate.

Every change of control flow is a pass here, on the IR, before widening:

    inline            calls of functions with a body in the translation unit
                      replaced by that body (and what it calls in turn)
    sroa              stack objects whose address does not escape (struct
                      locals, ``&seed`` of an inlined call) become SSA values
    strength          integer division and remainder by a power of two become
                      shifts and masks (no target divides integer vectors)
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

Two variants of a loop region, each from a second lowering, also go
through it: the masked last iteration (transform.masked_tail,
``analyze_tail``) and lane refill (transform.refill, ``analyze_refill``,
built after dce and canonicalize).

Each pass names the analyses it requires and invalidates; the verifier runs
after every pass (after ``linearize`` it also rejects a divergent branch
that is left), and ``print_after`` prints the IR after the named passes
(``s2svec --print-after=linearize``).  The code generator then receives IR
whose control flow is uniform, with the divergence and memory analyses of
that IR; the report's branch and loop counts come from the analysis of the
source as written (after dce and canonicalize).  Every stage may raise
``Unsupported``; the region then stays scalar.
"""
from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, TextIO

from .analysis.divergence import DivergenceInfo, compute_divergence
from .analysis.memory import memory_shapes
from .analysis.records import RecordInfo, compute_record_groups
from .analysis.shapes import VectorShape
from .codegen.generate import CodegenOptions, GeneratedLoop, generate_loop, region_arg_shapes
from .codegen.target import Target
from .deep import is_too_deep
from .diagnostics import Location, Unsupported
from .ir.printer import print_function
from .ir.region import CalleeBody, Region
from .ir.values import Alloca, Argument, CondBr, Function, Switch
from .ir.verifier import verify
from .report import RegionReport
from .transform.all_true import insert_all_true_paths
from .transform.boscc import DEFAULT_THRESHOLD, insert_gadgets
from .transform.canonicalize import canonicalize
from .transform.cse import eliminate_common_subexpressions
from .transform.dce import eliminate_dead_code
from .transform.hoist import hoist_common_computations
from .transform.inline import CallSite, inline_calls
from .transform.divergent_loops import make_loops_uniform
from .transform.per_lane_storage import interleave_per_lane_objects
from .transform.licm import hoist_invariants
from .transform.linearize import linearize
from .transform.masked_tail import guard_tail
from .transform.merge_arms import merge_arms
from .transform.refill import DEFAULT_MIN_RATIO, refill_lanes
from .transform.speculate import speculate
from .transform.sroa import replace_stack_objects
from .transform.unroll import unroll_loops
from .transform.strength import reduce_divisions

ALL = ("divergence",)


@dataclass
class PassState:
    """The function being transformed and the analyses computed for it."""

    fn: Function
    arg_shapes: dict[Argument, VectorShape]
    """Shapes of the parameters (a loop region: iv strided, live-ins uniform)."""
    boscc_threshold: Optional[int] = DEFAULT_THRESHOLD
    """Weight of a divergent arm that gets an all-false skip (None: no BOSCC
    and no all-true paths)."""
    all_true: bool = True
    """Whether divergent arms may get all-true paths (transform.all_true)."""
    callees: dict[str, CalleeBody] = field(default_factory=dict)
    """Bodies the inline pass may clone in (Region.callees)."""
    analyses: dict[str, Any] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)
    """What each pass returned (the report reads the BOSCC gadgets)."""

    def get(self, name: str) -> Any:
        if name not in self.analyses:
            self.analyses[name] = ANALYSES[name](self)
        return self.analyses[name]

    def invalidate(self, names: tuple[str, ...]) -> None:
        for name in names:
            self.analyses.pop(name, None)


ANALYSES: dict[str, Callable[[PassState], Any]] = {
    "divergence": lambda state: compute_divergence(state.fn, state.arg_shapes),
}


@dataclass(frozen=True)
class Pass:
    name: str
    run: Callable[[PassState], object]
    requires: tuple[str, ...] = ()
    invalidates: tuple[str, ...] = ALL


def _inline(state: PassState) -> object:
    return inline_calls(state.fn, state.callees)


def _sroa(state: PassState) -> object:
    return replace_stack_objects(state.fn)


def _strength(state: PassState) -> object:
    return reduce_divisions(state.fn)


def _unroll(state: PassState) -> object:
    return unroll_loops(state.fn)


def _hoist(state: PassState) -> object:
    return hoist_common_computations(state.fn)


def _cse(state: PassState) -> object:
    return eliminate_common_subexpressions(state.fn)


def _dce(state: PassState) -> object:
    return eliminate_dead_code(state.fn)


def _canonicalize(state: PassState) -> object:
    return canonicalize(state.fn)


def _licm(state: PassState) -> object:
    return hoist_invariants(state.fn)


def _per_lane_storage(state: PassState) -> object:
    return interleave_per_lane_objects(state.fn, state.get("divergence"))


def _merge_arms(state: PassState) -> object:
    merged = 0
    while merge_arms(state.fn, state.get("divergence")):
        state.invalidate(ALL)
        merged += 1
    return merged


def _speculate(state: PassState) -> object:
    return speculate(state.fn, state.get("divergence"))


def _all_true(state: PassState) -> object:
    if state.boscc_threshold is None or not state.all_true:
        return []
    return insert_all_true_paths(state.fn, state.get("divergence"), state.boscc_threshold)


def _boscc(state: PassState) -> object:
    if state.boscc_threshold is None:
        return []
    return insert_gadgets(state.fn, state.get("divergence"), state.boscc_threshold)


def _divergent_loops(state: PassState) -> object:
    return make_loops_uniform(state.fn, state.get("divergence"))


def _linearize(state: PassState) -> object:
    return linearize(state.fn, state.get("divergence"))


PIPELINE: tuple[Pass, ...] = (
    Pass("inline", _inline),
    Pass("sroa", _sroa),
    Pass("strength", _strength),
    Pass("dce", _dce),
    Pass("canonicalize", _canonicalize),
    Pass("unroll", _unroll),
    Pass("licm", _licm),
    Pass("merge-arms", _merge_arms, requires=("divergence",)),
    Pass("hoist", _hoist),
    Pass("per-lane-storage", _per_lane_storage, requires=("divergence",)),
    Pass("speculate", _speculate, requires=("divergence",)),
    Pass("all-true", _all_true, requires=("divergence",)),
    Pass("boscc", _boscc, requires=("divergence",)),
    Pass("divergent-loops", _divergent_loops, requires=("divergence",)),
    Pass("loop-closed-ssa", _canonicalize),
    Pass("linearize", _linearize, requires=("divergence",)),
    Pass("cse", _cse),
    Pass("cleanup", _dce),
)
PASS_NAMES = tuple(p.name for p in PIPELINE)


def passes(*names: str) -> tuple[Pass, ...]:
    """The pipeline's passes of these names, in the order given."""
    by_name = {p.name: p for p in PIPELINE}
    return tuple(by_name[n] for n in names)


@dataclass
class AnalyzedRegion:
    """A region with uniform control flow and the analyses the code generator reads."""

    region: Region
    div: DivergenceInfo
    """Divergence of the transformed IR (what the widener reads)."""
    mem: Any
    source_counts: dict[str, dict[str, int]]
    """Uniform and divergent branches and loops of the region as written."""
    gadgets: list[Any] = field(default_factory=list)
    """The BOSCC gadgets inserted (transform.boscc.Gadget)."""
    all_true: list[Any] = field(default_factory=list)
    """The all-true paths added (transform.all_true.AllTruePath)."""
    records: Optional[RecordInfo] = None
    """Strided field accesses that move whole records (analysis.records)."""
    call_sites: list[CallSite] = field(default_factory=list)
    """The inlinable calls of the source and whether they were inlined."""


Observer = Callable[[str, PassState], None]
"""Called after each pass with its name (debug views: ``--emit-cfg``)."""


def analyze(region: Region, print_after: tuple[str, ...] = (),
            out: Optional[TextIO] = None, observe: Optional[Observer] = None,
            boscc_threshold: Optional[int] = DEFAULT_THRESHOLD,
            all_true: bool = True) -> AnalyzedRegion:
    """Run the pipeline on ``region`` (changes ``region.fn``)."""
    state = PassState(region.fn, region_arg_shapes(region), boscc_threshold, all_true,
                      region.callees)
    try:
        source_counts = run_passes(state, PIPELINE, print_after, out, label=region.name,
                                   observe=observe)
        div = state.get("divergence")
        mem = memory_shapes(region.fn, div)
        records = compute_record_groups(region.fn, div, mem)
    except (RecursionError, ctypes.ArgumentError) as exc:
        if not is_too_deep(exc):
            raise
        raise _too_deep(region) from None
    return AnalyzedRegion(region, div, mem, source_counts,
                          list(state.results.get("boscc") or []),
                          list(state.results.get("all-true") or []), records,
                          list(state.results.get("inline") or []))


def analyze_tail(region: Region, boscc_threshold: Optional[int] = DEFAULT_THRESHOLD,
                 all_true: bool = True) -> Optional[AnalyzedRegion]:
    """A loop region's masked last iteration (transform.masked_tail: the body
    under ``lane < rem``) through the pipeline; None when the region has no
    such form (the scalar remainder stays).  ``region`` is a fresh lowering:
    it is changed."""
    tail = guard_tail(region)
    return None if tail is None else analyze(tail, boscc_threshold=boscc_threshold,
                                             all_true=all_true)


def analyze_refill(region: Region, boscc_threshold: Optional[int] = DEFAULT_THRESHOLD,
                   gather_weight: int = 8, min_ratio: float = DEFAULT_MIN_RATIO,
                   all_true: bool = True) -> Optional[AnalyzedRegion]:
    """A loop region with the lane refill schedule (transform.refill: each
    lane runs its own iterations in turn) through the pipeline; None when
    the region has no divergent loop to refill around or refill would not
    pay (``gather_weight``: the target's ``refill_gather_weight``;
    ``min_ratio``: ``--refill-ratio``).
    ``region`` is a fresh lowering: it is changed."""
    state = PassState(region.fn, region_arg_shapes(region), boscc_threshold,
                      callees=region.callees)
    run_passes(state, passes("inline", "sroa", "strength", "dce", "canonicalize", "unroll"))
    refilled = refill_lanes(region, state.get("divergence"), gather_weight, min_ratio)
    return None if refilled is None else analyze(refilled, boscc_threshold=boscc_threshold,
                                                 all_true=all_true)


def _too_deep(region: Region) -> Unsupported:
    """The walkers recurse over the region's nesting; beyond the depth
    s2s.deep allows the loop stays scalar."""
    return Unsupported("loop nested too deeply",
                       Location(region.file, region.line, region.column))


def run_passes(state: PassState, passes: tuple[Pass, ...], print_after: tuple[str, ...] = (),
               out: Optional[TextIO] = None, label: str = "",
               observe: Optional[Observer] = None) -> dict[str, dict[str, int]]:
    """Run ``passes`` in order with the verifier after each; returns the branch
    and loop classes seen after the first ``canonicalize`` (else the first
    pass): the source as written, less its dead code."""
    source_counts: dict[str, dict[str, int]] = {}
    count_after = "canonicalize" if any(p.name == "canonicalize" for p in passes) \
        else passes[0].name if passes else ""
    for p in passes:
        state.results[p.name] = p.run(state)
        state.invalidate(p.invalidates)
        _verify(state, p)
        if not source_counts and p.name == count_after:
            source_counts = _source_counts(state.get("divergence"))
        if p.name in print_after:
            (out or sys.stdout).write(f"; IR of {label or state.fn.name} after {p.name}\n"
                                      f"{print_function(state.fn)}\n")
        if observe is not None:
            observe(p.name, state)
    return source_counts


def _verify(state: PassState, p: Pass) -> None:
    try:
        verify(state.fn)
    except Exception as e:
        raise Unsupported(f"internal error after the {p.name} pass ({e}); "
                          "please report this") from e
    if p.name in ("linearize", "cleanup"):
        left = [b.name for b in state.fn.blocks
                if state.get("divergence").is_divergent_branch(b)]
        if left:
            raise Unsupported(f"internal error: divergent branches left after "
                              f"linearization ({', '.join(left)}); please report this")


def _source_counts(div: DivergenceInfo) -> dict[str, dict[str, int]]:
    """Branch and loop classes of the canonical source region (for the report)."""
    counts = {"branches": {"uniform": 0, "divergent": 0},
              "loops": {"uniform": 0, "divergent": 0}}
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
    report.notes = []
    for g in analyzed.gadgets:
        if g.where is not None:
            report.notes.append(f"{g.where}: note: BOSCC: a vector in which no lane takes the "
                                f"{'true' if g.true_arm else 'false'} arm of this branch skips it")
    for p in analyzed.all_true:
        if p.where is not None:
            report.notes.append(f"{p.where}: note: all-true path: the "
                                f"{'true' if p.true_arm else 'false'} arm of this branch runs "
                                "unmasked when every lane takes it")


def generate(analyzed: AnalyzedRegion, target: Target, options: CodegenOptions,
             report: RegionReport, tail: Optional[AnalyzedRegion] = None,
             refill: Optional[AnalyzedRegion] = None) -> GeneratedLoop:
    """Vector code for one target; the report gets its width and counts.
    ``tail``: the loop's masked last iteration (analyze_tail), used instead
    of the scalar remainder when it widens.  Raises Unsupported when the
    target cannot take the region."""
    try:
        loop = generate_loop(analyzed.region, analyzed.div, analyzed.mem, target, options,
                             analyzed.records, tail, refill,
                             [site.callee for site in analyzed.call_sites if site.inlined])
    except (RecursionError, ctypes.ArgumentError) as exc:
        if not is_too_deep(exc):
            raise
        raise _too_deep(analyzed.region) from None
    report.vectorized = True
    report.width = loop.width
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
    for how, key in (("inlined", "inlined"), ("variant", "vector_variant"),
                     ("vector math", "vector_math"), ("serialized", "serialized")):
        report.calls[key] = sum(s["how"] == how for s in report.call_sites)
