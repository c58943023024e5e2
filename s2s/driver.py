"""The file-level driver: parse, find pragmas, lower, vectorize, splice, report.

Only the text of annotated loops changes: each is replaced by an ``#if``
chain over the targets' ISA macros (widest first) whose ``#else`` keeps the
original pragma and loop, and the targets' preludes (headers, helpers) are
added at the top of the file.  Every other byte stays as it was.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Optional

from .codegen.generate import CodegenOptions, GeneratedLoop, prelude
from .codegen.target import TEMPLATE_ROOT, Target, load_target
from .deep import deep_stack
from .diagnostics import Location, Unsupported, UserError
from .frontend.lower import lower_loop
from .frontend.parse import ParsedFile, parse_file
from .frontend.pragmas import Pragma, find_pragmas
from .ir.region import Region
from .pipeline import AnalyzedRegion, analyze, control_counts, generate
from .report import RegionReport, render_json, render_text

DEFAULT_TARGETS = ("avx512", "avx2", "neon")


def known_targets() -> list[str]:
    """Every folder of templates/ with a target.toml is a target."""
    return sorted(p.parent.name for p in TEMPLATE_ROOT.glob("*/target.toml"))


def host_target() -> str:
    """The widest target the running machine supports."""
    machine = os.uname().machine
    if machine in ("aarch64", "arm64"):
        return "neon"
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        flags = ""
    if " avx512f" in flags:
        return "avx512"
    if " avx2" in flags:
        return "avx2"
    raise ValueError("the host has none of the supported ISAs (avx2, avx512, neon)")


def resolve_targets(spec: str) -> list[str]:
    """Parse a --target list; raise ValueError on unknown names."""
    names: list[str] = []
    for name in (n.strip() for n in spec.split(",")):
        if name == "host":
            name = host_target()
        if name not in known_targets():
            raise ValueError(f"unknown target '{name}' (choose from "
                             f"{', '.join(known_targets())}, host)")
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
    simdlen: Optional[int] = None
    boscc: bool = True
    emit_cfg: Optional[str] = None
    print_shapes: bool = False


@dataclass
class Result:
    output: bytes
    warnings: list[str] = field(default_factory=list)
    reports: list[RegionReport] = field(default_factory=list)
    loops: list[GeneratedLoop] = field(default_factory=list)
    """Every vectorized loop of every target, in file order."""

    def report_text(self) -> str:
        return render_text(self.reports)

    def report_json(self) -> str:
        return render_json(self.reports)


@dataclass
class Replacement:
    start: int
    end: int
    text: bytes


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
    parsed = parse_file(path, options.include_dirs, options.defines, options.std)
    targets = sorted((load_target(n) for n in options.targets),
                     key=lambda t: -t.register_bits)
    result = Result(output=b"")
    codegen_options = CodegenOptions(math=options.math, simdlen=options.simdlen)
    replacements: list[Replacement] = []
    needs: dict[str, Optional[set[str]]] = {t.name: None for t in targets}
    pragmas = find_pragmas(parsed)
    result.warnings.extend(w.format() for w in parsed.warnings)
    for pragma in pragmas:
        if pragma.clauses.directive == "declare simd":
            _skip_function(pragma, targets, result)
            continue
        generated = _vectorize_loop(parsed, pragma, targets, codegen_options, options, result)
        if generated is None:
            continue
        region, loops = generated
        for target, loop in loops:
            needs[target.name] = (needs[target.name] or set()) | loop.needs
        replacements.append(_dispatch(region, loops, parsed))
    head = _preludes(targets, needs)
    at = _prelude_offset(parsed, replacements) if head else 0
    result.output = _splice(parsed.data, replacements, head, at)
    return result


def _report(pragma: Pragma, target: Target, kind: str, name: str) -> RegionReport:
    loc = pragma.location
    return RegionReport(file=loc.file, line=loc.line, column=loc.column,
                        kind=kind, name=name, target=target.name)


def _warn(result: Result, location: Optional[Location], message: str) -> None:
    where = f"{location}: " if location else "s2svec: "
    result.warnings.append(f"{where}warning: {message}")


def _skip_function(pragma: Pragma, targets: list[Target], result: Result) -> None:
    name = pragma.target.spelling
    reason = "vector variants of declare simd functions are not generated yet"
    _warn(result, pragma.location, f"function '{name}' left scalar: {reason}")
    for target in targets:
        report = _report(pragma, target, "function", name)
        report.reason = reason
        result.reports.append(report)


def _vectorize_loop(parsed: ParsedFile, pragma: Pragma, targets: list[Target],
                    codegen_options: CodegenOptions, options: Options, result: Result
                    ) -> Optional[tuple[Region, list[tuple[Target, GeneratedLoop]]]]:
    reports = [_report(pragma, t, "loop", f"loop at line {pragma.location.line}")
               for t in targets]
    result.reports.extend(reports)
    lowered = _Lowered(parsed, pragma, options)
    try:
        region = lowered.region_for(targets[0]).region
        for r in reports:
            r.name = region.name
    except Unsupported as e:
        for r in reports:
            r.reason = e.message
        _warn(result, e.location or pragma.location, f"loop not vectorized: {e.message}")
        return None
    loops: list[tuple[Target, GeneratedLoop]] = []
    for target, report in zip(targets, reports):
        try:
            analyzed = lowered.region_for(target)
            control_counts(analyzed, report)
            loop = generate(analyzed, target, codegen_options, report)
        except Unsupported as e:
            report.reason = e.message
            _warn(result, e.location or pragma.location,
                  f"loop not vectorized for {target.name}: {e.message}")
            continue
        loops.append((target, loop))
        result.loops.append(loop)
    return (region, loops) if loops else None


class _Lowered:
    """The analyzed region of one loop, lowered once per plain-char signedness
    the targets need (plain char is signed on x86, unsigned on AArch64)."""

    def __init__(self, parsed: ParsedFile, pragma: Pragma, options: Options) -> None:
        self.parsed, self.pragma, self.options = parsed, pragma, options
        self.by_signedness: dict[bool, AnalyzedRegion] = {}

    def region_for(self, target: Target) -> AnalyzedRegion:
        signed = target.plain_char_signed
        if not self.by_signedness:
            first = analyze(lower_loop(self.parsed, self.pragma, plain_char_signed=signed))
            _debug_outputs(first, self.options)
            self.by_signedness[signed] = first
            if not first.region.plain_char:
                self.by_signedness[not signed] = first
        if signed not in self.by_signedness:
            region = lower_loop(self.parsed, self.pragma, plain_char_signed=signed)
            self.by_signedness[signed] = analyze(region)
        return self.by_signedness[signed]


def _debug_outputs(analyzed: AnalyzedRegion, options: Options) -> None:
    """--emit-cfg and --print-shapes: views of the analysis, nothing changes."""
    region = analyzed.region
    if options.emit_cfg:
        from .analysis.dot import write_dot
        os.makedirs(options.emit_cfg, exist_ok=True)
        stem = f"{os.path.basename(region.file)}.{region.line}"
        write_dot(region.fn, analyzed.div, os.path.join(options.emit_cfg, f"{stem}.dot"))
    if options.print_shapes:
        from .analysis.divergence import print_divergence
        sys.stdout.write(f"; region {region.name} at {region.file}:{region.line}\n")
        sys.stdout.write(print_divergence(region.fn, analyzed.div) + "\n")


def _dispatch(region: Region, loops: list[tuple[Target, GeneratedLoop]],
              parsed: ParsedFile) -> Replacement:
    """The #if chain replacing one annotated loop (pragma included)."""
    assert region.replace is not None
    start = _line_start(parsed.data, region.replace.start)
    lines: list[str] = []
    for i, (target, loop) in enumerate(loops):
        lines.append(f"{'#if' if i == 0 else '#elif'} defined({target.guard})")
        lines.append(loop.text.rstrip("\n"))
    lines.append("#else")
    lines.append(parsed.data[start:region.replace.end].decode("utf-8", "surrogateescape"))
    lines.append("#endif")
    text = "\n".join(lines) + "\n"
    end = region.replace.end
    # The #endif must end its line; swallow the newline after the loop if any.
    if parsed.data[end:end + 1] == b"\n":
        end += 1
    # Bytes that are not UTF-8 (a Latin-1 comment) come back unchanged.
    return Replacement(start, end, text.encode("utf-8", "surrogateescape"))


def _line_start(data: bytes, offset: int) -> int:
    return data.rfind(b"\n", 0, offset) + 1


def _preludes(targets: list[Target], needs: dict[str, Optional[set[str]]]) -> bytes:
    """One guarded prelude per target that vectorized at least one loop."""
    parts: list[str] = []
    for target in targets:
        target_needs = needs[target.name]
        if target_needs is None:
            continue
        text = prelude(target, target_needs).rstrip()
        parts.append(f"#if defined({target.guard})\n{text}\n#endif\n")
    return "".join(parts).encode()


def _prelude_offset(parsed: ParsedFile, replacements: list[Replacement]) -> int:
    """Start of the line of the top-level declaration holding the first
    vectorized loop: late enough that the file's own feature-test macros and
    includes come first, early enough for every vectorized function."""
    first = min(r.start for r in replacements)
    best = first
    for decl in parsed.tu.cursor.get_children():
        start, end = decl.extent.start, decl.extent.end
        if start.file is None or start.file.name != parsed.tu.spelling:
            continue
        if start.offset <= first < end.offset:
            best = start.offset
            break
    return _line_start(parsed.data, best)


def _splice(data: bytes, replacements: list[Replacement], head: bytes, at: int) -> bytes:
    out: list[bytes] = []
    pos = 0
    edits = [Replacement(at, at, head)] if head else []
    for r in sorted(edits + replacements, key=lambda r: (r.start, r.end)):
        out.append(data[pos:r.start])
        out.append(r.text)
        pos = r.end
    out.append(data[pos:])
    return b"".join(out)
