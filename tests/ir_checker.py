"""The checker of the textual IR tests (every ``*.ir`` file under tests/ir/).

A file holds cases separated by a line ``; -----``.  A case is IR (its first
function is the one checked; functions after it are callees the ``inline``
pass may clone in, all their arguments C parameters) plus directives:
comment lines ``; NAME: arguments``.

Set-up
    ; ARG: %n var                     a parameter's shape (default: uniform)
    ; RUN: divergent-loops linearize  pipeline passes to run, in order
                                      (canonicalize always runs first)
    ; RUN: --boscc-threshold=4 boscc  an option of the passes, as on the
                                      command line (also --no-all-true)
    ; RUN: linearize widen=4          last, widen the function to vector IR
                                      of 4 lanes (s2s/codegen/to_vector_ir.py;
                                      row groups, s2s/analysis/rows.py, become
                                      row loads): the CHECK lines read the
                                      vector IR
    ; RUN: linearize widen=8 split=2  and cut its vectors in 2 parts
    ; RUN: widen=4 promote=avx2       then the target's counter promotion
                                      (s2s/codegen/promote_counters.py)
    ; RUN: widen=vscale:2              widen to scalable vectors of vscale x 2
                                       lanes (SVE: at most 16 x 2)
                                      (s2s/codegen/legalize.py)
    ; WIDTH: 8                        vector width of the analysis (compare
                                      rule T6)

Checks of the printed IR after the RUN passes (a small FileCheck)
    ; CHECK: text               the next line containing text, at or after
                                the current position
    ; CHECK-NEXT: text          exactly the line after the previous match
    ; CHECK-NOT: text           no line containing text between the
                                previous match and the next one
    ; CHECK-COUNT-<n>: text     exactly n lines of the output contain text

    ``{{regex}}`` inside a pattern matches a regular expression, the rest
    matches literally, surrounding blanks ignored.

Checks of the divergence analysis (of the function after the RUN passes)
    ; SHAPE: %x stride(2,a16)         exact shape of a value
    ; BRANCH: entry divergent         class of a block's branch (or uniform)
    ; JOINS: entry: d, x              exact join points of a divergent branch
    ; LOOP: head divergent: x, y      loop class and its exact divergent exits
    ; LOOP: head uniform
    ; ALLOCA: %stack uniform          stack object class (or varying)
    ; ACCESS: %v contiguous           access kind of the load defining %v
    ; STORE: body 0 scatter           access kind of the n-th store of a block
    ; UNSUPPORTED:                    the passes or the analysis must refuse
                                      the function (no other check allowed)

    With analysis checks, every reachable branch and every loop must have a
    BRANCH / LOOP line, and value names carry expectations: a value named
    ``uni`` or ``uni.*`` must be uniform, ``div`` / ``div.*`` must not be.

Errors, never skipped: a comment line that begins with an upper-case word
of two or more letters is a directive, so an unknown name (``; SHAPPE:``) or
a missing colon (``; SHAPE %x var``) is an error, not a comment; a case
without a function (so an empty file too); a case that checks nothing; CHECK
lines without a RUN line; WIDTH without analysis checks; a directive naming
a parameter, value, block or pass that does not exist.

``check_file`` / ``check_text`` return the failures (empty when the file
passes).  From the command line: ``python tests/ir_checker.py FILE...``, or
``--print FILE...`` for the IR each case's RUN passes produce.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from s2s.analysis.divergence import DivergenceInfo, compute_divergence
from s2s.analysis.memory import MemoryAccesses, access_of
from s2s.analysis.records import RecordInfo
from s2s.analysis.shapes import VectorShape
from s2s.codegen.legalize import split_vectors
from s2s.codegen.promote_counters import promote_counters
from s2s.codegen.target import load_target
from s2s.codegen.to_vector_ir import widen_to_vector_ir
from s2s.diagnostics import Unsupported
from s2s.ir.parser import IRError, parse_module
from s2s.ir.printer import print_function
from s2s.ir.region import CalleeBody
from s2s.ir.values import Alloca, Argument, Function, Load, Store, Value
from s2s.ir.verifier import verify
from s2s.pipeline import PIPELINE, PassState, run_passes

SEPARATOR = re.compile(r"^;\s*-{5,}\s*$", re.M)
# A comment line whose first word is upper case (two letters or more): a directive.
DIRECTIVE = re.compile(r"^\s*;\s*([A-Z]{2,}(?:-[A-Z0-9]+)*)(?=[:\s]|$)(:?)(.*)$")
# Any comment line '; Word:' (to catch a directive written in the wrong case).
LABEL = re.compile(r"^\s*;\s*([A-Za-z][A-Za-z0-9-]*):")
COUNT = re.compile(r"CHECK-COUNT-(\d+)$")
SETUP = {"ARG", "RUN", "WIDTH"}
OUTPUT_CHECKS = {"CHECK", "CHECK-NEXT", "CHECK-NOT"}
ANALYSIS_CHECKS = {"SHAPE", "BRANCH", "JOINS", "LOOP", "ALLOCA", "ACCESS", "STORE", "UNSUPPORTED"}
KNOWN = SETUP | OUTPUT_CHECKS | ANALYSIS_CHECKS


class CaseError(Exception):
    """A directive the checker cannot apply (the message says why)."""


@dataclass(frozen=True)
class Directive:
    line: int
    """Line number in the file (1-based)."""
    name: str
    args: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.name}: {self.args}".rstrip()


@dataclass
class Case:
    """One case of a file: its text and its directives."""

    number: int
    """1-based, in file order."""
    text: str
    first_line: int
    directives: list[Directive] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """Syntax errors found while splitting (unknown directives, no colon)."""

    def get(self, name: str) -> list[Directive]:
        return [d for d in self.directives if d.name == name]

    def has(self, names: set[str]) -> bool:
        return any(d.name in names for d in self.directives)

    @property
    def output_checks(self) -> list[Directive]:
        return [d for d in self.directives if d.name in OUTPUT_CHECKS or COUNT.match(d.name)]


def split_cases(text: str) -> list[Case]:
    """The cases of a file's text with their directives (syntax checked)."""
    cases: list[Case] = []
    bounds = [0] + [x for m in SEPARATOR.finditer(text) for x in (m.start(), m.end())] + [len(text)]
    for number, (start, end) in enumerate(zip(bounds[::2], bounds[1::2]), 1):
        chunk = text[start:end]
        line = text.count("\n", 0, start) + 1
        case = Case(number, chunk, line)
        for k, source in enumerate(chunk.split("\n")):
            where = f"line {line + k}"
            m = DIRECTIVE.match(source)
            if m is None:
                label = LABEL.match(source)
                if label and _is_directive(label.group(1).upper()):
                    case.errors.append(
                        f"{where}: directive {label.group(1)!r} must be upper "
                        f"case: {source.strip()}"
                    )
                continue
            name, colon, args = m.group(1), m.group(2), m.group(3).strip()
            if not _is_directive(name):
                case.errors.append(
                    f"{where}: unknown directive {name!r} (a comment line "
                    f"must not begin with an upper-case word): {source.strip()}"
                )
            elif not colon:
                case.errors.append(
                    f"{where}: directive {name} without its colon "
                    f"(write '; {name}: ...'): {source.strip()}"
                )
            else:
                case.directives.append(Directive(line + k, name, args))
        cases.append(case)
    return cases


def _is_directive(name: str) -> bool:
    return name in KNOWN or COUNT.match(name) is not None


# ---------------------------------------------------------------------------
# checks of the printed output


def pattern(text: str) -> re.Pattern[str]:
    parts = re.split(r"\{\{(.*?)\}\}", text.strip())
    return re.compile("".join(p if k % 2 else re.escape(p) for k, p in enumerate(parts)))


def filecheck(output: str, checks: list[tuple[str, str]]) -> list[str]:
    """FileCheck ``checks`` ((directive, pattern) pairs) against ``output``."""
    lines = output.splitlines()
    errors: list[str] = []
    pos = 0  # next line a CHECK may match
    last = -1  # line of the previous match
    pending_not: list[str] = []
    for kind, text in checks:
        count = COUNT.match(kind)
        if count:
            n = sum(1 for line in lines if pattern(text).search(line))
            if n != int(count.group(1)):
                errors.append(f"{kind}: {text!r} found {n} times")
            continue
        if kind == "CHECK-NOT":
            pending_not.append(text)
            continue
        if kind == "CHECK-NEXT":
            found = (
                last + 1
                if last + 1 < len(lines) and pattern(text).search(lines[last + 1])
                else None
            )
            if found is None:
                got = lines[last + 1] if last + 1 < len(lines) else "<end of output>"
                errors.append(f"CHECK-NEXT: {text!r} is not the next line (got {got!r})")
                continue
        elif kind == "CHECK":
            found = next(
                (k for k in range(pos, len(lines)) if pattern(text).search(lines[k])), None
            )
            if found is None:
                errors.append(f"CHECK: {text!r} not found after line {pos + 1}")
                continue
        else:
            raise ValueError(f"not an output check: {kind}")
        errors += _check_nots(lines, pending_not, pos, found)
        pending_not = []
        last, pos = found, found + 1
    errors += _check_nots(lines, pending_not, pos, len(lines))
    return errors


def _check_nots(lines: list[str], nots: list[str], start: int, end: int) -> list[str]:
    return [
        f"CHECK-NOT: {text!r} found on line {k + 1}: {lines[k]!r}"
        for text in nots
        for k in range(start, end)
        if pattern(text).search(lines[k])
    ]


# ---------------------------------------------------------------------------
# running a case


@dataclass
class Result:
    fn: Function
    shapes: dict[Argument, VectorShape]
    output: str | None
    """The printed IR after the RUN passes (None without RUN)."""


def run_case(case: Case) -> Result:
    """Parse the case, apply ARG, run the RUN passes.  Raises CaseError for a
    directive that names nothing, Unsupported when a pass refuses."""
    try:
        fns = parse_module(case.text)
    except IRError as exc:
        raise CaseError(f"IR does not parse: {exc}") from None
    if not fns:
        raise CaseError("no function (a case is an IR function and its checks)")
    fn, *callees = fns
    shapes = {a: VectorShape.uniform() for a in fn.args}
    by_name = {a.name: a for a in fn.args}
    for d in case.get("ARG"):
        name, _, shape = d.args.partition(" ")
        arg = by_name.get(name.lstrip("%"))
        if arg is None or not name.startswith("%"):
            raise CaseError(f"{d}: @{fn.name} has no parameter {name}")
        shapes[arg] = _shape(d, shape)
    runs = case.get("RUN")
    if not runs:
        return Result(fn, shapes, None)
    words = " ".join(d.args for d in runs).split()
    state = PassState(
        fn, dict(shapes), callees={f.name: CalleeBody(f.name, f, len(f.args)) for f in callees}
    )
    for option in (w for w in words if w.startswith("--")):
        _set_option(state, option, runs[0])
    names = ["canonicalize"] + [w for w in words if not w.startswith("--")]
    if names[1:2] == ["canonicalize"]:
        names.pop(0)
    promote = _last_option(names, "promote", runs[0])
    parts = _split_parts(names, runs[0])
    width, scalable = _widen_width(names, runs[0])
    if promote is not None and width is None:
        raise CaseError(f"{runs[0]}: promote=TARGET needs widen=W before it")
    if parts is not None and width is None:
        raise CaseError(f"{runs[0]}: split=K needs widen=W before it")
    by_pass = {p.name: p for p in PIPELINE}
    unknown = [n for n in names if n not in by_pass]
    if unknown:
        raise CaseError(f"{runs[0]}: no pass named {', '.join(unknown)}")
    run_passes(state, tuple(by_pass[n] for n in names))
    if width is not None:
        vf = widen_to_vector_ir(
            state.fn,
            state.get(DivergenceInfo),
            width,
            state.get(MemoryAccesses),
            rows=state.get(RecordInfo).rows,
            max_vscale=16 if scalable else None,
        )
        verify(vf.fn)
        if parts is not None:
            vf = split_vectors(vf, parts)
            verify(vf.fn)
        if promote is not None:
            promote_counters(vf.fn, load_target(promote), vf.width // vf.parts)
            verify(vf.fn)
        return Result(state.fn, state.arg_shapes, print_function(vf.fn))
    return Result(state.fn, state.arg_shapes, print_function(state.fn))


def _last_option(names: list[str], key: str, where: Directive) -> str | None:
    """The value of a final ``key=VALUE`` (removed from ``names``), or None."""
    if not names or not names[-1].startswith(f"{key}="):
        if any(n.startswith(f"{key}=") for n in names):
            raise CaseError(f"{where}: {key}=... must come last")
        return None
    return names.pop()[len(key) + 1 :]


def _split_parts(names: list[str], where: Directive) -> int | None:
    """The parts of a final ``split=K`` (removed from ``names``), or None."""
    if not names or not names[-1].startswith("split="):
        if any(n.startswith("split=") for n in names):
            raise CaseError(f"{where}: split=K must come last")
        return None
    parts = names.pop()[len("split=") :]
    if not parts.isdigit() or int(parts) < 1:
        raise CaseError(f"{where}: split=K needs a part count, not {parts!r}")
    return int(parts)


def _widen_width(names: list[str], where: Directive) -> tuple[int | None, bool]:
    """The lanes of a final ``widen=W`` or ``widen=vscale:W`` (removed from
    ``names``) and whether they are scalable; None when there is none."""
    if not names or not names[-1].startswith("widen="):
        if any(n.startswith("widen=") for n in names):
            raise CaseError(f"{where}: widen=W must come last")
        return None, False
    width = names.pop()[len("widen=") :]
    scalable = width.startswith("vscale:")
    width = width.removeprefix("vscale:")
    if not width.isdigit() or int(width) < 1:
        raise CaseError(f"{where}: widen=W needs a lane count, not {width!r}")
    return int(width), scalable


def _set_option(state: PassState, option: str, where: Directive) -> None:
    name, _, value = option.partition("=")
    if name == "--boscc-threshold" and value.isdigit():
        state.options.boscc_threshold = int(value)
    elif option == "--no-all-true":
        state.options.all_true = False
    else:
        raise CaseError(f"{where}: unknown RUN option {option!r}")


def _shape(d: Directive, text: str) -> VectorShape:
    try:
        return VectorShape.parse(text)
    except ValueError as exc:
        raise CaseError(f"{d}: {exc}") from None


def check_case(case: Case) -> list[str]:
    """The failures of one case."""
    if case.errors:
        return case.errors
    if "func @" not in case.text:
        return ["no function (a case is an IR function and its checks)"]
    output_checks = case.output_checks
    analysis = case.has(ANALYSIS_CHECKS)
    unsupported = case.has({"UNSUPPORTED"})
    static: list[str] = []
    if not output_checks and not analysis:
        static.append("the case checks nothing (no CHECK or analysis line)")
    if output_checks and not case.get("RUN"):
        static.append("CHECK lines without a RUN line (nothing produces the output)")
    if case.get("WIDTH") and not analysis:
        static.append("WIDTH without analysis checks")
    if unsupported and (
        output_checks or len([d for d in case.directives if d.name in ANALYSIS_CHECKS]) > 1
    ):
        static.append("UNSUPPORTED with other checks (they would not be checked)")
    if static:
        return static
    try:
        result = run_case(case)
        info = _analyze(case, result) if analysis else None
    except CaseError as exc:
        return [str(exc)]
    except Unsupported as exc:
        return [] if unsupported else [f"unexpected unsupported: {exc.message}"]
    if unsupported:
        return ["expected the passes or the analysis to refuse the function"]
    errors: list[str] = []
    if output_checks:
        assert result.output is not None
        found = filecheck(result.output, [(d.name, d.args) for d in output_checks])
        errors += found
        if found:
            errors.append(f"output:\n{result.output}")
    if info is not None:
        try:
            errors = _check_analysis(case, result.fn, info) + errors
        except CaseError as exc:
            errors.insert(0, str(exc))
    return errors


def _analyze(case: Case, result: Result) -> DivergenceInfo:
    widths = case.get("WIDTH")
    if len(widths) > 1 or (widths and not widths[0].args.isdigit()):
        raise CaseError(f"{widths[-1]}: one WIDTH, a number")
    width = int(widths[0].args) if widths else None
    return compute_divergence(result.fn, result.shapes, width=width)


def _values(fn: Function) -> dict[str, Value]:
    out: dict[str, Value] = {a.name: a for a in fn.args}
    for inst in fn.instructions():
        if inst.name:
            out[inst.name] = inst
    return out


def _check_analysis(case: Case, fn: Function, info: DivergenceInfo) -> list[str]:
    errors: list[str] = []
    values = _values(fn)
    blocks = {b.name: b for b in fn.blocks}

    def value(d: Directive, name: str) -> Value:
        if not name.startswith("%") or name[1:] not in values:
            raise CaseError(f"{d}: @{fn.name} has no value {name}")
        return values[name[1:]]

    def block(d: Directive, name: str):
        if name not in blocks:
            raise CaseError(f"{d}: @{fn.name} has no block {name}")
        return blocks[name]

    def words(d: Directive, n: int) -> list[str]:
        w = d.args.split()
        if len(w) != n:
            raise CaseError(f"{d}: expected {n} words")
        return w

    def names(text: str) -> list[str]:
        return sorted(x.strip() for x in text.split(",") if x.strip())

    for name, v in values.items():
        shape = info.shape_of(v)
        if (name == "uni" or name.startswith("uni.")) and not shape.is_uniform:
            errors.append(f"%{name} should be uniform, is {shape}")
        if (name == "div" or name.startswith("div.")) and shape.is_uniform:
            errors.append(f"%{name} should not be uniform")
    for d in case.get("SHAPE"):
        name, _, want = d.args.partition(" ")
        got = info.shape_of(value(d, name))
        if str(got) != str(_shape(d, want)):
            errors.append(f"{d}: got {got}")
    for d in case.get("BRANCH"):
        name, want = words(d, 2)
        got = "divergent" if info.is_divergent_branch(block(d, name)) else "uniform"
        if got != want:
            errors.append(f"{d}: got {got}")
    for d in case.get("JOINS"):
        name, colon, rest = d.args.partition(":")
        if not colon:
            raise CaseError(f"{d}: expected 'block: joins'")
        got = sorted(b.name for b in info.join_points(block(d, name.strip())))
        if got != names(rest):
            errors.append(f"{d}: got {', '.join(got) or 'none'}")
    for d in case.get("LOOP"):
        head, _, rest = d.args.partition(" ")
        kind, colon, exits = rest.partition(":")
        kind = kind.strip()
        got_kind = "divergent" if info.loop_is_divergent(block(d, head)) else "uniform"
        if got_kind != kind:
            errors.append(f"{d}: got {got_kind}")
        if colon:
            got = sorted(b.name for b in info.divergent_exits(blocks[head]))
            if got != names(exits):
                errors.append(f"{d}: divergent exits {', '.join(got) or 'none'}")
    errors.extend(_unclassified(fn, info, case))
    for d in case.get("ALLOCA"):
        name, want = words(d, 2)
        a = value(d, name)
        if not isinstance(a, Alloca):
            raise CaseError(f"{d}: {name} is not an alloca")
        got = "uniform" if info.alloca_is_uniform(a) else "varying"
        if got != want:
            errors.append(f"{d}: got {got}")
    for d in case.get("ACCESS"):
        name, want = words(d, 2)
        load = value(d, name)
        if not isinstance(load, Load):
            raise CaseError(f"{d}: {name} is not a load")
        got = access_of(load, info).kind
        if got != want:
            errors.append(f"{d}: got {got}")
    for d in case.get("STORE"):
        name, index, want = words(d, 3)
        stores = [i for i in block(d, name).instructions if isinstance(i, Store)]
        if not index.isdigit() or int(index) >= len(stores):
            raise CaseError(f"{d}: block {name} has {len(stores)} stores")
        got = access_of(stores[int(index)], info).kind
        if got != want:
            errors.append(f"{d}: got {got}")
    return errors


def _unclassified(fn: Function, info: DivergenceInfo, case: Case) -> list[str]:
    """Every branch and every loop of a case with analysis checks must have its class."""
    branches = {d.args.split()[0] for d in case.get("BRANCH") if d.args.split()}
    loops = {d.args.split()[0] for d in case.get("LOOP") if d.args.split()}
    errors = []
    for b in fn.blocks:
        if len(b.successors) > 1 and b.name not in branches and info.cfg.reachable(b):
            errors.append(f"branch {b.name} has no BRANCH line")
    for lp in info.loops.loops:
        if lp.header.name not in loops:
            errors.append(f"loop {lp.header.name} has no LOOP line")
    return errors


# ---------------------------------------------------------------------------
# files


def check_text(text: str) -> list[str]:
    """The failures of a file's text, each prefixed with its case."""
    errors: list[str] = []
    for case in split_cases(text):
        errors += [f"case {case.number} (line {case.first_line}): {e}" for e in check_case(case)]
    return errors


def check_file(path: Path) -> list[str]:
    return check_text(path.read_text())


def main(argv: list[str]) -> int:
    show = "--print" in argv
    status = 0
    for arg in (a for a in argv if a != "--print"):
        text = Path(arg).read_text()
        if show:
            for case in split_cases(text):
                result = run_case(case)
                print(result.output if result.output is not None else print_function(result.fn))
            continue
        errors = check_text(text)
        print("\n".join(f"{arg}: {e}" for e in errors) or f"{arg}: ok")
        status |= bool(errors)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
