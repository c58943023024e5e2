"""A small FileCheck for the textual IR tests of the transforms (tests/ir/transform/).

A test file holds cases separated by ``; -----``.  Each case is one IR
function (the region) plus directives; functions after the first are
callees the ``inline`` pass may clone in (all their arguments are C
parameters):

    ; RUN: divergent-loops linearize    pipeline passes to run, in order
                                        (canonicalize always runs first)
    ; RUN: --boscc-threshold=4 boscc    an option of the passes, as on the
                                        command line (also --no-all-true)
    ; ARG %n var                        a parameter's shape (default: uniform)
    ; CHECK: text                       the next line containing text, at or
                                        after the current position
    ; CHECK-NEXT: text                  exactly the line after the previous match
    ; CHECK-NOT: text                   no line containing text between the
                                        previous match and the next one
    ; CHECK-COUNT-<n>: text             exactly n lines of the output contain text

``{{regex}}`` inside a pattern matches a regular expression, the rest
matches literally, surrounding blanks ignored.  An unknown directive is an
error.  ``check_file`` returns the failures (empty when the file passes).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from s2s.analysis.shapes import VectorShape
from s2s.ir.parser import parse_module
from s2s.ir.region import CalleeBody
from s2s.ir.printer import print_function
from s2s.pipeline import PIPELINE, PassState, run_passes

DIRECTIVE = re.compile(r"^\s*;\s*(ARG)\s+(.*)$|^\s*;\s*([A-Z][A-Z0-9-]+):\s?(.*)$")
KNOWN = {"RUN", "ARG", "CHECK", "CHECK-NEXT", "CHECK-NOT"}
COUNT = re.compile(r"CHECK-COUNT-(\d+)$")


def pattern(text: str) -> re.Pattern[str]:
    parts = re.split(r"\{\{(.*?)\}\}", text.strip())
    return re.compile("".join(p if k % 2 else re.escape(p) for k, p in enumerate(parts)))


def filecheck(output: str, checks: list[tuple[str, str]]) -> list[str]:
    lines = output.splitlines()
    errors: list[str] = []
    pos = 0          # next line a CHECK may match
    last = -1        # line of the previous match
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
            found = last + 1 if last + 1 < len(lines) and pattern(text).search(lines[last + 1]) \
                else None
            if found is None:
                got = lines[last + 1] if last + 1 < len(lines) else "<end of output>"
                errors.append(f"CHECK-NEXT: {text!r} is not the next line (got {got!r})")
                continue
        else:
            found = next((k for k in range(pos, len(lines)) if pattern(text).search(lines[k])),
                         None)
            if found is None:
                errors.append(f"CHECK: {text!r} not found after line {pos + 1}")
                continue
        errors += _check_nots(lines, pending_not, pos, found)
        pending_not = []
        last, pos = found, found + 1
    errors += _check_nots(lines, pending_not, pos, len(lines))
    return errors


def _check_nots(lines: list[str], nots: list[str], start: int, end: int) -> list[str]:
    return [f"CHECK-NOT: {text!r} found on line {k + 1}: {lines[k]!r}"
            for text in nots for k in range(start, end) if pattern(text).search(lines[k])]


def run_case(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Run the RUN passes on the case's function; (printed IR, checks)."""
    directives = [(m.group(1) or m.group(3), (m.group(2) or m.group(4) or "").strip())
                  for m in map(DIRECTIVE.match, text.splitlines()) if m]
    unknown = [k for k, _ in directives if k not in KNOWN and not COUNT.match(k)]
    if unknown:
        raise ValueError(f"unknown directive(s): {', '.join(unknown)}")
    fn, *others = parse_module(text)
    shapes = {a: VectorShape.uniform() for a in fn.args}
    by_name = {a.name: a for a in fn.args}
    for k, v in directives:
        if k == "ARG":
            name, shape = v.split(None, 1)
            shapes[by_name[name.lstrip("%")]] = VectorShape.parse(shape)
    words = " ".join(v for k, v in directives if k == "RUN").split()
    state = PassState(fn, shapes, callees={f.name: CalleeBody(f.name, f, len(f.args))
                                           for f in others})
    for option in (w for w in words if w.startswith("--")):
        _set_option(state, option)
    names = ["canonicalize"] + [w for w in words if not w.startswith("--")]
    by_pass = {p.name: p for p in PIPELINE}
    run_passes(state, tuple(by_pass[n] for n in names))
    return print_function(fn), [(k, v) for k, v in directives if k.startswith("CHECK")]


def _set_option(state: PassState, option: str) -> None:
    name, _, value = option.partition("=")
    if name == "--boscc-threshold" and value.isdigit():
        state.options.boscc_threshold = int(value)
    elif option == "--no-all-true":
        state.options.all_true = False
    else:
        raise ValueError(f"unknown RUN option {option!r}")


def check_file(path: Path) -> list[str]:
    errors: list[str] = []
    for k, case in enumerate(re.split(r"^;\s*-{5,}\s*$", path.read_text(), flags=re.M)):
        if "func @" not in case:
            continue
        output, checks = run_case(case)
        if not checks:
            errors.append(f"case {k + 1}: no CHECK lines")
        errors += [f"case {k + 1}: {e}" for e in filecheck(output, checks)]
        if errors:
            errors.append(f"case {k + 1} output:\n{output}")
    return errors


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        if arg == "--print":
            continue
        if "--print" in sys.argv:
            for case in re.split(r"^;\s*-{5,}\s*$", Path(arg).read_text(), flags=re.M):
                if "func @" in case:
                    print(run_case(case)[0])
        else:
            print("\n".join(check_file(Path(arg))) or f"{arg}: ok")
