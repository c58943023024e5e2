"""Region formation: one ``#pragma omp simd`` loop -> a ``Region`` of IR.

``lower_loop(parsed, pragma)`` checks the canonical loop form (loop_form),
classifies every variable the body uses, and lowers the body of ONE
iteration into ``Region.fn`` (lower_stmt / lower_expr, SSA per ssa.py).

Variables declared outside the loop and used in its body (seed 001 3.1):

    loop variable                 -> arg 0, role ``iv`` (must not be written)
    reduction(op: x)              -> arg (accumulator) + result, role ``reduction``
    reduction(inscan, op: x)      -> arg ``&x`` (role ``uniform``: the running total
                                     its scan helper updates); x is the lane's own,
                                     starting at the identity (scan.py)
    linear(x: c)                  -> arg, role ``linear``, step c (constant)
    private(x)                    -> no arg; undefined at the start of each iteration
    lastprivate(x)                -> no arg; undefined at entry; a result, and an
                                     i1 result: did the iteration assign x?
    read only, scalar             -> arg by value, role ``uniform``, c_expr ``x``
    read only, array              -> arg by address (decayed), c_expr ``a``
    struct, global or address-taken scalar -> arg by address, c_expr ``&s``
    written but in no clause      -> Unsupported (a data race between lanes)

A clause variable whose address is taken lives in a stack object of the
region instead of an SSA variable: one copy per lane (``&x`` is the lane's
copy; s2s.transform.per_lane_storage lays the copies out, sroa makes them
SSA values again when no address escapes).  A reduction's copy is set to
the accumulator at entry and read back into the result at ``ret``, a linear
one is set to the lane's value; a lastprivate one is read back at ``ret``
without an assignment flag (writes through pointers are not tracked: the
variable gets the last iteration's copy, as OpenMP says), so
``lastprivate(conditional: x)`` with ``&x`` stays scalar.

Argument order: iv, reductions, linears (clause order), then uniforms in
order of first use.  ``ret`` returns the reduction values, then the
lastprivate values.  For ``collapse(n)`` the n-1 outer loops stay scalar
C loops (``Region.outer_loops``) and their variables are uniform live-ins;
``Region.loop_text`` is then the whole original nest.

After lowering: unreachable blocks are dropped, repeated pure computations
merged (ir.value_numbering); loop-closed SSA is built by transform.canonicalize.
The module map:

    loop_form.py    canonical loop form, LoopBounds text, collapse nests
    lower_types.py  C types -> IR types, integer promotions, usual conversions
    lower_expr.py   expressions (rvalue / lvalue / cond), calls, ?: && ||
    lower_stmt.py   statements, CFG, if-conversion of trivial ifs
    ssa.py          Braun et al. SSA construction
    lower_clang.py  libclang helpers (operator kinds, constant evaluation)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import clang.cindex as ci

from ..diagnostics import Unsupported, UserError
from ..ir.atomic_calls import SCAN_OPS, SCAN_PREFIX
from ..ir.clauses import REDUCTION_OPS, ClauseSet, UserReduction, reduction_identity
from ..ir.region import ArgBinding, LoopBounds, Region, ResultBinding, ScanHelper, SourceRange
from ..ir.types import (
    I1,
    I32,
    ArrayType,
    FloatType,
    IntType,
    PtrType,
    StructType,
    Type,
    complex_part,
)
from ..ir.value_numbering import eliminate_common_subexpressions
from ..ir.values import LANE, Call, Function, Undef, Value
from .loop_form import CanonicalLoop, collapse_nest
from .lower_callee import GlobalArgs, RegionCalls, callee_table
from .lower_clang import (
    SourceText,
    binary_op,
    children,
    decl_key,
    location,
    strip_parens,
    unary_op,
    unsupported,
    walk_preorder,
)
from .lower_expr import LValue, Var
from .lower_omp import OrderedPlan, atomic_references, ordered_plan
from .lower_stmt import BodyLowerer
from .lower_types import (
    TypeMapper,
    is_array_ctype,
    is_complex_ctype,
    is_function_pointer,
    is_struct_ctype,
    pointer_c_type,
)
from .parse import ParsedFile, name_position
from .pragmas import Pragma
from .scan import ScanDirective, ScanSplit, check_phases, split_body

CK = ci.CursorKind
TK = ci.TypeKind


def lower_loop(
    parsed: ParsedFile,
    pragma: Pragma,
    plain_char_signed: bool = True,
    no_inline: str = "",
    unit_step: bool = False,
) -> Region:
    """Lower the loop a simd pragma annotates into a Region (or Unsupported).

    ``pragma``'s target is the FOR_STMT.  Plain ``char``
    is i8 unless ``plain_char_signed`` is False (AArch64: u8); when
    ``Region.plain_char`` is False the region does not depend on it.
    ``no_inline``: why no call is inlinable this time (lower_callee).
    ``unit_step``: a run-time loop step is taken to be 1 (-1 for ``>``,
    ``>=``): the loop's version for when it is (the driver tests it)."""
    if pragma.unsupported is not None:
        raise pragma.unsupported  # found with the pragma (pragmas.py)
    clauses = pragma.clauses
    src = _source_of(parsed)
    types = TypeMapper(plain_char_signed, scope=pragma.target)
    collapse = clauses.collapse
    outer, loop = collapse_nest(pragma.target, collapse, src, types)
    if unit_step and isinstance(loop.step, str):
        loop = dataclasses.replace(loop, step=1 if loop.cmp in ("<", "<=") else -1, step_refs=[])
    func = _enclosing_function(parsed, pragma.target)
    address_taken = _address_taken(func if func is not None else loop.body)
    _check_inner(pragma, loop)
    plans = _ordered_plans(pragma, func, src)
    written = {key for plan in plans.values() for key in plan.written}
    ordered = {h for plan in plans.values() for h in plan.refs}
    uses = _scan_uses(
        loop.body, loop.var_key, address_taken, _atomic_targets(pragma), ordered, written
    )
    split = None if pragma.scan is None else split_body(loop.body, pragma.scan, clauses)
    if split is not None:
        inscan = {r.var for r in clauses.reductions if r.inscan}
        keys = {k: u.decl.spelling for k, u in uses.outside.items()}
        check_phases(split, {k: name for k, name in keys.items() if name in inscan})
    name = _region_name(func, pragma)
    fn = Function(name.replace(":", "."))
    # the blocks' helpers write the iteration's own variables through their
    # addresses (and those from outside the loop bound by address, _uniform)
    local = address_taken | (written - uses.outside.keys())
    low = BodyLowerer(fn, types, local, {c.line.next: c for c in pragma.inner})
    low.atomic_default = pragma.atomic_default
    low.ordered = plans
    loc = pragma.location
    args, results, notes = _bind_variables(low, loop, outer, uses, clauses, loc, pragma.scan)
    calls = region_calls(low, parsed.tu, plain_char_signed, args, pragma.start, no_inline)
    if split is None:
        low.stmt(loop.body)
    else:
        assert pragma.scan is not None
        _lower_scan_body(low, split, pragma.scan)
    for construct in low.inner.values():  # in code that is never reached
        raise Unsupported(
            f"'#pragma omp {construct.line.name}' on a statement s2svec did not lower",
            construct.line.location,
        )
    low.jump(low.ret_block)
    _finish_region(low, loop.cursor)
    args += calls.globals.added
    start = pragma.start
    end = _statement_end(src, pragma.target)
    read_after = _read_after([*outer, loop], func, end, address_taken)
    if clauses.worksharing and (outer or "taskloop" in clauses.kept.split()):
        _check_lastprivate_nest([*outer, loop], read_after, pragma)
    return Region(
        kind="loop",
        name=name,
        tag=name_position(src.data, pragma.start),
        file=loc.file,
        line=loc.line,
        column=loc.column,
        fn=fn,
        args=args,
        results=results,
        bounds=_bounds(loop, read_after),
        clauses=clauses,
        replace=SourceRange(start, end),
        loop_text=_scalar_copy_text(src, pragma, end, clauses),
        body_text=_body_text(src, loop, pragma),
        pragma_text=src.slice(start, pragma.end),
        outer_loops=[o.header_text for o in outer],
        outer_bounds=[_bounds(o, read_after) for o in outer],
        worksharing=clauses.worksharing,
        callees=calls.callees,
        plain_char=types.saw_plain_char or calls.saw_plain_char,
        outlined=[plan.text for plan in plans.values()],
        scans=[helper for _, helper, _ in low.scan_vars],
        notes=notes,
    )


def region_calls(
    low: BodyLowerer,
    tu: ci.TranslationUnit,
    plain_char_signed: bool,
    args: list[ArgBinding],
    offset: int,
    no_inline: str = "",
) -> RegionCalls:
    """Calls of functions with a body here become inlinable (lower_callee)
    where their code can be spliced at ``offset``, the region's place."""
    calls = RegionCalls(
        callee_table(tu, plain_char_signed), GlobalArgs(low.fn, args), offset, no_inline
    )
    low.calls = calls
    return calls


def _read_after(
    nest: list[CanonicalLoop], func: ci.Cursor | None, end: int, address_taken: set[Hashable]
) -> set[str]:
    """The nest's loop variables declared outside it that the function may
    read after it: named after ``end``, their address taken, or not locals
    of the function (any code may read those)."""
    found: set[str] = set()
    later: set[str] | None = None
    for loop in nest:
        if loop.declared_in_loop:
            continue
        decl = loop.var_decl
        if func is None or not _is_automatic(decl) or loop.var_key in address_taken:
            found.add(loop.var)
            continue
        if later is None:
            later = _names_after(func, nest[0].cursor, end)
        if loop.var in later:
            found.add(loop.var)
    return found


def _names_after(func: ci.Cursor, nest: ci.Cursor, end: int) -> set[str]:
    """Identifiers the function may read after the nest: those after it in
    the text, and -- when a loop around the nest or a goto can run code
    before it again -- those before it too (but declarations' own names)."""
    start = nest.extent.start.offset
    again = any(
        c.kind in (CK.GOTO_STMT, CK.INDIRECT_GOTO_STMT)
        or (
            c.kind in (CK.FOR_STMT, CK.WHILE_STMT, CK.DO_STMT)
            and c.extent.start.offset < start
            and end <= c.extent.end.offset
        )
        for c in walk_preorder(func)
    )
    declared = {c.location.offset for c in walk_preorder(func) if c.kind == CK.VAR_DECL}
    return {
        t.spelling
        for t in func.get_tokens()
        if t.kind == ci.TokenKind.IDENTIFIER
        and (t.extent.start.offset >= end or (again and t.extent.start.offset < start))
        and t.extent.start.offset not in declared
    }


def _is_automatic(decl: ci.Cursor) -> bool:
    """A parameter or a local variable without ``static`` or ``extern``."""
    if decl.kind == CK.PARM_DECL:
        return True
    local = decl.semantic_parent is not None and decl.semantic_parent.kind == CK.FUNCTION_DECL
    storage = decl.storage_class
    return (
        decl.kind == CK.VAR_DECL
        and local
        and storage
        in (
            ci.StorageClass.NONE,
            ci.StorageClass.AUTO,
            ci.StorageClass.REGISTER,
        )
    )


def _check_lastprivate_nest(
    nest: list[CanonicalLoop], read_after: set[str], pragma: Pragma
) -> None:
    """The values of a collapsed or taskloop nest's variables declared
    outside it are carried out by ``lastprivate`` on the kept construct
    (generate.py): compilers reject that on a worksharing ``for`` for a
    variable private where the construct is met -- a local of a function
    whose construct binds to its caller's parallel region, or one declared
    inside the enclosing ``parallel`` -- so such a variable the function
    reads after the loop keeps the loop scalar."""
    clauses = pragma.clauses
    words = clauses.kept.split()
    if words[:1] in (["parallel"], ["teams"], ["target"]) or "for" not in words:
        return  # the construct's own region shares them; a taskloop's tasks may name them
    region = pragma.team_region
    for loop in nest:
        if loop.var not in read_after or not _is_automatic(loop.var_decl):
            continue
        declared = loop.var_decl.extent.start.offset
        if region is None or region[0] <= declared < region[1]:
            raise Unsupported(
                f"loop variable '{loop.var}' is read after the loop, but it is private where "
                f"'#pragma omp {clauses.directive}' is met (a local of a function whose "
                "construct binds to its caller's parallel region, or declared in the "
                "enclosing one): the vector code could not carry its value out",
                pragma.location,
            )


def _bounds(loop: CanonicalLoop, read_after: set[str] | None = None) -> LoopBounds:
    return LoopBounds(
        loop.var,
        loop.var_c_type,
        loop.declared_in_loop,
        loop.lower,
        loop.upper,
        loop.cmp,
        loop.step,
        loop.cmp_c_type,
        loop.cmp_type,
        loop.var_type,
        loop.folded_step_names,
        read_after is None or loop.var in read_after,
    )


# -- inner constructs -----------------------------------------------------------------


def _check_inner(pragma: Pragma, loop: CanonicalLoop) -> None:
    """The statements of ``atomic`` and ``ordered simd`` are in the body:
    the scalar copies of the loop (``Region.body_text``) keep their
    pragmas only then."""
    body_start = loop.body.extent.start.offset
    for construct in pragma.inner:
        if construct.line.start < body_start:
            raise Unsupported(
                f"'#pragma omp {construct.line.name}' on the whole body of the simd loop "
                "(write the body in braces)",
                construct.line.location,
            )


def _ordered_plans(
    pragma: Pragma, func: ci.Cursor | None, src: SourceText
) -> dict[int, OrderedPlan]:
    """The helper of each ``ordered simd`` block, by its pragma's offset."""
    plans: dict[int, OrderedPlan] = {}
    for construct in pragma.inner:
        if construct.kind != "ordered":
            continue
        if func is None:
            raise Unsupported(
                "'#pragma omp ordered simd' outside a function", construct.line.location
            )
        plans[construct.line.start] = ordered_plan(construct, func, src, pragma.inner)
    return plans


def _body_text(src: SourceText, loop: CanonicalLoop, pragma: Pragma) -> str:
    """The body's text for the scalar copies of the loop, without the
    ``ordered simd`` lines (outside a simd construct the pragma is not
    allowed; one iteration after another, the order holds anyway)."""
    start = loop.body.extent.start.offset
    text = src.slice(start, _statement_end(src, loop.body))
    for construct in sorted(pragma.inner, key=lambda c: -c.line.start):
        if construct.kind == "ordered":
            a, b = construct.line.start - start, construct.line.end - start
            text = text[:a] + "/* ordered simd */" + text[b:]
    return _without_scan(text, start, pragma)


def _scalar_copy_text(src: SourceText, pragma: Pragma, end: int, clauses: ClauseSet) -> str:
    """The loop's text for its ``if(simd: ...)`` scalar copy: with the scan
    line where the copy keeps a worksharing construct (whose inscan
    reduction needs it), without it where no construct is left."""
    start = pragma.target.extent.start.offset
    text = src.slice(start, end)
    return text if clauses.worksharing else _without_scan(text, start, pragma)


def _without_scan(text: str, start: int, pragma: Pragma) -> str:
    """``text`` (from offset ``start``) without the ``scan`` line: outside
    the simd construct it is not allowed, and the loop run one iteration
    after another computes the prefix anyway (s2s/frontend/scan.py)."""
    if pragma.scan is None:
        return text
    a, b = pragma.scan.line.start - start, pragma.scan.line.end - start
    return text[:a] + "/* omp scan */" + text[b:]


def _lower_scan_body(low: BodyLowerer, split: ScanSplit, scan: ScanDirective) -> None:
    """The input phase, the scan helpers, the scan phase (scan.py)."""
    for s in split.input_phase:
        low.stmt(s)
    for key, helper, ptr in low.scan_vars:
        var = low.vars[key]
        call = low.bld().call(helper.name, [ptr, low.read_var(var)], helper.type, False)
        assert isinstance(call, Call)
        call.loc = scan.line.location
        low.write_var(var, call)
    for s in split.scan_phase:
        low.stmt(s)


def _atomic_targets(pragma: Pragma) -> set[int]:
    """Hashes of the variables (DECL_REF_EXPR cursors) that atomic
    statements access atomically."""
    out: set[int] = set()
    for construct in pragma.inner:
        if construct.kind != "atomic":
            continue
        out.update(ref.hash for ref in atomic_references(construct))
    return out


# -- source helpers ---------------------------------------------------------------------


def _source_of(parsed: ParsedFile) -> SourceText:
    return SourceText.load(parsed.path, parsed.raw)


def _statement_end(src: SourceText, c: ci.Cursor) -> int:
    """End offset of a statement including its final ``;`` (clang's extent of
    ``a[i] = 0;`` stops before the semicolon)."""
    end = c.extent.end.offset
    text = src.data
    if end > 0 and text[end - 1 : end] in (b";", b"}"):
        return end
    i = end
    while i < len(text) and text[i : i + 1] in b" \t\r\n":
        i += 1
    return i + 1 if text[i : i + 1] == b";" else end


def _enclosing_function(parsed: Any, c: ci.Cursor) -> ci.Cursor | None:
    if hasattr(parsed, "enclosing_function"):
        return parsed.enclosing_function(c.extent.start.offset)  # a ParsedFile
    off = c.extent.start.offset
    name = c.extent.start.file.name if c.extent.start.file else None
    for d in c.translation_unit.cursor.get_children():
        if d.kind != CK.FUNCTION_DECL or not d.is_definition():
            continue
        ext = d.extent
        if (
            ext.start.file is not None
            and ext.start.file.name == name
            and ext.start.offset <= off < ext.end.offset
        ):
            return d
    return None


def _region_name(func: ci.Cursor | None, pragma: Any) -> str:
    line = pragma.target.location.line
    return f"{func.spelling if func is not None else 'loop'}:{line}"


# -- variable scan ------------------------------------------------------------------------


def _address_taken(scope: ci.Cursor) -> set[Hashable]:
    """Variables whose address is taken anywhere in the function: reading
    them by value could miss a write through a pointer."""
    out: set[Hashable] = set()
    for c in walk_preorder(scope):
        if c.kind == CK.UNARY_OPERATOR and unary_op(c) == "&":
            x = strip_parens(children(c)[0])
            if x.kind == CK.DECL_REF_EXPR and x.referenced is not None:
                out.add(decl_key(x.referenced))
    return out


@dataclass
class _Use:
    """An outside variable used in the loop body."""

    decl: ci.Cursor
    first: ci.Cursor
    written: ci.Cursor | None = None
    address_taken: bool = False
    serial: ci.Cursor | None = None
    """The first reference that an atomic statement accesses atomically or
    that is in an ``ordered simd`` block."""
    atomic: bool = False
    """An atomic statement accesses the variable."""
    shared_write: bool = False
    """An atomic statement or an ``ordered simd`` block writes the variable."""
    plain: ci.Cursor | None = None
    """The first other reference."""
    read: bool = False
    """A reference other than the target of a plain ``=`` reads it."""


@dataclass
class _Uses:
    outside: dict[Hashable, _Use] = field(default_factory=dict)
    iv_written: ci.Cursor | None = None


def _scan_uses(
    body: ci.Cursor,
    loop_var: Hashable | None,
    address_taken: set[Hashable],
    atomic: set[int] | None = None,
    ordered: set[int] | None = None,
    ordered_written: set[Hashable] | None = None,
) -> _Uses:
    """The variables from outside ``body`` that it uses; ``atomic``: the
    references that atomic statements access (``_atomic_targets``),
    ``ordered``: the references in ``ordered simd`` blocks,
    ``ordered_written``: the variables such blocks write."""
    atomic, ordered = atomic or set(), ordered or set()
    ordered_written = ordered_written or set()
    uses = _Uses()
    start, end = body.extent.start.offset, body.extent.end.offset
    fname = body.extent.start.file.name if body.extent.start.file else ""
    written = _written_refs(body)
    assigned = _written_refs(body, plain_only=True)
    for c in walk_preorder(body):
        if (
            c.kind != CK.DECL_REF_EXPR
            or c.referenced is None
            or c.referenced.kind not in (CK.VAR_DECL, CK.PARM_DECL)
        ):
            continue
        decl = c.referenced
        key = decl_key(decl)
        loc = decl.location
        inside = loc.file is not None and loc.file.name == fname and start <= loc.offset < end
        if inside:
            continue
        is_written = c.hash in written
        if is_function_pointer(decl.type) and not is_written:
            continue  # called by its name, lane by lane (lower_expr.visit_CALL_EXPR)
        if key == loop_var:
            if is_written and uses.iv_written is None:
                uses.iv_written = c
            continue
        use = uses.outside.setdefault(key, _Use(decl, c))
        use.address_taken = use.address_taken or key in address_taken
        if c.hash in atomic or c.hash in ordered:
            use.serial = use.serial or c
            use.atomic = use.atomic or c.hash in atomic
            use.shared_write = use.shared_write or use.atomic or key in ordered_written
            continue
        use.plain = use.plain or c
        use.read = use.read or c.hash not in assigned
        if is_written and use.written is None:
            use.written = c
    return uses


def _written_refs(body: ci.Cursor, plain_only: bool = False) -> set[int]:
    """Hashes of the DECL_REF_EXPR cursors that are assigned to (with
    ``plain_only``, by a plain ``=``: they are not read)."""
    out: set[int] = set()
    for c in walk_preorder(body):
        target = None
        if (c.kind == CK.BINARY_OPERATOR and binary_op(c) == "=") or (
            not plain_only
            and (
                c.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR
                or (
                    c.kind == CK.UNARY_OPERATOR
                    and unary_op(c) in ("post++", "post--", "pre++", "pre--")
                )
            )
        ):
            target = children(c)[0]
        if target is not None:
            target = strip_parens(target)
            if target.kind == CK.DECL_REF_EXPR:
                out.add(target.hash)
    return out


# -- bindings -------------------------------------------------------------------------------


def _bind_variables(
    low: BodyLowerer,
    loop: CanonicalLoop,
    outer: list[CanonicalLoop],
    uses: _Uses,
    clauses: ClauseSet,
    where: Any,
    scan: ScanDirective | None = None,
) -> tuple[list[ArgBinding], list[ResultBinding], list[str]]:
    """Make the region's parameters and results (module docstring table).

    The loop variables of the outer loops of a ``collapse(n)`` nest stay
    C loop variables of the scalar outer loops: inside the region they are
    uniform live-ins whatever ``private``/``lastprivate`` clause names them
    (OpenMP makes them private to the construct and lastprivate; the outer
    C loops leave them at their sequential final values).  ``linear`` may not
    name an iteration variable of a collapsed nest (gcc and clang reject it
    too)."""
    if uses.iv_written is not None:
        raise unsupported(
            f"loop variable '{loop.var}' is modified in the simd loop body", uses.iv_written
        )
    if outer:
        nest = {o.var for o in outer} | {loop.var}
        for lin in clauses.linear:
            if lin.var in nest:
                raise UserError(
                    f"loop variable '{lin.var}' of a collapse({len(outer) + 1}) "
                    "nest may not be linear (it is lastprivate)",
                    where,
                )
    binder = _Binder(low, uses)
    binder.nest_vars.update(o.var_key for o in outer)
    iv = low.fn.add_arg(loop.var_type, loop.var)
    binder.args.append(ArgBinding(iv, "iv", loop.var, loop.var_c_type, step=loop.step))
    value = iv
    if isinstance(loop.step, str):
        _check_step_reads(loop, uses, low.address_taken)
        value = binder.lanes(iv, loop.step, loop.var_c_type, loop.var_type)
    if loop.var_key in low.address_taken:  # ``&i`` in lane k: lane k's copy
        binder.per_lane_copy(loop.var_key, loop.var, loop.var_type, value)
    else:
        binder.enter_ssa(loop.var_key, loop.var, loop.var_type, value)
    binder.handled.add(loop.var_key)
    for red in clauses.reductions:
        if red.inscan:
            assert scan is not None  # pragmas.find_pragmas checked
            binder.scan(red.var, red.op, clauses, scan)
        else:
            binder.reduction(red.var, red.op, clauses)
    for lin in clauses.linear:
        binder.linear(lin.var, lin.step, lin.modifier)
    for name in clauses.private:
        binder.private(name, last=False)
    # both take the value of the last iteration that assigned the variable
    binder.conditional.update(clauses.lastprivate_conditional)
    for name in [*clauses.lastprivate, *clauses.lastprivate_conditional]:
        binder.private(name, last=True)
    header = _header_keys([*outer, loop])
    for key, use in uses.outside.items():
        if use.plain is None and not use.atomic and _has_global_storage(use.decl):
            continue  # only in ordered blocks: their helpers name it themselves
        if key not in binder.handled and key not in header and _last_assignment_kept(low, use):
            binder.last_assignment(use)
        if key not in binder.handled:
            binder.args.append(_uniform(low, key, use))
    return binder.args, binder.results(), binder.notes


def _header_keys(loops: list[CanonicalLoop]) -> set[Hashable]:
    """The variables the loops' headers read (the original evaluates its
    condition and increment each iteration)."""
    keys: set[Hashable] = set()
    for loop in loops:
        for part in children(loop.cursor)[:-1]:  # the body is the last child
            for c in walk_preorder(part):
                if c.kind == CK.DECL_REF_EXPR and c.referenced is not None:
                    keys.add(decl_key(c.referenced))
    return keys


def _last_assignment_kept(low: BodyLowerer, use: _Use) -> bool:
    """A local scalar of the enclosing function that the loop assigns with
    ``=`` and never reads, with no clause (shared): the lanes would race to
    write it, and one outcome is the sequential one -- the value of the
    last iteration that assigns it (V&V's ``n = omp_get_num_threads()``).
    A read in the loop, or a global that a callee may read, is not safe
    to delay."""
    return (
        use.written is not None
        and not use.read
        and not use.address_taken
        and use.serial is None
        and not _has_global_storage(use.decl)
        and _is_scalar(low.ir_type(use.decl))
        and not use.decl.type.get_canonical().is_volatile_qualified()
    )


class _Binder:
    """Collects the bindings of the clause variables used in the body."""

    def __init__(self, low: BodyLowerer, uses: _Uses) -> None:
        self.low = low
        self.by_name = {u.decl.spelling: (k, u) for k, u in uses.outside.items()}
        self.args: list[ArgBinding] = []
        self.handled: set[Hashable] = set()
        self.nest_vars: set[Hashable] = set()
        """Loop variables of the outer loops of a collapsed nest: uniform
        live-ins, whatever data-sharing clause names them."""
        self.conditional: set[str] = set()
        """The variables of ``lastprivate(conditional: ...)``."""
        self.notes: list[str] = []
        """The report's notes on bindings no clause asked for."""
        self.pending: list[tuple[str, Hashable, str, Type, str]] = []
        """(role, key, name, type, reduction op) of each result, in clause order."""

    def lookup(self, name: str) -> tuple[Hashable, _Use] | None:
        """The body's use of a clause variable (None: unused, or bound already)."""
        found = self.by_name.get(name)
        if found is None or found[0] in self.handled or found[0] in self.nest_vars:
            return None
        self.handled.add(found[0])
        return found

    def lanes(self, base: Any, step: str, c_type: str, ir: Type) -> Any:
        """The lanes' values of a variable with a run-time step: ``base``
        (lane 0's value, a parameter) + lane * step, the step a uniform
        parameter set before the loop (``(T)(step)``, in the variable's type:
        the C loop adds it in that type too).  Their stride is unknown, so
        accesses through them are gathers and scatters."""
        step_arg = self.low.fn.add_arg(ir, "step")
        self.args.append(ArgBinding(step_arg, "uniform", f"({c_type})({step})", c_type))
        b = self.low.b
        lane = b.cast(b.call(LANE, [], I32, pure=True, name="lane"), ir)
        return b.add(base, b.mul(lane, step_arg))

    def enter_ssa(self, key: Hashable, name: str, ir: Type, value: Any) -> None:
        self.low.declare_ssa(key, name, ir)
        self.low.ssa.write(key, self.low.entry, value)

    def reduction(self, name: str, op: str, clauses: ClauseSet) -> None:
        found = self.lookup(name)
        if found is None:
            return
        key, use = found
        whole = self.low.ir_type(use.decl)
        if _is_struct(whole):  # ``+`` too may be declared for a struct
            assert isinstance(whole, StructType)
            self.struct_reduction(key, use, whole, _user_reduction(clauses, op, use))
            return
        ir = _scalar_var(self.low, use, "reduction")
        udr = None if op in REDUCTION_OPS else _user_reduction(clauses, op, use)
        arg = self.low.fn.add_arg(ir, name)
        self.args.append(
            ArgBinding(
                arg, "reduction", name, use.decl.type.spelling, reduction_op=op, user_reduction=udr
            )
        )
        if use.address_taken:
            self.per_lane_copy(key, name, ir, arg)
        else:
            self.enter_ssa(key, name, ir, arg)
        self.pending.append(("reduction", key, name, ir, op))

    def struct_reduction(
        self, key: Hashable, use: _Use, st: StructType, udr: UserReduction
    ) -> None:
        """A struct reduced by a ``declare reduction``: each lane's copy lives
        in a stack object of the region (sroa splits it), set at the start
        of the iteration from one accumulator per scalar field and read back
        into them at its end; after the loop the code generator rebuilds each
        lane's struct from its fields and combines it (ArgBinding.aggregate)."""
        name = use.decl.spelling
        c_type = use.decl.type.spelling
        ptr = self.low.alloca(st, name)
        self.low.declare_memory(key, name, st, ptr)
        for path, ir in _scalar_fields(st, name, use, "reduction"):
            member = name + "".join(f".{f}" for f in path)
            arg = self.low.fn.add_arg(ir, member)
            self.args.append(
                ArgBinding(
                    arg,
                    "reduction",
                    member,
                    f"__typeof__({member})",
                    reduction_op=udr.name,
                    user_reduction=udr,
                    aggregate=name,
                    aggregate_c_type=c_type,
                )
            )
            self.low.bld().store(arg, _field_address(self.low, ptr, st, path))
            self.pending.append(("reduction", (key, path), member, ir, udr.name))

    def scan(self, name: str, op: str, clauses: ClauseSet, scan: ScanDirective) -> None:
        """An inscan reduction (scan.py): x's address for the helper, and
        x private to the lane, starting at the identity."""
        found = self.lookup(name)
        if found is None:
            return
        key, use = found
        ir = _scalar_var(self.low, use, "scan")
        canon = use.decl.type.get_canonical()
        if (
            canon.kind not in _SCAN_KINDS
            or canon.is_volatile_qualified()
            or not (isinstance(ir, FloatType) or (isinstance(ir, IntType) and ir.bits >= 8))
        ):
            raise Unsupported(
                f"scan variable '{name}' of type '{use.decl.type.spelling}' is not supported "
                "(only integer types but plain 'char', and floating types are)",
                location(use.first),
            )
        udr = None if op in REDUCTION_OPS else _user_reduction(clauses, op, use)
        where = scan.line.location
        kind = "incl" if scan.inclusive else "excl"
        helper = ScanHelper(
            f"{SCAN_PREFIX}{kind}_{SCAN_OPS.get(op, 'udr')}_{where.line}_{where.column}_{name}",
            name,
            ir,
            op,
            scan.inclusive,
            udr,
        )
        ptr = self.low.fn.add_arg(PtrType(ir), f"{name}.total")
        self.args.append(ArgBinding(ptr, "uniform", f"&{name}", f"{use.decl.type.spelling} *"))
        if udr is None:
            start: Value = self.low.const(ir, reduction_identity(op, ir))
        else:
            start = self.low.fn.add_arg(ir, f"{name}.identity")
            self.args.append(
                ArgBinding(start, "uniform", f"{helper.name}_init(&{name})", use.decl.type.spelling)
            )
        self.enter_ssa(key, name, ir, start)
        self.low.scan_vars.append((key, helper, ptr))

    def linear(self, name: str, step: Any, modifier: str) -> None:
        found = self.lookup(name)
        if found is None:
            return
        key, use = found
        if modifier:
            raise Unsupported(
                f"linear({modifier}(...)) modifier is not supported", location(use.first)
            )
        ir = _scalar_var(self.low, use, "linear")
        arg = self.low.fn.add_arg(ir, name)
        # C updates of unsigned and narrow variables wrap legally (signed int
        # and wider would overflow: undefined); pointers do not wrap
        arg.may_wrap = isinstance(ir, IntType) and (
            (not ir.signed and ir.bits < 64) or (ir.signed and ir.bits < 32)
        )
        self.args.append(ArgBinding(arg, "linear", name, use.decl.type.spelling, step=step))
        value = arg
        if isinstance(step, str):
            for word in re.findall(r"[A-Za-z_]\w*", step):
                written = self.by_name.get(word)
                if written is not None and written[1].written is not None:
                    raise Unsupported(
                        f"the run-time linear step '{step}' of '{name}' reads '{word}', "
                        "which the loop writes",
                        location(written[1].written),
                    )
            if not isinstance(ir, IntType):
                raise Unsupported(
                    f"linear variable '{name}' with the run-time step '{step}' is not an "
                    "integer (only integer variables take run-time steps)",
                    location(use.first),
                )
            value = self.lanes(arg, step, use.decl.type.spelling, ir)
        if use.address_taken:
            self.per_lane_copy(key, name, ir, value)
        else:
            self.enter_ssa(key, name, ir, value)

    def last_assignment(self, use: _Use) -> None:
        """A shared variable only assigned (``_last_assignment_kept``): as
        ``lastprivate(conditional:)``, with the report's note."""
        name = use.decl.spelling
        self.conditional.add(name)
        self.private(name, last=True)
        where = location(use.written) if use.written is not None else location(use.first)
        self.notes.append(
            f"{where}: note: '{name}' is assigned and not read in the loop and has no "
            "clause: it gets the value of the last iteration that assigns it, as "
            "'lastprivate(conditional:)' would give"
        )

    def private(self, name: str, last: bool) -> None:
        """private: undefined at the start of each iteration; lastprivate too,
        plus a result (the value of the sequentially last iteration)."""
        found = self.lookup(name)
        if found is None:
            return
        key, use = found
        ir = self.low.ir_type(use.decl)
        if last and _is_struct(ir) and name not in self.conditional:
            assert isinstance(ir, StructType)
            self.lastprivate_struct(key, use, ir)
            return
        if last and not _is_scalar(ir):
            raise Unsupported(
                f"lastprivate {_aggregate_kind(ir)} '{name}' is not supported",
                location(use.first),
            )
        if last and use.address_taken and name in self.conditional:
            raise Unsupported(
                f"lastprivate(conditional: {name}) whose address is taken (its assignments "
                "through pointers cannot be tracked)",
                location(use.first),
            )
        if not _is_scalar(ir) or use.address_taken:
            # one copy per lane, undefined at the start of the iteration;
            # a lastprivate one is read back at its end.  Assignments
            # through pointers are not tracked: the variable gets the value
            # of the sequentially last iteration's copy (OpenMP's rule),
            # not that of the last iteration that assigned it
            self.per_lane_copy(key, name, ir, None)
        else:
            self.enter_ssa(key, name, ir, Undef(ir))
            if last:
                self.low.track_assignments(key, name)
        if last:
            self.pending.append(("lastprivate", key, name, ir, ""))

    def lastprivate_struct(self, key: Hashable, use: _Use, st: StructType) -> None:
        """A lastprivate struct: one copy per lane (sroa splits it), whose
        scalar fields in the sequentially last iteration are the results,
        one per field, written back member by member."""
        name = use.decl.spelling
        fields = _scalar_fields(st, name, use, "lastprivate")
        self.per_lane_copy(key, name, st, None)
        for path, ir in fields:
            member = name + "".join(f".{f}" for f in path)
            self.pending.append(("lastprivate", (key, path), member, ir, ""))

    def per_lane_copy(self, key: Hashable, name: str, ir: Type, start: Any) -> None:
        """A clause variable whose address is taken (or an aggregate) lives
        in a stack object of the region, one copy per lane (an alloca: see
        s2s.transform.per_lane_storage; sroa makes it an SSA value again
        where no address escapes), set to ``start`` at the start of each
        iteration (None: left undefined); ``&x`` is the lane's copy, and a
        result (reduction, lastprivate) is read back from it at the end of
        the iteration (``_finish_region``)."""
        ptr = self.low.alloca(ir, name)
        self.low.declare_memory(key, name, ir, ptr)
        if start is not None:
            self.low.bld().store(start, ptr)

    def results(self) -> list[ResultBinding]:
        """Reductions first, then lastprivates; sets the function's result types."""
        self.pending.sort(key=lambda p: 0 if p[0] == "reduction" else 1)
        out = []
        for i, (role, _, name, ir, op) in enumerate(self.pending):
            acc = next(
                (b.arg for b in self.args if b.role == "reduction" and b.c_expr == name), None
            )
            out.append(ResultBinding(i, role, name, ir, reduction_op=op, arg=acc))
            self.low.fn.ret_types.append(ir)
        self.low.result_keys = [p[1] for p in self.pending]
        # then whether each tracked lastprivate was assigned (ResultBinding.assigned_index)
        for result, (_, key, *_rest) in zip(out, self.pending):
            flag = self.low.assigned_flags.get(key)
            if flag is not None:
                result.assigned_index = len(self.low.result_keys)
                self.low.result_keys.append(flag)
                self.low.fn.ret_types.append(I1)
        return out


_SCAN_KINDS = (
    TK.SCHAR,
    TK.UCHAR,
    TK.SHORT,
    TK.USHORT,
    TK.INT,
    TK.UINT,
    TK.LONG,
    TK.ULONG,
    TK.LONGLONG,
    TK.ULONGLONG,
    TK.FLOAT,
    TK.DOUBLE,
)
"""The types of scan variables: their helpers' pointers are the IR's C
types (``int32_t *``), the same types.  Not plain ``char``: its helper,
made once for every target, would have one signedness for all."""


def _is_scalar(ir: Type) -> bool:
    return not isinstance(ir, (ArrayType, StructType))


def _aggregate_kind(ir: Type) -> str:
    return "complex variable" if complex_part(ir) is not None else "array or struct"


def _user_reduction(clauses: ClauseSet, op: str, use: _Use) -> UserReduction:
    """The ``declare reduction`` of ``op`` for the variable's type (as
    declared, or its canonical spelling); the last one before the loop.
    Without one, the loop stays scalar: the warning is at the pragma."""
    spellings = {" ".join(t.split()) for t in (use.decl.type.spelling, _canonical(use))}
    spellings |= {s.removeprefix("const ") for s in spellings}
    for udr in reversed(clauses.user_reductions):
        if udr.name == op and any(" ".join(t.split()) in spellings for t in udr.types):
            return udr
    raise Unsupported(
        f"no '#pragma omp declare reduction({op} : ...)' for the type "
        f"'{use.decl.type.spelling}' of '{use.decl.spelling}' before the loop",
        clauses.location,
    )


def _canonical(use: _Use) -> str:
    return use.decl.type.get_canonical().spelling


def _is_struct(ir: Type) -> bool:
    return isinstance(ir, StructType) and complex_part(ir) is None


_FIELD_ROLES = {
    "reduction": "of a struct reduced by a 'declare reduction'",
    "lastprivate": "of a lastprivate struct",
}


def _scalar_fields(
    st: StructType, name: str, use: _Use, role: str, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], Type]]:
    """The scalar fields of a struct ``role`` variable (a result carried out
    field by field), nested structs' ones included, as member paths; an
    array or complex member keeps the loop scalar."""
    out: list[tuple[tuple[str, ...], Type]] = []
    for f in st.fields:
        if _is_struct(f.type):
            assert isinstance(f.type, StructType)
            out += _scalar_fields(f.type, name, use, role, (*path, f.name))
        elif _is_scalar(f.type) and complex_part(f.type) is None and f.name:
            out.append(((*path, f.name), f.type))
        else:
            member = ".".join((*path, f.name or "(anonymous)"))
            raise Unsupported(
                f"{role} variable '{name}': member '{member}' {_FIELD_ROLES[role]} "
                "must be a scalar or a struct",
                location(use.first),
            )
    if not out:
        raise Unsupported(f"{role} variable '{name}': a struct without fields", location(use.first))
    return out


def _field_address(low: BodyLowerer, ptr: Any, st: StructType, path: tuple[str, ...]) -> Any:
    b = low.bld()
    for name in path:
        f = st.field_named(name)
        ptr = b.field_addr(ptr, name, PtrType(f.type), name)
        if isinstance(f.type, StructType):
            st = f.type
    return ptr


def _scalar_var(low: BodyLowerer, use: _Use, role: str) -> Type:
    ir = low.ir_type(use.decl)
    name = use.decl.spelling
    if not _is_scalar(ir):
        if complex_part(ir) is not None:
            raise Unsupported(
                f"{role} variable '{name}' of type '{use.decl.type.spelling}' is not supported",
                location(use.first),
            )
        raise Unsupported(f"{role} variable '{name}' must be a scalar", location(use.first))
    return ir


def _check_step_reads(loop: CanonicalLoop, uses: _Uses, address_taken: set[Hashable]) -> None:
    """A run-time loop step is evaluated again wherever the vector code
    needs it.  OpenMP makes the program keep it invariant through the loop
    (also a global's, also a volatile one's: gcc reads it once), so every
    evaluation gives the same value; a step variable the body writes, or
    whose address the function takes, is refused all the same -- that
    program breaks the rule, and the scalar loop does what it says."""
    for ref in loop.step_refs:
        decl = ref.referenced
        if decl is None:
            raise Unsupported(
                f"the run-time loop step '{loop.step}' reads a name the parser did not resolve",
                location(ref),
            )
        if decl.kind == CK.ENUM_CONSTANT_DECL:
            continue
        key = decl_key(decl)
        use = uses.outside.get(key)
        if key in address_taken or (use is not None and use.written is not None):
            raise Unsupported(
                f"the run-time loop step '{loop.step}' reads '{decl.spelling}', which the "
                "loop may change (its address is taken, or the loop writes it)",
                location(ref),
            )


def _uniform(low: BodyLowerer, key: Hashable, use: _Use) -> ArgBinding:
    decl, name = use.decl, use.decl.spelling
    if use.shared_write and use.plain is not None:
        assert use.serial is not None
        raise Unsupported(
            f"'{name}' is written by '#pragma omp atomic' or in a '#pragma omp ordered simd' "
            f"block at line {location(use.serial).line} and also accessed outside them in the "
            "simd loop",
            location(use.plain),
        )
    if use.written is not None:
        raise Unsupported(
            f"assignment to shared variable '{name}' in simd loop needs a "
            "private, lastprivate, linear or reduction clause",
            location(use.written),
        )
    ctype = decl.type
    canon = ctype.get_canonical()
    if canon.is_volatile_qualified() or ctype.is_volatile_qualified():
        raise Unsupported(f"volatile variable '{name}' in simd loop", location(use.first))
    fn = low.fn
    if is_array_ctype(ctype) and decl.kind == CK.PARM_DECL:
        # ``double a[]``, ``double m[][N]``, ``double a[n]``: really pointers.
        elem = canon.element_type
        if elem.get_canonical().kind == TK.VARIABLEARRAY:
            raise Unsupported(
                f"variable-length array parameter '{name}' in simd loop", location(use.first)
            )
        ir = PtrType(low.types.map(elem, location(use.first)))
        arg = fn.add_arg(ir, name)
        low.declare_ssa(key, name, ir)
        low.ssa.write(key, low.entry, arg)
        return ArgBinding(arg, "uniform", name, pointer_c_type(ctype))
    if is_array_ctype(ctype):
        if canon.kind == TK.VARIABLEARRAY:
            raise Unsupported(f"variable-length array '{name}' in simd loop", location(use.first))
        ir = low.types.map(ctype, location(use.first))
        if isinstance(ir, PtrType):
            elem_ptr = ir
        else:
            assert isinstance(ir, ArrayType)
            elem_ptr = PtrType(ir.elem)
        arg = fn.add_arg(elem_ptr, name)
        low.declare_memory(key, name, ir if isinstance(ir, ArrayType) else elem_ptr.pointee, arg)
        if not isinstance(ir, ArrayType):  # incomplete array: the object is unknown
            low.vars[key].ir = ArrayType(elem_ptr.pointee, 0)
        return ArgBinding(arg, "uniform", name, pointer_c_type(ctype))
    ir = low.types.map(ctype, location(use.first))
    # a complex value is read through its address too: its two parts
    by_address = (
        is_struct_ctype(ctype)
        or is_complex_ctype(ctype)
        or use.address_taken
        or use.shared_write
        or _has_global_storage(decl)
    )
    if by_address:
        arg = fn.add_arg(PtrType(ir), name)
        low.declare_memory(key, name, ir, arg)
        return ArgBinding(arg, "uniform", f"&{name}", f"{ctype.spelling} *")
    arg = fn.add_arg(ir, name)
    low.declare_ssa(key, name, ir)
    low.ssa.write(key, low.entry, arg)
    return ArgBinding(arg, "uniform", name, ctype.spelling)


def _has_global_storage(decl: ci.Cursor) -> bool:
    """Globals and statics may change behind calls: read them through memory."""
    if decl.kind != CK.VAR_DECL:
        return False
    parent = decl.semantic_parent
    if parent is not None and parent.kind == CK.TRANSLATION_UNIT:
        return True
    return decl.storage_class in (ci.StorageClass.STATIC, ci.StorageClass.EXTERN)


# -- finishing ------------------------------------------------------------------------------


def _finish_region(
    low: BodyLowerer, at: ci.Cursor, never: str = "the simd loop body never completes an iteration"
) -> None:
    """Seal the return block, emit ``ret``, then clean up: unreachable code,
    repeated pure computations (loop-closed SSA is transform.canonicalize's)."""
    ret = low.ret_block
    low.ssa.seal(ret)
    if not low.ssa.preds.get(ret):
        raise unsupported(never, at)
    low.set_block(ret)
    values = []
    for key in low.result_keys:
        if isinstance(key, tuple) and len(key) == 2 and key[0] in low.vars:  # a struct's field
            var = low.vars[key[0]]
            assert isinstance(var.ir, StructType) and var.ptr is not None
            values.append(low.bld().load(_field_address(low, var.ptr, var.ir, key[1])))
        elif key in low.vars:
            var = low.vars[key]
            values.append(low.load(_lv(var), None) if var.in_memory else low.read_var(var))
        else:
            values.append(low.ssa.read(key, low.cur()))  # an assignment flag
    low.bld().ret(values)
    _remove_unreachable(low)
    eliminate_common_subexpressions(low.fn)  # the lowering repeats itself


def _lv(var: Var) -> LValue:
    return LValue(var.ir, ptr=var.ptr)


def _remove_unreachable(low: BodyLowerer) -> None:
    fn = low.fn
    reachable = set()
    work = [fn.entry]
    while work:
        b = work.pop()
        if b in reachable:
            continue
        reachable.add(b)
        work.extend(b.successors)
    dead = [b for b in fn.blocks if b not in reachable]
    for b in dead:
        for s in b.successors:
            for phi in s.phis:
                if b in phi.incoming_blocks:
                    phi.remove_incoming(b)
    for b in dead:
        for inst in b.instructions:
            inst.drop_operands()
    for b in dead:
        fn.remove_block(b)
    # Phis that lost an incoming edge may have become trivial.
    changed = True
    while changed:
        changed = False
        for b in fn.blocks:
            for phi in list(b.phis):
                if phi.block is not None and low.ssa.try_remove_trivial(phi) is not phi:
                    changed = True


__all__ = ["lower_loop"]
