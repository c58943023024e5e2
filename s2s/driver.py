"""The file-level driver: parse, find pragmas, lower, vectorize, splice, report.

Only the text of annotated loops changes: each is replaced by an ``#if``
chain over the targets' ISA macros (widest first) whose ``#else`` keeps the
original pragma and loop, and the targets' preludes (headers, helpers) are
added at the top of the file.  Every other byte stays as it was.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .analysis.divergence import DivergenceInfo
from .codegen.branch_markers import SCALAR, branch_marker, loop_region
from .codegen.generate import CodegenOptions, GeneratedLoop, prelude, scan_helper
from .codegen.target import TEMPLATE_ROOT, Target, load_target, selections
from .compiler_flags import host_target_of
from .declare import FunctionVariants, function_variants, not_vectorized, signature_of
from .deep import deep_stack
from .diagnostics import Location, Unsupported, UserError, internal_error
from .frontend.declare_simd import NONE, SimdFunction, collect, definition_of
from .frontend.lower import lower_loop
from .frontend.lower_callee import set_declared_simd
from .frontend.macro_checks import source_checks
from .frontend.parse import ParsedFile
from .frontend.pragmas import (
    Pragma,
    find_header_declare_simd,
    find_pragmas,
    included_simd_loop_lines,
)
from .frontend.views import FileView, parse_views
from .internal_variants import InternalVariants
from .ir.clone import clone_region
from .ir.region import Region
from .pipeline import (
    PIPELINE,
    VARIANTS,
    AnalyzedRegion,
    analyze,
    analyze_variant,
    control_counts,
    generate,
    options_read,
)
from .report import RegionReport, render_json, render_text
from .transform.passes import BOSCC_THRESHOLD, PassOptions


def default_targets() -> list[str]:
    """Without --target and ISA flags: every target (the output's #if
    chain tries them widest first)."""
    return known_targets()


def known_targets() -> list[str]:
    """Every folder of templates/ with a target.toml is a target."""
    return sorted(p.parent.name for p in TEMPLATE_ROOT.glob("*/target.toml"))


def host_target() -> str:
    """The widest target the running machine supports (the targets'
    ``cpuinfo`` flags; ValueError: none)."""
    machine = {"arm64": "aarch64", "amd64": "x86_64"}.get(os.uname().machine, os.uname().machine)
    try:
        with open("/proc/cpuinfo") as f:
            cpuinfo = f.read()
    except OSError:
        cpuinfo = ""
    return host_target_of(machine, cpuinfo, list(selections()))


def resolve_targets(spec: str) -> list[str]:
    """Parse a --target list; raise ValueError on unknown names."""
    names: list[str] = []
    for name in (n.strip() for n in spec.split(",")):
        if name == "host":
            name = host_target()
        if name not in known_targets():
            raise ValueError(
                f"unknown target '{name}' (choose from {', '.join(known_targets())}, host)"
            )
        if name not in names:
            names.append(name)
    if not names:
        raise ValueError("--target needs at least one target")
    return names


@dataclass
class Options:
    targets: list[str]
    include_dirs: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    std: str = "gnu17"
    math: str = "vector"
    simdlen: int | None = None
    boscc: bool = True
    boscc_threshold: int = BOSCC_THRESHOLD
    """Weight of a divergent arm that gets an all-false skip (transform.boscc)."""
    all_true: bool = True
    """Unmasked copies of divergent arms every lane takes (transform.all_true)."""
    refill: bool = True
    """Lane refill around a divergent loop (transform.refill); --no-refill."""
    refill_ratio: float | None = None
    """How many times what refill adds a trip of the loop must weigh
    (None: the target's ``refill_min_ratio``)."""
    emit_cfg: str | None = None
    print_shapes: bool = False
    print_after: list[str] = field(default_factory=list)
    """Pipeline passes after which each region's IR is printed to stdout."""
    interleave: int = 0
    """--interleave: vectors per trip (0: the cost model chooses)."""

    def pass_options(self, target: Target) -> PassOptions:
        """What the passes read, for ``target``."""
        return PassOptions(
            boscc_threshold=self.boscc_threshold if self.boscc else None,
            all_true=self.all_true and target.all_true_paths,
            refill_gather_weight=target.refill_gather_weight,
            tail_stores=target.masked_tail_stores,
            uniform_arm_limit=target.uniform_arm_limit,
            shadow_counters=target.shadow_counters,
            refill_min_ratio=target.refill_min_ratio
            if self.refill_ratio is None
            else self.refill_ratio,
        )

    preprocessor: list[str] = field(default_factory=list)
    """The compiler's -D -U -I -isystem -include ... flags, in order."""
    line_directives: str | None = None
    """Emit ``#line`` directives naming this file (the input as spelled)."""
    offload: str | None = None
    """The compiler flag that makes the build offload target regions
    (``-fopenmp-targets=...``); None: they run on the host, vectorized."""


@dataclass
class Result:
    output: bytes
    warnings: list[str] = field(default_factory=list)
    reports: list[RegionReport] = field(default_factory=list)
    loops: list[GeneratedLoop] = field(default_factory=list)
    """Every vectorized loop of every target, in file order."""
    targets: list[Target] = field(default_factory=list)
    """The targets in the order of the output's ``#if`` chains (widest first)."""

    def report_text(self) -> str:
        return render_text(self.reports)

    def report_json(self) -> str:
        return render_json(self.reports)


@dataclass
class Replacement:
    start: int
    end: int
    text: bytes
    location: Location | None = None
    """Where the replaced loop is (for the remark on nested simd loops)."""


def read_source(path: str) -> None:
    if not os.path.exists(path):
        raise UserError(f"cannot read '{path}': no such file")
    if os.path.isdir(path):
        raise UserError(f"cannot read '{path}': is a directory")
    if not os.access(path, os.R_OK):
        raise UserError(f"cannot read '{path}': permission denied")


@deep_stack
def run(path: str, options: Options) -> Result:
    """Vectorize one file; raise UserError when it cannot be processed."""
    read_source(path)
    # widest first; a scalable target before the fixed one of its architecture
    # (an SVE build has NEON too)
    targets = sorted(
        (load_target(n) for n in options.targets),
        key=lambda t: (-t.register_bits, not t.scalable),
    )
    views = parse_views(
        path,
        options.include_dirs,
        options.defines,
        options.std,
        targets,
        options.preprocessor,
        _every_targets_parse_args,
    )
    targets = [_in_view(t, views[t.name]) for t in targets]
    result = Result(output=b"", targets=targets)
    _warn_unparsed(views, result)
    main = next(v.parsed for v in views.values() if v.parsed is not None)
    _warn_included_loops(main, result)
    codegen_options = CodegenOptions(
        math=options.math,
        simdlen=options.simdlen,
        interleave=options.interleave,
    )
    replacements: list[Replacement] = []
    needs: dict[str, set[str] | None] = {t.name: None for t in targets}
    by_offset = _pragmas_by_offset(views, targets, options.offload)
    _file_warnings(views, result)
    simd = collect_simd_functions(_header_pragmas(views, targets) + by_offset, main.data)
    internal = InternalVariants(options, codegen_options, len(main.data))
    for view in views.values():
        if view.parsed is not None:
            set_declared_simd(view.parsed.tu, set(simd))
    _all_variants(simd, main, targets, options, codegen_options, result, replacements, needs)
    for per_target in by_offset:
        first = next(iter(per_target.values()))
        if first.clauses.directive == "declare simd":
            continue  # below, once per function
        enclosing = _enclosing(replacements, first.start)
        if enclosing is not None:
            _warn(
                result,
                first.location,
                "loop not vectorized: it is nested in the simd "
                f"loop at line {enclosing.line}, which is vectorized (the inner "
                "simd pragma has no effect there)",
            )
            continue
        lowered = _Lowered(views, per_target, options, internal)
        generated = _vectorize_loop(lowered, targets, codegen_options, result)
        if generated is None:
            continue
        region, loops = generated
        for target, loop in loops:
            needs[target.name] = (needs[target.name] or set()) | loop.needs
        excluded = _compiler_exclusions(region)
        if excluded:
            _warn(result, Location(region.file, region.line, region.column), excluded[1])
        replacements.append(_dispatch(region, loops, main, options.line_directives))
        replacements += _outlined(region, loops, main)
    _add_internal_variants(internal, main, replacements, needs)
    head = _preludes(targets, needs)
    at = _prelude_offset(main, replacements) if head else 0
    result.output = _splice(main, replacements, head, at, options.line_directives)
    return result


def _add_internal_variants(
    internal: InternalVariants,
    main: ParsedFile,
    replacements: list[Replacement],
    needs: dict[str, set[str] | None],
) -> None:
    """The internal vector variants the loops call, at the end of the file."""
    text = internal.text()
    if not text:
        return
    end = len(main.data)
    newline = b"" if main.data.endswith(b"\n") or not main.data else b"\n"
    replacements.append(Replacement(end, end, newline + text.encode()))
    for name, items in internal.needs.items():
        if needs.get(name) is not None:
            needs[name] = (needs[name] or set()) | items


def _every_targets_parse_args() -> tuple[tuple[str, ...], ...]:
    """The parse arguments of every target, also those not selected: a
    build may enable them, and the file must read alike there too."""
    return tuple(load_target(n).parse_args for n in known_targets())


def _warn_unparsed(views: dict[str, FileView], result: Result) -> None:
    """One warning per parse that failed for some targets (not all)."""
    seen: set[int] = set()
    for view in views.values():
        if view.parsed is not None or id(view) in seen:
            continue
        seen.add(id(view))
        error = view.error
        first_line = error.message.split("\n")[0] if error else "parse error"
        _warn(
            result,
            error.location if error else None,
            f"the file does not parse as the compiler of {', '.join(view.targets)} "
            f"sees it ({first_line}); no vector code for {', '.join(view.targets)}",
        )


def _warn_included_loops(parsed: ParsedFile, result: Result) -> None:
    """Loops of #included files are not rewritten: say so at the #include."""
    for inclusion in parsed.tu.get_includes():
        source = inclusion.source  # None for the implicit stdc-predef.h
        if inclusion.depth != 1 or source is None or source.name != parsed.tu.spelling:
            continue
        try:
            with open(inclusion.include.name, "rb") as handle:
                raw = handle.read()
        except OSError:
            continue
        if included_simd_loop_lines(parsed, raw):
            loc = inclusion.location
            _warn(
                result,
                Location(parsed.path, loc.line, loc.column),
                f"simd loops in the included file '{inclusion.include.name}' are not "
                "vectorized (s2svec rewrites only the file it is given; run it on "
                "that file too)",
            )


def _pragmas_by_offset(
    views: dict[str, FileView], targets: list[Target], offload: str | None = None
) -> list[dict[str, Pragma]]:
    """The SIMD pragmas of the file in source order; each maps the name of
    every target whose view holds it (not in code skipped for that target)
    to the pragma as that view found it."""
    by_view: dict[int, list[Pragma]] = {}
    found: dict[int, dict[str, Pragma]] = {}
    for target in targets:
        view = views[target.name]
        if view.parsed is None:
            continue
        if id(view) not in by_view:
            by_view[id(view)] = find_pragmas(view.parsed, offload)
        for pragma in by_view[id(view)]:
            found.setdefault(pragma.start, {})[target.name] = pragma
    return [found[start] for start in sorted(found)]


def _header_pragmas(views: dict[str, FileView], targets: list[Target]) -> list[dict[str, Pragma]]:
    """The declare simd pragmas of the user's headers, in the order of
    ``_pragmas_by_offset`` (by target; keyed by header and offset)."""
    found: dict[tuple[str, int], dict[str, Pragma]] = {}
    for target in targets:
        view = views[target.name]
        if view.parsed is not None:
            for pragma in find_header_declare_simd(view.parsed):
                found.setdefault((pragma.location.file, pragma.start), {})[target.name] = pragma
    return list(found.values())


def _file_warnings(views: dict[str, FileView], result: Result) -> None:
    """Warnings about the file that belong to no loop (``_Pragma`` forms ...),
    once each although every view finds them."""
    seen: set[str] = set()
    for view in views.values():
        if view.parsed is None:
            continue
        for warning in view.parsed.warnings:
            text = warning.format()
            if text not in seen:
                seen.add(text)
                result.warnings.append(text)


def _enclosing(replacements: list[Replacement], offset: int) -> Location | None:
    """The vectorized loop whose replaced text holds ``offset``, if any."""
    for r in replacements:
        if r.start <= offset < r.end:
            return r.location
    return None


def _report(pragma: Pragma, target: Target, kind: str, name: str) -> RegionReport:
    loc = pragma.location
    return RegionReport(
        file=loc.file, line=loc.line, column=loc.column, kind=kind, name=name, target=target.name
    )


def _warn(result: Result, location: Location | None, message: str) -> None:
    where = f"{location}: " if location else "s2svec: "
    result.warnings.append(f"{where}warning: {message}")


def collect_simd_functions(
    by_offset: list[dict[str, Pragma]], main_text: bytes
) -> dict[str, tuple[SimdFunction, dict[str, Any]]]:
    """The declare simd functions (from the first view that has each
    pragma) and, per target, the definition's cursor in its view when the
    variants are s2svec's to emit (s2s.frontend.declare_simd)."""
    first = [next(iter(p.values())) for p in by_offset]
    functions = collect(first, main_text)
    out: dict[str, tuple[SimdFunction, dict[str, Any]]] = {
        name: (fn, {}) for name, fn in functions.items()
    }
    for per_target in by_offset:
        for target_name, pragma in per_target.items():
            if pragma.clauses.directive != "declare simd":
                continue
            entry = out.get(pragma.target.spelling)
            d = definition_of(pragma.target, main_text)
            if entry is not None and d is not None:
                entry[1].setdefault(target_name, d)
    return out


def callable_variants(simd: dict[str, tuple[SimdFunction, dict[str, Any]]]) -> dict[str, Any]:
    """The functions whose variants exist: declared only (defined elsewhere,
    as gcc would call them) or defined here with a body s2svec takes; not
    static ones of a header that the file never names (home ``none``)."""
    out: dict[str, Any] = {}
    for fn, definitions in simd.values():
        if fn.problem is not None or not fn.pragmas or fn.home == NONE:
            continue
        cursor = next(iter(definitions.values()), fn.pragmas[0].target)
        out[fn.name] = (signature_of(fn, cursor), fn.variants)
    return out


def _all_variants(
    simd: dict[str, tuple[SimdFunction, dict[str, Any]]],
    main: ParsedFile,
    targets: list[Target],
    options: Options,
    codegen: CodegenOptions,
    result: Result,
    replacements: list[Replacement],
    needs: dict[str, set[str] | None],
) -> None:
    """Variants of every function defined here.  Their bodies may call each
    other's variants: when a body turns out not to be vectorizable (no
    variants), the others are made again without calls to it."""
    for _ in range(len(simd) + 1):
        codegen.simd_functions = callable_variants(simd)
        trial = Result(b"")
        edits: list[Replacement] = []
        wanted: dict[str, set[str] | None] = dict(needs)
        for fn, definitions in simd.values():
            if definitions and fn.problem is None:
                _emit_variants(
                    fn, definitions, main, targets, options, codegen, trial, edits, wanted
                )
        if callable_variants(simd).keys() == codegen.simd_functions.keys():
            break
    for fn, definitions in simd.values():
        if (
            definitions
            and fn.problem is not None
            and not any(r.kind == "function" and r.name == fn.name for r in trial.reports)
        ):
            _emit_variants(fn, definitions, main, targets, options, codegen, trial, edits, wanted)
    result.warnings.extend(trial.warnings)
    result.reports.extend(trial.reports)
    replacements.extend(edits)
    needs.update(wanted)


def _emit_variants(
    fn: SimdFunction,
    definitions: dict[str, Any],
    main: ParsedFile,
    targets: list[Target],
    options: Options,
    codegen: CodegenOptions,
    result: Result,
    replacements: list[Replacement],
    needs: dict[str, set[str] | None],
) -> None:
    try:
        fv = function_variants(fn, definitions, main.data, targets, options, codegen)
    except Exception as exc:
        e = _contained(exc, fn.location)
        fv = FunctionVariants(0, "")
        not_vectorized(fv, fn, e, targets)
    if not fv.text and fn.problem is None:
        # the reason stays for the next round (_all_variants makes them again)
        fn.problem = fv.problem or Unsupported("its body is not vectorized", fn.location)
    result.warnings.extend(fv.warnings)
    result.reports.extend(fv.reports)
    if fv.text:
        replacements.append(Replacement(fv.offset, fv.offset, fv.text.encode()))
    for name, items in fv.needs.items():
        needs[name] = (needs[name] or set()) | items


def _vectorize_loop(
    lowered: _Lowered, targets: list[Target], codegen_options: CodegenOptions, result: Result
) -> tuple[Region, list[tuple[Target, GeneratedLoop]]] | None:
    """Vector code for every target whose view holds the loop; the loop's
    warnings say once what failed for all targets, else per target."""
    loops: list[tuple[Target, GeneratedLoop]] = []
    failures: list[tuple[Target, Unsupported]] = []
    region: Region | None = None
    for target in targets:
        pragma = lowered.pragmas.get(target.name)
        if pragma is None:
            continue  # the loop is in code the preprocessor skips for this target
        report = _report(pragma, target, "loop", f"loop at line {pragma.location.line}")
        result.reports.append(report)
        try:
            analyzed, loop = _generate_for(lowered, target, codegen_options, report)
        except Exception as exc:
            e = _contained(exc, lowered.location)
            report.reason = e.message
            failures.append((target, e))
            continue
        region = region or analyzed.region
        loops.append((target, loop))
        result.loops.append(loop)
    _warn_failures(failures, len(lowered.pragmas), lowered.location, result)
    return (region, loops) if region is not None else None


def _generate_for(
    lowered: _Lowered, target: Target, codegen_options: CodegenOptions, report: RegionReport
) -> tuple[AnalyzedRegion, GeneratedLoop]:
    """The loop's code for one target; when the loop with its callees
    inlined cannot be vectorized, the loop with its calls kept as calls."""
    try:
        return _generate_once(lowered, target, codegen_options, report)
    except Exception as exc:
        if not lowered.inlines(target) or os.environ.get("S2SVEC_DEBUG"):
            raise
        e = _contained(exc, lowered.location)
        plain = lowered.without_inlining(f"inlined, the loop is not vectorized ({e.message})")
        return _generate_once(plain, target, codegen_options, report)


def _generate_once(
    lowered: _Lowered, target: Target, codegen_options: CodegenOptions, report: RegionReport
) -> tuple[AnalyzedRegion, GeneratedLoop]:
    analyzed, loop = _generate_one(lowered, target, codegen_options, report)
    bounds = analyzed.region.bounds
    clauses = analyzed.region.clauses
    if (
        bounds is None
        or not isinstance(bounds.step, str)
        or lowered.unit_step
        or (clauses is not None and clauses.teams_in_target)
    ):
        return analyzed, loop
    # a run-time step: the common step of 1 gets a version of its own, with
    # contiguous accesses where the general one gathers and scatters
    unit = lowered.with_unit_step()
    quiet = dataclasses.replace(report)
    try:
        _, fast = _generate_one(unit, target, codegen_options, quiet)
    except Exception as exc:
        _contained(exc, lowered.location)
        return analyzed, loop
    one = "1" if bounds.cmp in ("<", "<=") else "-1"
    return analyzed, _either(f"({bounds.step}) == {one}", fast, loop, analyzed.region.column)


def _either(cond: str, fast: GeneratedLoop, general: GeneratedLoop, column: int) -> GeneratedLoop:
    """``if (cond) fast else general`` (both the C block of one loop,
    indented like the pragma at ``column``); the report keeps the general
    version's counts."""
    margin = " " * max(0, column - 1)
    text = "\n".join(
        [f"{margin}if ({cond}) {{", fast.text, f"{margin}}} else {{", general.text, f"{margin}}}"]
    )
    return dataclasses.replace(general, text=text, needs=set(general.needs) | set(fast.needs))


def _generate_one(
    lowered: _Lowered, target: Target, codegen_options: CodegenOptions, report: RegionReport
) -> tuple[AnalyzedRegion, GeneratedLoop]:
    analyzed = lowered.region_for(target)
    report.name = analyzed.region.name
    control_counts(analyzed, report)
    tail = lowered.variant_for(target, "tail") if target.masked_tail else None
    refill = lowered.variant_for(target, "refill") if lowered.options.refill else None
    if lowered.internal is not None:
        lowered.internal.prepare([analyzed, tail, refill], target, lowered.parsed(target).tu)
    return analyzed, generate(analyzed, target, codegen_options, report, tail, refill)


def _contained(exc: Exception, location: Location) -> Unsupported:
    """A loop s2svec fails on stays scalar (correct, only slower) with a
    warning asking for a report, and the rest of the file is still
    vectorized; S2SVEC_DEBUG re-raises a bug for its traceback."""
    if isinstance(exc, Unsupported):
        return exc
    if os.environ.get("S2SVEC_DEBUG"):
        raise exc
    return internal_error(f"{type(exc).__name__}: {exc}", location)


def _warn_failures(
    failures: list[tuple[Target, Unsupported]], attempted: int, location: Location, result: Result
) -> None:
    messages = {(e.message, e.location) for _, e in failures}
    if len(failures) == attempted and len(messages) == 1:
        e = failures[0][1]
        _warn(result, e.location or location, f"loop not vectorized: {e.message}")
        return
    for target, e in failures:
        _warn(result, e.location or location, f"loop not vectorized for {target.name}: {e.message}")


class _Lowered:
    """The analyzed region of one loop per target: lowered once per file view
    and plain-char signedness (signed on x86, unsigned on AArch64); the
    pipeline and the variants' pipelines each run on a copy."""

    def __init__(
        self,
        views: dict[str, FileView],
        pragmas: dict[str, Pragma],
        options: Options,
        internal: InternalVariants | None = None,
        no_inline: str = "",
        unit_step: bool = False,
    ) -> None:
        self.views, self.pragmas, self.options = views, pragmas, options
        self.unit_step = unit_step
        """A run-time loop step is taken to be 1 (lower_loop's ``unit_step``)."""
        self.internal = internal
        """Where the loop's calls find internal vector variants of their callees."""
        self.location = next(iter(pragmas.values())).location
        self.lowered: dict[tuple[int, bool], Region | Unsupported] = {}
        """The loop as lowered, per view and signedness (never changed)."""
        self.cache: dict[tuple[int, bool, tuple[object, ...]], AnalyzedRegion | Unsupported] = {}
        """The analyzed region by view, signedness and the options the pipeline reads."""
        self.variants: dict[tuple[object, ...], AnalyzedRegion | None] = {}
        self.no_inline = no_inline
        """Why no call is inlined (lower_loop's ``no_inline``); empty: they may be."""
        self.inlinable: set[int] = set()
        """The parses (ids) whose lowering had calls to inline."""
        self._plain: _Lowered | None = None
        self._unit: _Lowered | None = None

    def parsed(self, target: Target) -> ParsedFile:
        """The parse the target reads (a loop is lowered only from views that parse)."""
        parsed = self.views[target.name].parsed
        assert parsed is not None
        return parsed

    def inlines(self, target: Target) -> bool:
        """Whether the target's region had calls to inline."""
        return id(self.views[target.name].parsed) in self.inlinable

    def without_inlining(self, reason: str) -> _Lowered:
        """The same loop lowered with its calls kept as calls (``reason``)."""
        if self._plain is None:
            self._plain = _Lowered(
                self.views, self.pragmas, self.options, self.internal, reason, self.unit_step
            )
        return self._plain

    def with_unit_step(self) -> _Lowered:
        """The same loop lowered with its run-time step taken to be 1."""
        if self._unit is None:
            self._unit = _Lowered(
                self.views, self.pragmas, self.options, self.internal, self.no_inline, True
            )
        return self._unit

    def region_for(self, target: Target) -> AnalyzedRegion:
        view = self.views[target.name]
        read = options_read(PIPELINE, self.options.pass_options(target))
        key = (id(view), target.plain_char_signed, read)
        if key not in self.cache:
            other = self.cache.get((id(view), not target.plain_char_signed, read))
            if isinstance(other, AnalyzedRegion) and not other.region.plain_char:
                self.cache[key] = other
            else:
                self.cache[key] = self._analyze(target)
        found = self.cache[key]
        if isinstance(found, Unsupported):
            raise found
        return found

    def variant_for(self, target: Target, kind: str) -> AnalyzedRegion | None:
        """A variant of the loop's region for ``target`` (pipeline.VARIANTS:
        ``tail``, its masked last iteration; ``refill``, the lane refill
        schedule); None where the loop has none (the plain vector loop and
        scalar remainder stay)."""
        view = self.views[target.name]
        options = self.options.pass_options(target)
        key = (kind, id(view), target.plain_char_signed, options_read(VARIANTS[kind][1], options))
        if key not in self.variants:
            self.variants[key] = self._analyze_variant(target, kind, options)
        return self.variants[key]

    def _analyze_variant(
        self, target: Target, kind: str, options: PassOptions
    ) -> AnalyzedRegion | None:
        try:
            return analyze_variant(
                self._lowered(target), kind, options, tuple(self.options.print_after)
            )
        except Exception:
            if os.environ.get("S2SVEC_DEBUG"):
                raise
            return None

    def _lowered(self, target: Target) -> Region:
        """The loop as lowered for the target's view (raises what lowering does)."""
        view = self.views[target.name]
        key = (id(view), target.plain_char_signed)
        if key not in self.lowered:
            pragma = self.pragmas[target.name]
            try:
                parsed = self.parsed(target)
                region = lower_loop(
                    parsed,
                    pragma,
                    plain_char_signed=key[1],
                    no_inline=self.no_inline,
                    unit_step=self.unit_step,
                )
                assert region.replace is not None  # a loop region replaces its text
                region.source_checks = source_checks(parsed, pragma, region.replace.end)
                self.lowered[key] = region
            except RecursionError:
                self.lowered[key] = Unsupported(
                    "the loop's code is nested too deeply", pragma.location
                )
            except Exception as exc:
                self.lowered[key] = _contained(exc, pragma.location)
            made = self.lowered[key]
            if isinstance(made, Region) and made.callees:
                self.inlinable.add(id(view.parsed))
        found = self.lowered[key]
        if isinstance(found, Unsupported):
            raise found
        return found

    def _analyze(self, target: Target) -> AnalyzedRegion | Unsupported:
        pragma = self.pragmas[target.name]
        try:
            region = clone_region(self._lowered(target))
            first = not self.cache
            analyzed = analyze(
                region,
                self.options.pass_options(target),
                tuple(self.options.print_after),
                observe=_emit_cfg(region, self.options) if first else None,
            )
        except RecursionError:
            return Unsupported("the loop's code is nested too deeply", pragma.location)
        except Exception as exc:
            return _contained(exc, pragma.location)
        if first:
            _print_shapes(analyzed, self.options)
        return analyzed


def _emit_cfg(region: Region, options: Options) -> Callable[[str, Any], None] | None:
    """--emit-cfg: the region's CFG before (divergent branches, joins and loops
    marked) and after linearization, as Graphviz files."""
    if not options.emit_cfg:
        return None
    from .analysis.dot import write_dot

    directory = options.emit_cfg
    stem = f"{os.path.basename(region.file)}.{region.line}"

    def observe(name: str, state: Any) -> None:
        views = {"canonicalize": "before", "linearize": "after"}
        if name in views:
            os.makedirs(directory, exist_ok=True)
            write_dot(
                state.fn,
                state.get(DivergenceInfo),
                os.path.join(directory, f"{stem}.{views[name]}.dot"),
            )

    return observe


def _print_shapes(analyzed: AnalyzedRegion, options: Options) -> None:
    """--print-shapes: the analysis the code generator reads, nothing changes."""
    if options.print_shapes:
        from .analysis.annotate import print_divergence

        region = analyzed.region
        sys.stdout.write(f"; region {region.name} at {region.file}:{region.line}\n")
        sys.stdout.write(print_divergence(region.fn, analyzed.div) + "\n")


def _in_view(target: Target, view: FileView) -> Target:
    """``target`` whose #if condition also says how its view read the file
    (FileView.assumed): its code is compiled only where the file reads alike."""
    terms = tuple(
        f"defined({name})" if defined else f"!defined({name})"
        for name, defined in view.assumed.items()
        if not (defined and name in target.guards)
    )
    return dataclasses.replace(target, assumed=terms) if terms else target


def _compiler_exclusions(region: Region) -> tuple[str, str] | None:
    """A compiler that builds this loop's vector code wrong: the term that
    keeps it on the original loop, and the warning saying so.  clang 19 with
    its OpenMP runtime loses a ``lastprivate(conditional:)`` value on a loop
    shared by threads when the loop has the shape of the vector code's block
    loop (a scalar remainder that assigns the variable too; plain OpenMP
    code with an assignment in an inner loop shows it: kernel
    lastprivate_conditional_worksharing)."""
    clauses = region.clauses
    if clauses is None or not (region.worksharing and clauses.lastprivate_conditional):
        return None
    return (
        "!defined(__clang__)",
        "clang builds run this loop's original code: clang 19's OpenMP runtime loses "
        "'lastprivate(conditional:)' values in the vector code's loop over blocks",
    )


def _dispatch(
    region: Region,
    loops: list[tuple[Target, GeneratedLoop]],
    parsed: ParsedFile,
    line_file: str | None = None,
) -> Replacement:
    """The #if chain replacing one annotated loop (pragma included); each
    branch starts with its marker (``codegen.branch_markers``) and, with
    ``line_file``, a ``#line`` of the pragma's line."""
    assert region.replace is not None
    start = _line_start(parsed.data, region.replace.start)
    here = [line_directive(parsed.location(start).line, line_file)] if line_file else []
    name = loop_region(region.file, region.line, region.column)
    lines: list[str] = []
    excluded = _compiler_exclusions(region)
    for i, (target, loop) in enumerate(loops):
        condition = target.condition + (f" && {excluded[0]}" if excluded else "")
        lines.append(f"{'#if' if i == 0 else '#elif'} {condition}")
        lines.append(branch_marker(target.name, name))
        lines += here
        lines.append(loop.text.rstrip("\n"))
    lines.append("#else")
    lines.append(branch_marker(SCALAR, name))
    lines += here
    lines.append(parsed.data[start : region.replace.end].decode("utf-8", "surrogateescape"))
    lines.append("#endif")
    text = "\n".join(lines) + "\n"
    end = region.replace.end
    # The #endif must end its line; swallow the newline after the loop if any.
    if parsed.data[end : end + 1] == b"\n":
        end += 1
    # Bytes that are not UTF-8 (a Latin-1 comment) come back unchanged.
    return Replacement(
        start,
        end,
        text.encode("utf-8", "surrogateescape"),
        Location(region.file, region.line, region.column),
    )


def _outlined(
    region: Region, loops: list[tuple[Target, GeneratedLoop]], parsed: ParsedFile
) -> list[Replacement]:
    """The helpers of the loop's ``ordered simd`` blocks and ``scan``, before the
    function holding it, for the targets whose code calls them."""
    if not (region.outlined or region.scans) or region.replace is None:
        return []
    function = parsed.enclosing_function(region.replace.start)
    if function is None:
        return []
    at = _line_start(parsed.data, function.extent.start.offset)
    conditions = " || ".join(f"({target.condition})" for target, _ in loops)
    helpers = region.outlined + [scan_helper(h) for h in region.scans]
    text = f"#if {conditions}\n" + "".join(helpers) + "#endif\n"
    return [Replacement(at, at, text.encode("utf-8", "surrogateescape"))]


def _line_start(data: bytes, offset: int) -> int:
    return data.rfind(b"\n", 0, offset) + 1


def _preludes(targets: list[Target], needs: dict[str, set[str] | None]) -> bytes:
    """One guarded prelude per target that vectorized at least one loop."""
    parts: list[str] = []
    for target in targets:
        target_needs = needs[target.name]
        if target_needs is None:
            continue
        text = prelude(target, target_needs).rstrip()
        parts.append(f"#if {target.condition}\n{text}\n#endif\n")
    return "".join(parts).encode()


def _prelude_offset(parsed: ParsedFile, replacements: list[Replacement]) -> int:
    """Start of the line of the top-level declaration holding the first
    vectorized loop: late enough that the file's own feature-test macros and
    includes come first, early enough for every vectorized function."""
    first = min(r.start for r in replacements)
    function = parsed.enclosing_function(first)  # loops are in function definitions
    return _line_start(parsed.data, function.extent.start.offset if function else first)


def _splice(
    parsed: ParsedFile,
    replacements: list[Replacement],
    head: bytes,
    at: int,
    line_file: str | None = None,
) -> bytes:
    """The file with the edits made; with ``line_file``, ``#line``
    directives keep the lines after each edit numbered as in the input
    (and after each macro use written out, macro_loops)."""
    data = parsed.data
    out: list[bytes] = [line_directive(1, line_file).encode() + b"\n"] if line_file else []
    pos = 0
    edits = [Replacement(at, at, head)] if head else []
    if line_file and parsed.lines is not None:
        starts = [0] + [m.end() for m in re.finditer(b"\n", data)]
        edits += [Replacement(starts[k - 1], starts[k - 1], b"") for k in parsed.lines.jumps()]
    for r in sorted(edits + replacements, key=lambda r: (r.start, r.end)):
        out.append(data[pos : r.start])
        out.append(r.text)
        pos = r.end
        at_line_start = r.text.endswith(b"\n") or not r.text
        at_line_start = at_line_start and (pos == 0 or data[pos - 1 : pos] == b"\n")
        if line_file and at_line_start:
            line = parsed.location(pos).line
            out.append(line_directive(line, line_file).encode() + b"\n")
    out.append(data[pos:])
    return b"".join(out)


def line_directive(line: int, file: str | None) -> str:
    """``#line 12 "dir/x.c"`` (the name as a C string literal)."""
    assert file is not None
    quoted = file.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'#line {line} "{quoted}"'
