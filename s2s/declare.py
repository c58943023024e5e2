"""File-level handling of ``declare simd`` functions: their vector variants.

For each function defined in the file, every ABI variant (s2s.vfabi)
is emitted right after the definition, for x86-64 and AArch64 behind
their architecture macros.  The body of each variant *shape* (mask, vlen,
parameter kinds) is lowered once per target view (s2s.frontend.lower_function),
run through the loop pipeline and widened as a loop over the lanes; the
wrapper picks, with ``#if``, the widest target the build has, else runs the
scalar function per lane.  A body the pipeline cannot take leaves the
function scalar with a warning, and no variants are emitted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import clang.cindex as ci

from .codegen.generate import CodegenOptions, GeneratedLoop
from .codegen.target import Target
from .codegen.variant import (
    LANES,
    Core,
    Signature,
    family_block,
    lane_call,
    no_gcc_clones,
    wrapper,
)
from .diagnostics import DeviceCode, Unsupported
from .frontend.declare_simd import SimdFunction
from .frontend.lower_function import lower_function
from .ir.clauses import ClauseSet
from .pipeline import analyze, control_counts, generate
from .report import RegionReport
from .vfabi import FAMILIES, ISAS, Variant

Shape = tuple[bool, int, tuple[Any, ...], int]


@dataclass
class FunctionVariants:
    """What the driver splices and reports for one function."""

    offset: int
    """Where the variants go (``_offset``)."""
    text: str
    reports: list[RegionReport] = field(default_factory=list)
    needs: dict[str, set[Any]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    problem: Unsupported | None = None
    """Why no variant has a body (None: they were made)."""


def signature_of(fn: SimdFunction, cursor: Any) -> Signature:
    params = [p for p in cursor.get_children() if p.kind.name == "PARM_DECL"]
    static = cursor.linkage == ci.LinkageKind.INTERNAL  # also `static f(); f() {...}`
    ret_c = cursor.type.get_result().spelling if fn.ret is not None else ""
    return Signature(
        fn.name, ret_c, fn.ret, [p.type.spelling for p in params], fn.params, fn.param_names, static
    )


def function_variants(
    fn: SimdFunction,
    definitions: dict[str, Any],
    data: bytes,
    targets: list[Target],
    options: Any,
    codegen: CodegenOptions,
) -> FunctionVariants:
    """The variants of ``fn``; ``definitions`` maps each target's name to the
    definition's cursor in that target's view (missing: code the target's
    preprocessor skips)."""
    cursor = next(iter(definitions.values()))
    out = FunctionVariants(_offset(cursor, data), "")
    loc = fn.location
    if fn.problem is not None:
        not_vectorized(out, fn, fn.problem, targets)
        return out
    sig = signature_of(fn, cursor)
    cores: dict[tuple[str, Shape], tuple[Core, GeneratedLoop, RegionReport]] = {}
    failed: dict[str, tuple[Target, Unsupported]] = {}
    for target in targets:
        if target.name not in definitions:
            continue
        for shape in dict.fromkeys(
            v.shape for v in fn.variants if v.isa.letter in target.vfabi_family and v.vlen > 1
        ):
            try:
                cores[(target.name, shape)] = _core(
                    fn, sig, definitions[target.name], shape, target, options, codegen
                )
            except Unsupported as e:
                failed.setdefault(target.name, (target, e))
    if failed and len(failed) == len(definitions):
        not_vectorized(out, fn, next(iter(failed.values()))[1], targets)
        return out
    for target, e in failed.values():
        out.warnings.append(
            f"{e.location or loc}: warning: function '{fn.name}' not "
            f"vectorized for {target.name} (variants whose body it cannot "
            f"take run the scalar function per lane): {e.message}"
        )
    blocks = []
    for family in FAMILIES:
        texts = []
        for v in (v for v in fn.variants if v.isa.letter in family):
            chosen = [
                (t, cores[(t.name, v.shape)])
                for t in targets
                if (t.name, v.shape) in cores and v.isa.letter in t.vfabi_family
            ]
            texts.append(wrapper(sig, v, [c for _, (c, _, _) in chosen]))
            for t, (_, loop, report) in chosen:
                out.reports.append(_variant_report(report, v, loop))
                out.needs.setdefault(t.name, set()).update(loop.needs)
            if v.vlen == 1:  # one lane: the scalar function is the variant's body
                out.reports.extend(
                    RegionReport(
                        file=loc.file,
                        line=loc.line,
                        column=loc.column,
                        kind="function",
                        name=v.mangled,
                        target=t.name,
                        width=1,
                        reason="one lane: the variant calls the scalar function",
                    )
                    for t in targets
                    if v.isa.letter in t.vfabi_family and t.name in definitions
                )
        isa = ISAS[family[0]]
        blocks.append(family_block(isa.arch, isa.header, texts, no_gcc_clones(sig)))
    out.text = "".join(blocks)
    if out.offset == len(data) and not data.endswith(b"\n"):
        out.text = "\n" + out.text  # a file whose last line has no newline
    return out


def _offset(definition: Any, data: bytes) -> int:
    """Where the variants go: the start of the line after the definition,
    or the end of the file for a definition in an included header (all the
    header declares is visible there)."""
    location = definition.extent.end
    if location.file is None or location.file.name != definition.translation_unit.spelling:
        return len(data)
    end = data.find(b"\n", location.offset)
    return len(data) if end < 0 else end + 1


def _core(
    fn: SimdFunction,
    sig: Signature,
    cursor: Any,
    shape: Shape,
    target: Target,
    options: Any,
    codegen: CodegenOptions,
    site: int | None = None,
) -> tuple[Core, GeneratedLoop, RegionReport]:
    """The vectorized body of one variant shape for one target; ``site``:
    where the variant goes in the main file (default: after the definition)."""
    masked, vlen, kinds, cdt_bits = shape
    isa = ISAS[target.vfabi_isa]
    # a scalable variant's lanes are known at run time: the core loops over them
    lanes: int | str = LANES if isa.scalable else vlen
    clauses = ClauseSet("simd", fn.location, simdlen=vlen, safelen=vlen)
    if isa.scalable:
        clauses = ClauseSet("simd", fn.location)
    region = lower_function(
        cursor,
        lanes,
        masked,
        kinds,
        clauses,
        cdt_bits,
        plain_char_signed=target.plain_char_signed,
        site=site,
    )
    v = Variant(isa, masked, vlen, kinds, fn.name, cdt_bits, False)
    region.body_text = "{ " + lane_call(sig, v) + " }"
    analyzed = analyze(region, options.pass_options(target), tuple(options.print_after))
    report = RegionReport(
        file=fn.location.file,
        line=fn.location.line,
        column=fn.location.column,
        kind="function",
        name=fn.name,
        target=target.name,
    )
    control_counts(analyzed, report)
    loop = generate(analyzed, target, codegen, report)
    return Core(target.condition, loop.text, target.name), loop, report


def _variant_report(core: RegionReport, v: Variant, loop: GeneratedLoop) -> RegionReport:
    """One entry per variant: its mangled name and vlen, the core's counts."""
    import copy

    report = copy.deepcopy(core)
    report.name = v.mangled
    report.width = v.vlen
    return report


def not_vectorized(
    out: FunctionVariants, fn: SimdFunction, e: Unsupported, targets: list[Target]
) -> None:
    out.problem = e
    consequence = (
        "its vector variants are left to the compiler (OpenMP makes them)"
        if isinstance(e, DeviceCode)
        else f"no vector variants of '{fn.name}' are emitted, so callers compiled with "
        "'#pragma omp declare simd' (gcc, clang) will fail to link"
    )
    out.warnings.append(
        f"{e.location or fn.location}: warning: function not vectorized: {e.message}; "
        + consequence
    )
    for target in targets:
        out.reports.append(
            RegionReport(
                file=fn.location.file,
                line=fn.location.line,
                column=fn.location.column,
                kind="function",
                name=fn.name,
                target=target.name,
                reason=e.message,
            )
        )


Warn = Callable[[Any | None, str], None]
