"""``#pragma omp scan``: the prefix reductions of a simd loop (OpenMP 5.2
Section 5.6, and the ``inscan`` modifier of Section 5.5.8).

A loop whose directive has ``reduction(inscan, op: x)`` holds one ``scan``
directive directly in its body; it splits each iteration into an *input
phase*, which computes the iteration's contribution to x, and a *scan
phase*, which reads x's prefix::

    inclusive(x)                        exclusive(x)
    for (...) {                         for (...) {
        x += a[i];    input phase           b[i] = x;     scan phase
        #pragma omp scan inclusive(x)       #pragma omp scan exclusive(x)
        b[i] = x;     scan phase            x += a[i];    input phase
    }                                   }

In the input phase x is the iteration's private copy, starting at the
operator's identity (a ``declare reduction``'s initializer); in the scan
phase it holds x's original value combined with the contributions of the
iterations before this one, and of this one too for ``inclusive``; after
the loop x holds the whole reduction.  OpenMP forbids other dependences
between the two phases, so s2svec lowers the input phase first (for
``exclusive`` the statements after the directive), then one call per
variable of a helper the code generator defines
(s2s/ir/region.py ``ScanHelper``, s2s/codegen/generate.py)::

    x' = identity                          x: SSA value of the lane
    <input phase>                          vectorized
    x' = s2s_ordered_scan_L_C_x(&x, x')    lane by lane in iteration order,
                                           under the mask: x += x' (the
                                           running total), x' = the prefix
    <scan phase>                           vectorized

The helper is an ordered construct: each active lane's call in lane
order, so masked tails chain the total through the vectors; lane refill
and interleaving (which reorder iterations or vectors) are off for such
loops.  Where the target can, the code generator makes the call an
in-register prefix instead (s2s/codegen/emit_vector_ir.py,
``scan_prefix``: log2(lanes) shift-and-combine steps, the total added);
else it runs lane by lane, in iteration order.

Errors (``UserError``, as the compilers): a ``scan`` directive outside a
loop with inscan reductions, malformed, naming a variable that is not
inscan, not directly in the loop body, twice in a loop.  Left scalar
(``Unsupported``): an inscan loop without a ``scan`` line (it may be a
``_Pragma`` operator, which s2svec does not read), worksharing and combined
constructs but ``for`` and ``parallel for`` (the scan spans threads), a
variable that is not an integer or floating scalar, whose address the body
takes, written in the scan phase or read in the input phase other than in
an update of itself; jumps out of a phase; for ``exclusive``, a variable
declared before the directive and used after it.

With ``collapse(n)`` the directive is in the innermost loop's body; the
outer loops stay scalar C loops around the vector loop (lower.py) and the
running total passes through x from one inner loop to the next, so the
prefix follows the collapsed iteration order.  On ``for`` / ``parallel
for`` one thread runs all outer iterations (a chunk of all of them; the
outer loops' bounds must not depend on each other: codegen ``outer_trips``).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import clang.cindex as ci

from ..diagnostics import Unsupported, UserError
from ..ir.clauses import ClauseSet
from .lower_clang import (
    binary_op,
    children,
    construct_name,
    decl_key,
    location,
    strip_parens,
    unary_op,
    walk_preorder,
)
from .omp_context import OmpLine, is_scan_line

CK = ci.CursorKind


@dataclass
class ScanDirective:
    """The ``#pragma omp scan`` of a loop."""

    line: OmpLine
    inclusive: bool
    names: list[str]


is_scan = is_scan_line


def parse_scan(line: OmpLine) -> ScanDirective:
    """``scan inclusive(list)`` or ``scan exclusive(list)`` (UserError otherwise)."""
    toks = [t.text for t in line.tokens[1:]]
    where = line.location
    if len(toks) < 4 or toks[0] not in ("inclusive", "exclusive") or toks[1] != "(":
        raise UserError(
            "'#pragma omp scan' takes exactly one 'inclusive(list)' or 'exclusive(list)' clause",
            where,
        )
    if toks[-1] != ")" or ")" in toks[2:-1] or "(" in toks[2:]:
        raise UserError(f"malformed '{toks[0]}' clause on '#pragma omp scan'", where)
    names = toks[2:-1]
    if names[1::2] != [","] * (len(names) // 2) or len(names) % 2 == 0:
        raise UserError(f"malformed '{toks[0]}' clause on '#pragma omp scan'", where)
    out = names[0::2]
    if not all(n[:1].isalpha() or n[:1] == "_" for n in out):
        raise UserError(f"'{toks[0]}' on '#pragma omp scan' takes a list of variables", where)
    if len(set(out)) != len(out):
        raise UserError(f"a variable appears twice in '{toks[0]}' on '#pragma omp scan'", where)
    return ScanDirective(line, toks[0] == "inclusive", out)


def check_scans(
    scans: list[OmpLine],
    owners: list[tuple[int, int, OmpLine, ci.Cursor]],
) -> dict[int, ScanDirective]:
    """The scan directive of each loop directive with inscan reductions, by
    the directive's offset.  ``owners``: the extent of the loop each
    directive that names ``inscan`` annotates (and the loop); UserError for
    a scan outside them, malformed, misplaced, or one too many.
    Directives s2svec does not handle (``clauses`` None) are not checked
    (the compiler does).  An inscan loop without a scan line has none in
    the result: its scan may be a ``_Pragma`` operator, which s2svec does
    not read (``missing_scan``)."""
    found: dict[int, ScanDirective] = {}
    for line in scans:
        around = [o for o in owners if o[0] <= line.start < o[1]]
        if not around:
            raise UserError(
                "'#pragma omp scan' outside a loop whose directive has a "
                "'reduction(inscan, ...)' clause",
                line.location,
            )
        _, _, owner, loop = max(around, key=lambda o: o[0])  # the innermost
        if owner.clauses is None:
            continue
        scan = parse_scan(line)
        innermost = _innermost(loop, owner.clauses.collapse)
        if innermost is not None:
            _check_placement(line, innermost)
        if owner.start in found:
            raise UserError(
                "a second '#pragma omp scan' in the loop (one separates its phases)",
                line.location,
            )
        inscan = [r.var for r in owner.clauses.reductions if r.inscan]
        for name in scan.names:
            if name not in inscan:
                raise UserError(
                    f"'{name}' of '#pragma omp scan' is not in a 'reduction(inscan, ...)' "
                    "clause of the loop",
                    line.location,
                )
        for name in inscan:
            if name not in scan.names:
                raise UserError(
                    f"'reduction(inscan, ...: {name})' but '{name}' is not in the loop's "
                    "'#pragma omp scan'",
                    line.location,
                )
        found[owner.start] = scan
    return found


def missing_scan(clauses: ClauseSet) -> Unsupported:
    """Why an inscan loop without a ``#pragma omp scan`` line stays scalar
    (without any scan it is an error the compiler reports)."""
    return Unsupported(
        "'reduction(inscan, ...)' but no '#pragma omp scan' line in the loop body "
        "(s2svec does not read a scan written as a _Pragma operator)",
        clauses.location,
    )


def _innermost(loop: ci.Cursor, collapse: int) -> ci.Cursor | None:
    """The innermost loop of a ``collapse`` nest, whose body holds the scan
    directive; None for a nest that is not perfect (it stays scalar:
    loop_form.py)."""
    for _ in range(collapse - 1):
        body = children(loop)[-1] if children(loop) else None
        while body is not None and body.kind == CK.COMPOUND_STMT and len(children(body)) == 1:
            body = children(body)[0]
        if body is None or body.kind != CK.FOR_STMT:
            return None
        loop = body
    return loop


def _check_placement(line: OmpLine, loop: ci.Cursor) -> None:
    """The directive is a statement of the loop's body (OpenMP: it separates
    the body's structured block sequence in two)."""
    body = children(loop)[-1] if children(loop) else None
    inside = body is not None and (
        body.kind == CK.COMPOUND_STMT
        and body.extent.start.offset < line.start < body.extent.end.offset
        and not any(
            s.extent.start.offset < line.start < s.extent.end.offset for s in children(body)
        )
    )
    if not inside:
        raise UserError("'#pragma omp scan' must be directly in the loop body", line.location)


# -- lowering -------------------------------------------------------------------------------


ONE_THREAD_SCANS = ("for", "parallel for")
"""The worksharing constructs whose scans the vector code runs on one thread
of the team, in iteration order (a schedule OpenMP leaves to the
implementation when none is given): the code generator gives the block loop
``schedule(static, all blocks)`` and leaves the scan variable shared."""


@dataclass
class ScanSplit:
    """A loop body cut at its scan directive."""

    input_phase: list[ci.Cursor]
    scan_phase: list[ci.Cursor]


def split_body(body: ci.Cursor, scan: ScanDirective, clauses: ClauseSet) -> ScanSplit:
    """The body's statements before and after the directive as input and
    scan phase (module docstring), or why the loop stays scalar."""
    where = scan.line.location
    clause = next(
        (v.location for v in clauses.variables if v.clause == "reduction"), clauses.location
    )
    if clauses.kept and clauses.kept not in ONE_THREAD_SCANS:
        raise Unsupported(
            f"'reduction(inscan, ...)' on '#pragma omp {clauses.directive}': the scan "
            "across threads is not implemented (only 'simd', 'for simd' and "
            "'parallel for simd' scans are)",
            clause,
        )
    taken = {name for name, _ in clauses.other_clauses} & {"schedule", "ordered", "order"}
    if clauses.kept and taken:
        raise Unsupported(
            f"'reduction(inscan, ...)' with '{sorted(taken)[0]}' on '#pragma omp "
            f"{clauses.directive}': s2svec runs such a scan on one thread of the team",
            clause,
        )
    if body.kind != CK.COMPOUND_STMT:  # pragmas.find_pragmas checked
        raise Unsupported("'#pragma omp scan' is not in the loop body s2svec lowers", where)
    stmts = children(body)
    before = [s for s in stmts if s.extent.end.offset <= scan.line.start]
    after = [s for s in stmts if s.extent.start.offset >= scan.line.end]
    for part in (before, after):
        for s in part:
            _check_jumps(s)
    if scan.inclusive:
        split = ScanSplit(before, after)
    else:
        split = ScanSplit(after, before)
        declared = {decl_key(c) for s in before for c in walk_preorder(s) if c.kind == CK.VAR_DECL}
        for s in after:
            for c in walk_preorder(s):
                ref = c.referenced if c.kind == CK.DECL_REF_EXPR else None
                if ref is not None and decl_key(ref) in declared:
                    raise Unsupported(
                        f"'{c.spelling}', declared before the '#pragma omp scan "
                        "exclusive', is used after it (the input phase after the "
                        "directive runs first)",
                        location(c),
                    )
    return split


def check_phases(split: ScanSplit, keys: dict[Hashable, str]) -> None:
    """Each scan variable (``keys``: declaration key -> name) is written in
    the input phase only, and read there only in updates of itself (then
    each iteration's contribution does not depend on where the total
    starts, and the scalar remainder, which runs the body as written,
    agrees with the vector code); its address is not taken."""
    for phase, is_input in ((split.input_phase, True), (split.scan_phase, False)):
        for s in phase:
            _check_refs(s, keys, is_input, None)


def _check_refs(
    c: ci.Cursor, keys: dict[Hashable, str], is_input: bool, updating: Hashable | None
) -> None:
    kids = children(c)
    target = _assigned(c)
    if target is not None and target in keys:
        name = keys[target]
        if not is_input:
            raise Unsupported(
                f"'{name}' is written in the scan phase of its '#pragma omp scan' "
                "(only its input phase may update it)",
                location(c),
            )
        for k in kids[1:]:
            _check_refs(k, keys, is_input, target)
        return
    if c.kind == CK.UNARY_OPERATOR and unary_op(c) == "&" and kids:
        x = strip_parens(kids[0])
        if x.kind == CK.DECL_REF_EXPR and x.referenced is not None:
            key = decl_key(x.referenced)
            if key in keys:
                raise Unsupported(
                    f"the address of the scan variable '{keys[key]}' is taken in the loop",
                    location(c),
                )
    if c.kind == CK.DECL_REF_EXPR and c.referenced is not None:
        key = decl_key(c.referenced)
        if key in keys and is_input and key != updating:
            raise Unsupported(
                f"'{keys[key]}' is read in the input phase of its '#pragma omp scan' "
                "other than in an update of itself",
                location(c),
            )
    for k in kids:
        _check_refs(k, keys, is_input, updating)


def _assigned(c: ci.Cursor) -> Hashable | None:
    """The variable an assignment, compound assignment, ++ or -- writes."""
    if not (
        (c.kind == CK.BINARY_OPERATOR and binary_op(c) == "=")
        or c.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR
        or (c.kind == CK.UNARY_OPERATOR and unary_op(c) in ("post++", "post--", "pre++", "pre--"))
    ):
        return None
    kids = children(c)
    if not kids:
        return None
    x = strip_parens(kids[0])
    if x.kind != CK.DECL_REF_EXPR or x.referenced is None:
        return None
    return decl_key(x.referenced)


def _check_jumps(stmt: ci.Cursor) -> None:
    """No ``break``, ``continue``, ``return``, ``goto`` that leaves a phase."""
    loops = (CK.FOR_STMT, CK.WHILE_STMT, CK.DO_STMT)

    def walk(c: ci.Cursor, loop: bool, switch: bool) -> None:
        if c.kind in (CK.RETURN_STMT, CK.GOTO_STMT, CK.INDIRECT_GOTO_STMT, CK.LABEL_STMT):
            raise Unsupported(f"{construct_name(c)} in a loop with '#pragma omp scan'", location(c))
        if (c.kind == CK.BREAK_STMT and not (loop or switch)) or (
            c.kind == CK.CONTINUE_STMT and not loop
        ):
            raise Unsupported(
                f"{construct_name(c)} leaves a phase of the '#pragma omp scan'", location(c)
            )
        for k in children(c):
            walk(k, loop or c.kind in loops, switch or c.kind == CK.SWITCH_STMT)

    walk(stmt, False, False)


__all__ = [
    "ScanDirective",
    "ScanSplit",
    "check_phases",
    "check_scans",
    "is_scan",
    "missing_scan",
    "parse_scan",
    "split_body",
]
