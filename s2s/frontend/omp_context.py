"""OpenMP constructs around and inside a simd loop that keep it scalar.

The file is parsed without OpenMP, so s2svec sees every ``#pragma omp`` line
only as text.  A simd loop is vectorized only when nothing else OpenMP says
changes what its iterations do or where they run:

    #pragma omp simd                  a directive inside the body (critical,
    for (...) {                       barrier, a nested simd loop...):
        #pragma omp critical          the body is not independent iterations,
        ...                           or another loop is the one to vectorize;
    }                                 but ``atomic`` and ``ordered simd`` are
                                      the loop's ``inner`` constructs, lowered
                                      to calls that run lane by lane
                                      (lower_omp.py), and so is the ``scan``
                                      of a loop with inscan reductions
                                      (scan.py)

    #pragma omp target ...            when the build offloads (``offload``:
    { ... #pragma omp simd ... }      -fopenmp-targets=, -foffload=,
                                      --offload-arch=), the loop may run on an
    #pragma omp target teams ... simd offload device (also in functions between
                                      'declare target' and 'end declare
                                      target', or named by 'declare
                                      target(f)'); without, target regions
                                      run on the host and are vectorized

    #pragma omp target                (without offloading: a teams construct
    #pragma omp teams distribute simd nested in a target one must be all the
                                      target holds, so its vector code goes
                                      into a teams region of its own, on
                                      distribute written apart: ``in_target``)

    #pragma omp declare variant(v) match(construct={simd})
    double f(double);                 with OpenMP a call to f in a simd loop
                                      may call v instead

Each such loop stays scalar with a warning (``reason``); nothing here is an
error.  ``inner`` gives the ``atomic`` and ``ordered simd`` constructs of a
loop with the statements they annotate.  Unsupported loop directives
themselves (``loop``) are recognized by ``clauses.is_simd_loop_construct``.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import clang.cindex as ci

from ..diagnostics import DeviceCode, Location, Unsupported
from ..ir.clauses import REDUCTION_OPS, ClauseSet, Token, UserReduction
from .declare_reduction import parse_declare_reduction
from .lower_clang import children, location, walk_preorder

CK = ci.CursorKind
_HOST_TARGET_WORDS = ("data", "enter", "exit", "update")
_TARGET_LIST_CLAUSES = ("to", "enter", "link")


@dataclass
class OmpLine:
    """One ``#pragma omp`` line of the main file."""

    start: int
    end: int
    location: Location
    words: list[str]
    """The directive name (``clauses.directive_words``)."""
    tokens: list[Token]
    """The tokens after ``omp``."""
    clauses: ClauseSet | None
    """Set for the directives s2svec handles."""
    next: int = 0
    """Offset of the first token after the line (what the directive annotates)."""
    operator: str = ""
    """How a ``_Pragma`` use writes the directive, for diagnostics
    (pragma_operator.OperatorUse.spelled); empty for a ``#pragma`` line."""

    @property
    def name(self) -> str:
        words = " ".join(self.words)
        return words or (self.tokens[0].text if self.tokens else "")

    @property
    def is_loop_directive(self) -> bool:
        return self.clauses is not None and self.clauses.is_loop


@dataclass
class InnerConstruct:
    """An ``atomic`` or ``ordered simd`` construct inside a simd loop."""

    line: OmpLine
    stmt: ci.Cursor
    """The statement the directive annotates (``line.next`` is its start)."""

    @property
    def kind(self) -> str:
        """``atomic`` or ``ordered``."""
        return self.line.words[0]

    @property
    def extent(self) -> tuple[int, int]:
        return self.stmt.extent.start.offset, self.stmt.extent.end.offset


def inner_kind(line: OmpLine) -> str | None:
    """``atomic`` or ``ordered`` for the directives a simd loop may hold
    and s2svec lowers (``ordered`` with its ``simd`` clause only: with
    ``threads`` the order spans the worksharing loop's threads)."""
    words = [t.text for t in line.tokens]
    if line.words[:1] == ["atomic"]:
        return "atomic"
    if line.words[:1] == ["ordered"] and words[1:] == ["simd"]:
        return "ordered"
    return None


def is_scan_line(line: OmpLine) -> bool:
    """A ``#pragma omp scan`` (s2s/frontend/scan.py)."""
    return line.words[:1] == ["scan"] or [t.text for t in line.tokens[:1]] == ["scan"]


class OmpContext:
    """The OpenMP regions of a file, to ask about each simd loop."""

    def __init__(
        self,
        tu: ci.TranslationUnit,
        lines: list[OmpLine],
        cursors: dict[int, ci.Cursor],
        offload: str | None = None,
    ) -> None:
        self.offload_flag = offload
        """The compiler flag that makes the build offload target regions
        (``-fopenmp-targets=nvptx64``), None when they run on the host."""
        self.lines = sorted(lines, key=lambda line: line.start)
        self.starts = [line.start for line in self.lines]
        self.target_regions: list[tuple[int, int, OmpLine]] = []
        """Statements under ``#pragma omp target`` (extent and directive)."""
        self.team_regions: list[tuple[int, int]] = []
        """Statements under ``parallel``, ``teams`` or ``target`` constructs."""
        self.device_ranges: list[tuple[int, int, OmpLine]] = []
        self.device_functions: dict[str, OmpLine] = {}
        self.variants: dict[str, OmpLine] = {}
        """Base function name -> its ``declare variant`` line."""
        by_start = {line.start: line for line in lines}
        self.cursors = cursors
        self.atomic_default = ""
        """The memory order of ``requires atomic_default_mem_order(...)``, if any."""
        self.user_reductions: list[tuple[int, UserReduction]] = []
        """The ``declare reduction`` pragmas s2svec reads, with their offsets."""
        self.functions = [
            c
            for c in children(tu.cursor)
            if c.kind == CK.FUNCTION_DECL
            and c.extent.start.file is not None
            and c.extent.start.file.name == tu.spelling
        ]
        self.function_extents = [
            (f.extent.start.offset, f.extent.end.offset, f) for f in self.functions
        ]
        open_target: list[OmpLine] = []
        open_variant: list[OmpLine] = []
        for line in lines:
            words = line.words
            if words == ["requires"]:
                self.atomic_default = _default_mem_order(line) or self.atomic_default
            if [t.text for t in line.tokens[:2]] == ["declare", "reduction"]:
                udr = parse_declare_reduction(line.tokens[2:])
                if udr is not None:
                    self.user_reductions.append((line.start, udr))
            if words[:1] in (["parallel"], ["teams"], ["target"]):
                offset = line.next
                while offset in by_start:  # a construct on the next line
                    offset = by_start[offset].next
                stmt = cursors.get(offset)
                if stmt is not None:
                    self.team_regions.append((stmt.extent.start.offset, stmt.extent.end.offset))
            if words[:1] == ["target"] and (len(words) < 2 or words[1] not in _HOST_TARGET_WORDS):
                offset = line.next
                while offset in by_start:  # '#pragma omp teams ...' on the next line
                    offset = by_start[offset].next
                stmt = cursors.get(offset)
                if stmt is not None:
                    self.target_regions.append(
                        (stmt.extent.start.offset, stmt.extent.end.offset, line)
                    )
            elif words in (["declare", "target"], ["begin", "declare", "target"]):
                names = _target_list(line)
                if names is None:
                    open_target.append(line)
                for name in names or []:
                    self.device_functions[name] = line
            elif words == ["end", "declare", "target"] and open_target:
                begin = open_target.pop()
                self.device_ranges.append((begin.end, line.start, begin))
            elif words[:2] == ["declare", "variant"]:
                offset = line.next
                while offset in by_start:  # more pragmas before the function
                    offset = by_start[offset].next
                base = cursors.get(offset)
                if base is not None and base.kind == CK.FUNCTION_DECL:
                    self.variants.setdefault(base.spelling, line)
            elif words == ["begin", "declare", "variant"]:
                open_variant.append(line)
            elif words == ["end", "declare", "variant"] and open_variant:
                begin = open_variant.pop()
                for fn in self.functions:
                    if begin.end <= fn.extent.start.offset < line.start:
                        self.variants.setdefault(fn.spelling, begin)
        for begin in open_target:  # never closed: to the end of the file
            self.device_ranges.append((begin.end, 1 << 62, begin))

    def user_reductions_for(self, clauses: ClauseSet, offset: int) -> Unsupported | None:
        """Give ``clauses`` the ``declare reduction`` pragmas before ``offset`` that
        its reductions name; why the loop stays scalar when one has none."""
        before = [udr for start, udr in self.user_reductions if start < offset]
        for red in clauses.reductions:
            found = [udr for udr in before if udr.name == red.op]
            if found:
                clauses.user_reductions += [u for u in found if u not in clauses.user_reductions]
            elif red.op not in REDUCTION_OPS:
                return Unsupported(
                    f"no '#pragma omp declare reduction({red.op} : ...)' that s2svec "
                    f"reads before the loop (for 'reduction({red.op}: {red.var})')",
                    clauses.location,
                )
        return None

    def device_reason(self, fn: ci.Cursor, where: Location) -> DeviceCode | None:
        """Why code of ``fn`` stays scalar when the build offloads and ``fn``
        is a ``declare target`` function (compiled for the device too)."""
        flag = self.offload_flag
        if flag is None:
            return None
        device = self.device_functions.get(fn.spelling) or next(
            (
                line
                for start, end, line in self.device_ranges
                if start <= fn.extent.start.offset < end
            ),
            None,
        )
        if device is None:
            return None
        return DeviceCode(
            f"function '{fn.spelling}' is compiled for offload devices too "
            f"('#pragma omp declare target' at line {device.location.line}; "
            f"the build offloads: '{flag}')",
            where,
        )

    def team_region(self, loop: ci.Cursor) -> tuple[int, int] | None:
        """The innermost ``parallel``/``teams``/``target`` statement that
        holds ``loop`` (the loop itself for a construct on the line before)."""
        lo, hi = loop.extent.start.offset, loop.extent.end.offset
        around = [(s, e) for s, e in self.team_regions if s <= lo and hi <= e]
        return max(around, default=None)

    def in_target(self, loop: ci.Cursor) -> OmpLine | None:
        """The target construct whose region holds ``loop``, if any."""
        lo = loop.extent.start.offset
        return next((line for start, end, line in self.target_regions if start <= lo < end), None)

    def inner(self, pragma: OmpLine, loop: ci.Cursor) -> list[InnerConstruct]:
        """The ``atomic`` and ``ordered simd`` constructs inside the loop
        (``reason`` says whether the loop can take them)."""
        lo, hi = loop.extent.start.offset, loop.extent.end.offset
        first = bisect.bisect_left(self.starts, lo)
        out: list[InnerConstruct] = []
        for line in self.lines[first : bisect.bisect_left(self.starts, hi)]:
            stmt = self.cursors.get(line.next)
            if (
                line is not pragma
                and not line.operator
                and inner_kind(line) is not None
                and stmt is not None
            ):
                out.append(InnerConstruct(line, stmt))
        return out

    def reason(self, pragma: OmpLine, loop: ci.Cursor) -> Unsupported | None:
        """Why the simd loop ``loop`` (annotated by ``pragma``) must stay scalar."""
        lo, hi = loop.extent.start.offset, loop.extent.end.offset
        first = bisect.bisect_left(self.starts, lo)
        for line in self.lines[first : bisect.bisect_left(self.starts, hi)]:
            if line is pragma or line.is_loop_directive:
                # a nested simd loop: the driver vectorizes the outer loop
                # when it can, and the inner pragma has no effect then
                continue
            if line.operator:
                return Unsupported(
                    f"{line.operator}, inside the simd loop: s2svec does not read _Pragma "
                    f"forms there (write '#pragma omp {line.name}')",
                    line.location,
                )
            clauses = pragma.clauses
            if (
                is_scan_line(line)
                and clauses is not None
                and any(r.inscan for r in clauses.reductions)
            ):
                continue  # the loop's scan (s2s/frontend/scan.py)
            if inner_kind(line) is not None:
                stmt = self.cursors.get(line.next)
                if stmt is None or not (stmt.kind.is_statement() or stmt.kind.is_expression()):
                    return Unsupported(
                        f"'#pragma omp {line.name}' is not followed by a statement s2svec "
                        "recognizes",
                        line.location,
                    )
                continue
            return Unsupported(
                f"'#pragma omp {line.name}' inside the simd loop is not supported", line.location
            )
        flag = self.offload_flag
        kept = pragma.clauses.kept.split() if pragma.clauses is not None else []
        if flag is not None and kept[:1] == ["target"]:
            return Unsupported(
                f"'#pragma omp {pragma.name}' may run on an offload device (the build "
                f"offloads target regions: '{flag}')",
                pragma.location,
            )
        for start, end, line in self.target_regions:
            if not start <= lo < end:
                continue
            if flag is not None:
                return Unsupported(
                    f"the loop is inside the '#pragma omp {line.name}' region at line "
                    f"{line.location.line}, which may run on an offload device (the "
                    f"build offloads: '{flag}')",
                    pragma.location,
                )
        fn = next((f for start, end, f in self.function_extents if start <= lo < end), None)
        if fn is not None:
            found = self.device_reason(fn, pragma.location)
            if found is not None:
                return found
        if self.variants:
            for c in walk_preorder(loop):
                if c.kind != CK.DECL_REF_EXPR:
                    continue
                ref = c.referenced
                if (
                    ref is not None
                    and ref.kind == CK.FUNCTION_DECL
                    and ref.spelling in self.variants
                ):
                    line = self.variants[ref.spelling]
                    return Unsupported(
                        f"call to '{ref.spelling}', which has a '#pragma omp declare "
                        f"variant' (line {line.location.line}), in the simd loop",
                        location(c),
                    )
        return None


_MEM_ORDERS = ("seq_cst", "acq_rel", "release", "acquire", "relaxed")


def _default_mem_order(line: OmpLine) -> str:
    """The argument of ``atomic_default_mem_order(...)`` on a ``requires`` line."""
    toks = [t.text for t in line.tokens]
    for k in range(len(toks) - 3):
        if toks[k : k + 2] == ["atomic_default_mem_order", "("] and toks[k + 2] in _MEM_ORDERS:
            return toks[k + 2]
    return ""


def _target_list(line: OmpLine) -> list[str] | None:
    """The names of ``declare target(f, g)`` / ``declare target to(f) enter(g)``;
    None for the form that opens a region (no list)."""
    toks = line.tokens[len(line.words) :]
    if not toks:
        return None
    names: list[str] = []
    depth, take = 0, False
    for k, tok in enumerate(toks):
        if tok.text == "(":
            if depth == 0:
                prev = toks[k - 1].text if k else ""
                take = k == 0 or prev in _TARGET_LIST_CLAUSES
            depth += 1
        elif tok.text == ")":
            depth -= 1
        elif depth > 0 and take and (tok.text[:1].isalpha() or tok.text[:1] == "_"):
            names.append(tok.text)
    return names


__all__ = ["InnerConstruct", "OmpContext", "OmpLine", "inner_kind", "is_scan_line"]
