"""Recognition of the OpenMP canonical loop form of an annotated ``for``.

    for (init; var CMP ub; incr) body
      init:  var = lb    |  T var = lb                (T an integer type)
      CMP:   <  <=  >  >=  !=      (var on either side; ``ub CMP var`` is flipped)
      incr:  var++  ++var  var--  --var  var += c  var -= c
             var = var + c  var = c + var  var = var - c
             (c an integer constant expression: literal, macro, sizeof, ...,
             or a run-time step: an expression of a signed integer type
             without side effects -- variables, constants, arithmetic,
             casts -- kept as text, ``-(s)`` for ``var -= s``; the body must
             not write its variables, lower.py checks)

The bounds are kept as C text from the source (macros unexpanded) because
the code generator re-emits them verbatim.  ``<``/``<=`` need a positive
step, ``>``/``>=`` a negative one, ``!=`` a step of +1 or -1 (OpenMP 5.x:
such a loop is treated as ``<`` or ``>``); the sign of a run-time step is
tested at run time (the vector code runs only when it is the one OpenMP
asks for, the loop as written otherwise), and ``!=`` takes none.  The comparison's type (the
variable and the bound after C's usual arithmetic conversions: ``int`` for
an ``unsigned char`` variable and an ``int`` bound) is kept too, because
the bound need not fit in the variable's type; it must be an integer type.
Pointer induction variables and everything else are Unsupported.

``for_parts`` also serves inner loops: libclang omits absent parts of a
``for`` header from the children, so they are told apart by position
relative to the header's two top-level semicolons.
"""

from __future__ import annotations

from dataclasses import dataclass

import clang.cindex as ci

from ..ir.types import Type
from .lower_clang import (
    SourceText,
    binary_op,
    children,
    decl_key,
    evaluate,
    strip_implicit,
    strip_parens,
    unary_op,
    unsupported,
    var_initializer,
    walk_preorder,
)
from .lower_types import TypeMapper

CK = ci.CursorKind
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}


@dataclass
class ForParts:
    init: ci.Cursor | None
    cond: ci.Cursor | None
    inc: ci.Cursor | None
    body: ci.Cursor
    header_end: int
    """Byte offset just after the closing parenthesis of the header."""


def for_parts(c: ci.Cursor) -> ForParts:
    """Split a FOR_STMT into its (possibly absent) init, cond, incr and body."""
    kids = children(c)
    semis: list[int] = []
    rparen = -1
    depth = 0
    for tok in c.get_tokens():
        s = tok.spelling
        if s in ("(", "[", "{"):
            depth += 1
        elif s in (")", "]", "}"):
            depth -= 1
            if depth == 0 and s == ")":
                rparen = tok.extent.end.offset
                break
        elif s == ";" and depth == 1:
            semis.append(tok.extent.start.offset)
    if len(semis) != 2 or rparen < 0 or not kids:
        if len(kids) == 4:
            return ForParts(kids[0], kids[1], kids[2], kids[3], kids[3].extent.start.offset)
        raise unsupported("cannot read the header of this 'for' loop", c)
    parts: list[ci.Cursor | None] = [None, None, None]
    body = kids[-1]
    for k in kids[:-1]:
        off = k.extent.start.offset
        slot = 0 if off < semis[0] else 1 if off < semis[1] else 2
        parts[slot] = k
    return ForParts(parts[0], parts[1], parts[2], body, rparen)


@dataclass
class CanonicalLoop:
    """A loop in canonical form, its bounds as source text."""

    cursor: ci.Cursor
    var_decl: ci.Cursor
    var: str
    var_c_type: str
    var_type: Type
    declared_in_loop: bool
    lower: str
    upper: str
    cmp: str
    step: int | str
    """The increment: a constant, or the C text of a run-time step."""
    step_refs: list[ci.Cursor]
    """The variables a run-time step reads (the body must not write them)."""
    body: ci.Cursor
    header_text: str
    """``for (init; cond; incr)`` as written."""
    cmp_c_type: str
    """The type ``var CMP bound`` is evaluated in (canonical spelling)."""
    cmp_type: Type
    folded_step_names: tuple[str, ...] = ()
    """The variables a constant step was folded from (``const int s = 2;
    ... i += s``): the vector code reads none of them."""

    @property
    def var_key(self) -> tuple[str, int, str]:
        return decl_key(self.var_decl)


def analyze_loop(c: ci.Cursor, src: SourceText, types: TypeMapper) -> CanonicalLoop:
    """Check that a FOR_STMT has the canonical form; Unsupported if not."""
    if c.kind != CK.FOR_STMT:
        raise unsupported("'omp simd' must be followed by a 'for' loop", c)
    parts = for_parts(c)
    if parts.init is None or parts.cond is None or parts.inc is None:
        raise unsupported(
            "simd loop is not in canonical form: it needs an "
            "initialization, a condition and an increment",
            c,
        )
    decl, lower, in_loop = _init(parts.init, src)
    _check_var_type(decl, parts.init)
    var_type = types.map(decl.type)
    key = decl_key(decl)
    cmp, upper, converted = _cond(parts.cond, key, src)
    step, step_refs = _incr(parts.inc, key, src)
    _check_direction(cmp, step, parts.cond)
    header = src.slice(c.extent.start.offset, parts.header_end)
    cmp_type = _comparison_type(converted, decl.spelling, parts.cond, types)
    return CanonicalLoop(
        c,
        decl,
        decl.spelling,
        decl.type.spelling,
        var_type,
        in_loop,
        lower,
        upper,
        cmp,
        step,
        step_refs,
        parts.body,
        header,
        converted.get_canonical().spelling,
        cmp_type,
        _folded_names(parts.inc, key) if isinstance(step, int) else (),
    )


def _not_canonical(what: str, c: ci.Cursor) -> Exception:
    return unsupported(f"simd loop is not in canonical form: {what}", c)


def _init(init: ci.Cursor, src: SourceText) -> tuple[ci.Cursor, str, bool]:
    if init.kind == CK.DECL_STMT:
        decls = children(init)
        if len(decls) != 1 or decls[0].kind != CK.VAR_DECL:
            raise _not_canonical("the initialization must declare one variable", init)
        value = var_initializer(decls[0])
        if value is None:
            raise _not_canonical(f"loop variable '{decls[0].spelling}' has no initial value", init)
        return decls[0], src.of(value), True
    if init.kind == CK.BINARY_OPERATOR and binary_op(init) == "=":
        lhs, rhs = children(init)
        lhs = strip_parens(lhs)
        if (
            lhs.kind == CK.DECL_REF_EXPR
            and lhs.referenced is not None
            and lhs.referenced.kind in (CK.VAR_DECL, CK.PARM_DECL)
        ):
            return lhs.referenced, src.of(rhs), False
    raise _not_canonical("the initialization must be 'var = lb'", init)


def _check_var_type(decl: ci.Cursor, where: ci.Cursor) -> None:
    kind = decl.type.get_canonical().kind
    if kind == ci.TypeKind.POINTER:
        raise unsupported(f"pointer induction variable '{decl.spelling}' in simd loop", where)
    if kind not in (
        ci.TypeKind.INT,
        ci.TypeKind.UINT,
        ci.TypeKind.LONG,
        ci.TypeKind.ULONG,
        ci.TypeKind.LONGLONG,
        ci.TypeKind.ULONGLONG,
        ci.TypeKind.SHORT,
        ci.TypeKind.USHORT,
        ci.TypeKind.CHAR_S,
        ci.TypeKind.CHAR_U,
        ci.TypeKind.SCHAR,
        ci.TypeKind.UCHAR,
        ci.TypeKind.ENUM,
    ):
        raise unsupported(
            f"loop variable '{decl.spelling}' of type '{decl.type.spelling}' is not an integer",
            where,
        )


def _is_var(c: ci.Cursor, key: tuple[str, int, str]) -> bool:
    c = strip_implicit(c)
    return c.kind == CK.DECL_REF_EXPR and c.referenced is not None and decl_key(c.referenced) == key


def _cond(cond: ci.Cursor, key: tuple[str, int, str], src: SourceText) -> tuple[str, str, ci.Type]:
    """(comparison with the variable on the left, bound text, the type the
    variable is converted to for the comparison)."""
    cond = strip_parens(cond)
    if cond.kind == CK.BINARY_OPERATOR:
        op = binary_op(cond)
        if op in _FLIP:
            lhs, rhs = children(cond)
            if _is_var(lhs, key) and not _is_var(rhs, key):
                return op, src.of(rhs), lhs.type
            if _is_var(rhs, key) and not _is_var(lhs, key):
                return _FLIP[op], src.of(lhs), rhs.type
    raise _not_canonical(
        "the condition must compare the loop variable with <, <=, >, >= or != to a bound", cond
    )


_INT_KINDS = (
    ci.TypeKind.INT,
    ci.TypeKind.UINT,
    ci.TypeKind.LONG,
    ci.TypeKind.ULONG,
    ci.TypeKind.LONGLONG,
    ci.TypeKind.ULONGLONG,
)


def _comparison_type(converted: ci.Type, var: str, cond: ci.Cursor, types: TypeMapper) -> Type:
    """The IR type of ``var CMP bound`` after the usual arithmetic conversions."""
    canon = converted.get_canonical()
    if canon.kind not in _INT_KINDS:
        raise unsupported(
            f"loop variable '{var}' is compared with a bound of type "
            f"'{canon.spelling}': the iteration count needs an integer bound",
            cond,
        )
    return types.map(canon)


def _folded_names(inc: ci.Cursor, key: tuple[str, int, str]) -> tuple[str, ...]:
    """The variables other than the loop variable an increment names."""
    names = {
        c.spelling
        for c in walk_preorder(inc)
        if c.kind == CK.DECL_REF_EXPR
        and c.referenced is not None
        and c.referenced.kind == CK.VAR_DECL
        and not _is_var(c, key)
    }
    return tuple(sorted(names))


def _const_int(c: ci.Cursor) -> int | None:
    v = evaluate(c)
    return v if isinstance(v, int) else None


def _adds_to_var(inc: ci.Cursor, key: tuple[str, int, str]) -> bool:
    """``i += e``, ``i -= e`` or ``i = i +/- e``: OpenMP's canonical increments."""
    if inc.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR:
        return _is_var(children(inc)[0], key) and binary_op(inc) in ("+=", "-=")
    if inc.kind == CK.BINARY_OPERATOR and binary_op(inc) == "=":
        lhs, rhs = children(inc)
        rhs = strip_implicit(rhs)
        if rhs.kind != CK.BINARY_OPERATOR or not _is_var(lhs, key):
            return False
        a, b = children(rhs)
        op = binary_op(rhs)
        return (op in ("+", "-") and _is_var(a, key)) or (op == "+" and _is_var(b, key))
    return False


def _incr(
    inc: ci.Cursor, key: tuple[str, int, str], src: SourceText
) -> tuple[int | str, list[ci.Cursor]]:
    """The step, and the variables a run-time step reads."""
    inc = strip_parens(inc)
    step: int | None = None
    if inc.kind == CK.UNARY_OPERATOR and _is_var(children(inc)[0], key):
        step = {"post++": 1, "pre++": 1, "post--": -1, "pre--": -1}.get(unary_op(inc))
    elif inc.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR:
        lhs, rhs = children(inc)
        op = binary_op(inc)
        c = _const_int(rhs)
        if _is_var(lhs, key) and c is not None and op in ("+=", "-="):
            step = c if op == "+=" else -c
    elif inc.kind == CK.BINARY_OPERATOR and binary_op(inc) == "=":
        lhs, rhs = children(inc)
        rhs = strip_implicit(rhs)
        if _is_var(lhs, key) and rhs.kind == CK.BINARY_OPERATOR and binary_op(rhs) in ("+", "-"):
            a, b = children(rhs)
            if _is_var(a, key) and _const_int(b) is not None:
                c = _const_int(b)
                assert c is not None
                step = c if binary_op(rhs) == "+" else -c
            elif binary_op(rhs) == "+" and _is_var(b, key) and _const_int(a) is not None:
                step = _const_int(a)
    if step is None and _adds_to_var(inc, key):
        return _runtime_step(inc, key, src)
    if step is None:
        raise _not_canonical("the increment must add a constant to the loop variable", inc)
    if step == 0:
        raise _not_canonical("the loop step is zero", inc)
    return step, []


_SIGNED_KINDS = (
    ci.TypeKind.INT,
    ci.TypeKind.LONG,
    ci.TypeKind.LONGLONG,
    ci.TypeKind.SHORT,
    ci.TypeKind.SCHAR,
    ci.TypeKind.CHAR_S,
)
_STEP_UNARY = ("-", "+", "~")
_STEP_KINDS = (
    CK.INTEGER_LITERAL,
    CK.PAREN_EXPR,
    CK.UNEXPOSED_EXPR,
    CK.CSTYLE_CAST_EXPR,
    CK.TYPE_REF,
)
_STEP_BINARY = ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^")


def _plain_step_part(c: ci.Cursor) -> bool:
    """A part of a run-time step other than a variable: literals,
    parentheses, casts, arithmetic (no calls, loads or side effects)."""
    if c.kind in _STEP_KINDS:
        return True
    if c.kind == CK.UNARY_OPERATOR:
        return unary_op(c) in _STEP_UNARY
    return c.kind == CK.BINARY_OPERATOR and binary_op(c) in _STEP_BINARY


def _runtime_step(
    inc: ci.Cursor, key: tuple[str, int, str], src: SourceText
) -> tuple[str, list[ci.Cursor]]:
    """``var += s`` (``-=``, ``var = var + s`` ...) with ``s`` known only at
    run time: its text (negated for a subtraction) and the variables it
    reads.  OpenMP asks for a loop-invariant integer expression; s2svec
    takes one of a signed type that reads only variables (the body must not
    write them), so that evaluating it again changes nothing."""
    rhs = children(inc)[1]
    negate = binary_op(inc) == "-="
    if inc.kind == CK.BINARY_OPERATOR:  # var = var +/- s, var = s + var
        a, b = children(strip_implicit(rhs))
        negate = binary_op(strip_implicit(rhs)) == "-"
        rhs = b if _is_var(a, key) else a
    rhs = strip_implicit(rhs)  # the step's own type, before C converts it to var's
    kind = rhs.type.get_canonical().kind
    if kind not in _SIGNED_KINDS:
        raise unsupported(
            f"the run-time loop step '{src.of(rhs)}' has the type '{rhs.type.spelling}' "
            "(only signed integer steps are vectorized)",
            rhs,
        )
    refs: list[ci.Cursor] = []
    for c in walk_preorder(rhs):
        if c.kind == CK.DECL_REF_EXPR:
            ref = c.referenced
            if ref is None or ref.kind not in (
                CK.VAR_DECL,
                CK.PARM_DECL,
                CK.ENUM_CONSTANT_DECL,
            ):
                raise unsupported(f"the run-time loop step reads '{c.spelling}'", c)
            if decl_key(ref) == key:
                raise _not_canonical("the step reads the loop variable", c)
            refs.append(c)
        elif not _plain_step_part(c):
            raise unsupported(
                f"the run-time loop step '{src.of(rhs)}' is not a plain expression of "
                "variables and constants",
                c,
            )
    text = src.of(rhs)
    return (f"-({text})" if negate else text), refs


def _check_direction(cmp: str, step: int | str, cond: ci.Cursor) -> None:
    if isinstance(step, str):
        if cmp == "!=":
            raise _not_canonical(
                "a '!=' condition needs a step of 1 or -1, not a run-time step", cond
            )
        return  # the sign is tested at run time
    if (cmp in ("<", "<=") and step < 0) or (cmp in (">", ">=") and step > 0):
        raise _not_canonical(f"the condition '{cmp}' and the step {step} disagree", cond)
    if cmp == "!=" and abs(step) != 1:
        raise _not_canonical("a '!=' condition needs a step of 1 or -1", cond)


def collapse_nest(
    c: ci.Cursor, n: int, src: SourceText, types: TypeMapper
) -> tuple[list[CanonicalLoop], CanonicalLoop]:
    """The n-1 outer loops of a ``collapse(n)`` nest and the innermost loop."""
    outer: list[CanonicalLoop] = []
    loop = analyze_loop(c, src, types)
    for _ in range(n - 1):
        outer.append(loop)
        inner = loop.body
        while inner.kind == CK.COMPOUND_STMT:
            kids = children(inner)
            if len(kids) != 1:
                raise unsupported(f"collapse({n}) needs perfectly nested loops", inner)
            inner = kids[0]
        if inner.kind != CK.FOR_STMT:
            raise unsupported(f"collapse({n}) needs {n} perfectly nested 'for' loops", inner)
        loop = analyze_loop(inner, src, types)
    return outer, loop
