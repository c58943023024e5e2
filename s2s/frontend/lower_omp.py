"""Lowering of the OpenMP constructs a simd loop body may hold: ``atomic``.

``#pragma omp atomic`` annotates one statement (OpenMP 5.2 Section 15.8.4);
it becomes one call of a helper the code generator defines
(s2s/ir/atomic_calls.py), which both code generators run lane by lane in
lane order under the mask, like any call with effects.  The forms, with x
an lvalue of integer or floating type, ``op`` one of ``+ - * / & | ^ <<
>>``, e an expression not naming x, v an lvalue::

    update (default)  x++;  x--;  ++x;  --x;  x op= e;  x = x op e;  x = e op x;
    read              v = x;
    write             x = e;
    capture           v = x++;  v = ++x;  ...  v = x op= e;  v = x = x op e;
                      { v = x; x op= e; }  { x op= e; v = x; }  { v = x; x = e; }

What the statement evaluates besides the access of x -- x's address, e,
the store to v -- is ordinary code of the iteration, vectorized with the
rest.  The clauses: a memory order (default relaxed, or the file's
``requires atomic_default_mem_order``), ``hint`` (ignored, as it may be).
Left scalar (Unsupported): ``compare``, ``fail``, ``weak``, forms not in
the table, x of another type (pointers, ``_Bool``, complex, structs).

A variable x declared outside the loop that only atomic statements access
(``#pragma omp atomic`` ``count++;``) is bound by address
(s2s/frontend/lower.py); one the loop also reads or writes without
``atomic`` keeps the loop scalar.  An x private to the lane (declared in
the body, or named by a data-sharing clause) is an SSA value: nothing else
can access it, so its statement is lowered as plain C.
"""

from __future__ import annotations

from dataclasses import dataclass

import clang.cindex as ci

from ..diagnostics import Unsupported
from ..ir.atomic_calls import COMMUTATIVE, OPERATORS, ORDERS, AtomicCall, is_atomic_type
from ..ir.types import VOID, FloatType, IntType, Type
from ..ir.values import Call, Value
from .lower_clang import (
    binary_op,
    children,
    decl_key,
    is_lvalue_kind,
    location,
    strip_implicit,
    strip_parens,
    unary_op,
    unsupported,
    walk_preorder,
)
from .lower_complex import ComplexLowerer
from .lower_types import is_bool_ctype, promote, usual_arithmetic
from .omp_context import InnerConstruct, OmpLine

CK = ci.CursorKind
_C_OPERATORS = {symbol: name for name, symbol in OPERATORS.items()}
_INC_DEC = ("post++", "post--", "pre++", "pre--")


@dataclass
class AtomicForm:
    """What one atomic statement does (module docstring), found from its syntax."""

    form: str
    """The helper's form (s2s/ir/atomic_calls.py): update, old, new, read,
    write or swap."""
    x: ci.Cursor
    """The lvalue accessed atomically."""
    op: str = ""
    """The update's operation (``add``, ``rsub`` ...)."""
    e: ci.Cursor | None = None
    """The operand (None for ``++``/``--``: 1)."""
    binop: ci.Cursor | None = None
    """``x op e`` of ``x = x op e``: its type is the computation type."""
    v: ci.Cursor | None = None
    """Where a read or capture stores x's value."""


def atomic_clauses(line: OmpLine, default: str) -> tuple[str, str]:
    """The kind (read, write, update, capture) and memory order of an
    ``atomic`` directive; ``default``: the file's default order, if any."""
    toks = [t.text for t in line.tokens[1:]]
    kind, order = "", ""
    k = 0
    while k < len(toks):
        word = toks[k]
        k += 1
        if word == ",":
            continue
        if word in ("read", "write", "update", "capture"):
            if kind:
                raise Unsupported(
                    f"'#pragma omp atomic' with both '{kind}' and '{word}'", line.location
                )
            kind = word
        elif word in ORDERS:
            order = word
        elif word == "hint" and k < len(toks) and toks[k] == "(":
            depth = 0
            while k < len(toks):  # skip the argument
                depth += {"(": 1, ")": -1}.get(toks[k], 0)
                k += 1
                if depth == 0:
                    break
        elif word in ("compare", "fail", "weak"):
            raise Unsupported(
                f"'#pragma omp atomic {word}' in a simd loop is not supported", line.location
            )
        else:
            raise Unsupported(
                f"'{word}' on '#pragma omp atomic' in a simd loop is not supported", line.location
            )
    kind = kind or "update"
    order = order or default or "relaxed"
    if kind == "read":
        order = {"acq_rel": "acquire", "release": "seq_cst"}.get(order, order)
    elif kind == "write":
        order = {"acq_rel": "release", "acquire": "seq_cst"}.get(order, order)
    return kind, order


def atomic_form(kind: str, stmt: ci.Cursor) -> AtomicForm:
    """The form of the statement under ``#pragma omp atomic <kind>``
    (Unsupported when it is not one of the module docstring's)."""
    found = _form(kind, stmt)
    if found is None:
        raise unsupported(
            f"statement under '#pragma omp atomic{' ' + kind if kind != 'update' else ''}' "
            "is not an atomic form s2svec recognizes",
            stmt,
        )
    for other in (found.e, found.v):
        if other is not None and _mentions(other, found.x):
            raise unsupported(
                f"'{_text(found.x)}' accessed atomically also appears in '{_text(other)}'", other
            )
    return found


def atomic_references(construct: InnerConstruct) -> list[ci.Cursor]:
    """The references to the variable an atomic construct accesses (x when
    it is a variable; the form keeps it out of e and v), none when x is
    another lvalue or the statement is not a form s2svec recognizes (its
    lowering says why)."""
    try:
        kind, _ = atomic_clauses(construct.line, "")
        x = strip_parens(atomic_form(kind, construct.stmt).x)
    except Unsupported:
        return []
    if x.kind != CK.DECL_REF_EXPR or x.referenced is None:
        return []
    return [
        c
        for c in walk_preorder(construct.stmt)
        if c.kind == CK.DECL_REF_EXPR and c.referenced == x.referenced
    ]


def _form(kind: str, c: ci.Cursor) -> AtomicForm | None:
    c = strip_parens(c)
    if kind == "update":
        return _update(c)
    if kind == "read":
        pair = _assignment(c)
        if pair is None or not is_lvalue_kind(strip_implicit(pair[1])):
            return None
        return AtomicForm("read", strip_implicit(pair[1]), v=pair[0])
    if kind == "write":
        pair = _assignment(c)
        return AtomicForm("write", pair[0], e=pair[1]) if pair is not None else None
    if c.kind == CK.COMPOUND_STMT:
        return _capture_block(c)
    pair = _assignment(c)
    if pair is None:
        return None
    v, rhs = pair
    update = _update(strip_implicit(rhs))
    if update is None:
        return None
    inner = strip_parens(strip_implicit(rhs))
    post = inner.kind == CK.UNARY_OPERATOR and unary_op(inner).startswith("post")
    update.form, update.v = ("old" if post else "new"), v
    return update


def _capture_block(c: ci.Cursor) -> AtomicForm | None:
    """``{v = x; x op= e;}``, ``{x op= e; v = x;}``, ``{v = x; x = e;}``."""
    stmts = children(c)
    if len(stmts) != 2:
        return None
    first, second = (strip_parens(s) for s in stmts)
    read = _assignment(first)
    if read is not None and is_lvalue_kind(strip_implicit(read[1])):
        x = strip_implicit(read[1])
        update = _update(second)
        if update is not None and _same(update.x, x):
            update.form, update.v = "old", read[0]
            return update
        write = _assignment(second)
        if write is not None and _same(write[0], x):
            return AtomicForm("swap", write[0], e=write[1], v=read[0])
    read = _assignment(second)
    update = _update(first)
    if read is not None and update is not None and _same(strip_implicit(read[1]), update.x):
        update.form, update.v = "new", read[0]
        return update
    return None


def _update(c: ci.Cursor) -> AtomicForm | None:
    """An update expression of x (no capture)."""
    c = strip_parens(c)
    if c.kind == CK.UNARY_OPERATOR and unary_op(c) in _INC_DEC:
        return AtomicForm("update", children(c)[0], "add" if "++" in unary_op(c) else "sub")
    if c.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR:
        op = _C_OPERATORS.get(binary_op(c)[:-1])
        if op is None:
            return None
        x, e = children(c)
        return AtomicForm("update", x, op, e)
    pair = _assignment(c)
    if pair is None:
        return None
    x, rhs = pair
    binop = strip_implicit(rhs)
    if binop.kind != CK.BINARY_OPERATOR or binary_op(binop) not in _C_OPERATORS:
        return None
    op = _C_OPERATORS[binary_op(binop)]
    a, b = children(binop)
    if _same(strip_implicit(a), x):
        return AtomicForm("update", x, op, b, binop)
    if _same(strip_implicit(b), x):
        return AtomicForm("update", x, op if op in COMMUTATIVE else "r" + op, a, binop)
    return None


def _assignment(c: ci.Cursor) -> tuple[ci.Cursor, ci.Cursor] | None:
    c = strip_parens(c)
    if c.kind != CK.BINARY_OPERATOR or binary_op(c) != "=":
        return None
    lhs, rhs = children(c)
    return lhs, rhs


def _tokens(c: ci.Cursor) -> list[str]:
    return [t.spelling for t in strip_parens(c).get_tokens()]


def _text(c: ci.Cursor) -> str:
    """The expression as written (its tokens, spaced as in the source)."""
    out: list[str] = []
    end = -1
    for tok in strip_parens(c).get_tokens():
        start = tok.extent.start.offset
        if out and start > end:
            out.append(" ")
        out.append(tok.spelling)
        end = tok.extent.end.offset
    return "".join(out)


def _same(a: ci.Cursor, b: ci.Cursor) -> bool:
    """Whether two lvalues are written alike (OpenMP asks that they
    designate one object)."""
    return is_lvalue_kind(a) and _tokens(a) == _tokens(b)


def _mentions(c: ci.Cursor, x: ci.Cursor) -> bool:
    """Whether the tokens of x appear in c."""
    hay, needle = _tokens(c), _tokens(x)
    n = len(needle)
    return any(hay[k : k + n] == needle for k in range(len(hay) - n + 1))


# -- lowering ---------------------------------------------------------------------------


class OmpLowerer(ComplexLowerer):
    """Adds the inner constructs to the expression lowering; the statement
    lowerer (s2s/frontend/lower_stmt.py) calls ``lower_inner`` for a
    statement an ``inner`` construct annotates."""

    inner: dict[int, InnerConstruct]
    """Statement start offset -> the construct annotating it, until lowered."""
    atomic_default: str = ""
    """The file's ``requires atomic_default_mem_order``, if any."""

    def stmt(self, c: ci.Cursor) -> None:
        """Lower one statement (lower_stmt.BodyLowerer's)."""
        raise NotImplementedError

    def lower_inner(self, construct: InnerConstruct) -> None:
        if construct.kind != "atomic":
            raise Unsupported(
                f"'#pragma omp {construct.line.name}' inside the simd loop is not supported",
                construct.line.location,
            )
        self.lower_atomic(construct)

    def lower_atomic(self, construct: InnerConstruct) -> None:
        stmt = construct.stmt
        kind, order = atomic_clauses(construct.line, self.atomic_default)
        form = atomic_form(kind, stmt)
        if self.is_private(form.x):
            self.stmt(stmt)  # no other lane or thread can see it
            return
        t = self.ir_type(form.x)
        if is_bool_ctype(form.x.type) or not is_atomic_type(t):
            raise unsupported(
                f"'#pragma omp atomic' on '{_text(form.x)}' of type '{form.x.type.spelling}' "
                "in a simd loop is not supported",
                form.x,
            )
        ptr = self.address(self.lvalue(form.x), form.x)
        operands: list[Value] = [ptr]
        u: Type | None = None
        if form.op:
            u = self.computation_type(form, t)
            if form.e is None:
                operands.append(self.const(u, 1))
            else:
                operands.append(self.cast(self.rvalue(form.e), u))
        elif form.e is not None:
            operands.append(self.convert(self.rvalue(form.e), form.x.type, form.e))
        helper = AtomicCall(form.form, t, form.op, u, order)
        call = self.bld().call(helper.name, operands, t if helper.returns else VOID, False)
        assert isinstance(call, Call)
        call.loc = location(stmt)
        if form.v is not None:
            self.store(self.lvalue(form.v), self.convert(call, form.v.type, form.v), stmt)

    def computation_type(self, form: AtomicForm, t: Type) -> Type:
        """The type ``x op e`` computes in (C11 6.5.16.2; a shift in x's
        promoted type, its count converted to it: a valid count fits)."""
        if form.binop is not None:
            u = self.ir_type(form.binop)
        elif form.e is None or form.op.removeprefix("r") in ("shl", "shr"):
            u = promote(t)
        else:
            u = usual_arithmetic(t, promote(self.ir_type(form.e)))
        if not isinstance(u, (IntType, FloatType)) or not is_atomic_type(u):
            raise unsupported(
                f"'#pragma omp atomic' update of '{_text(form.x)}' computing in "
                f"'{u}' in a simd loop is not supported",
                form.x,
            )
        return u

    def is_private(self, x: ci.Cursor) -> bool:
        """x is a variable of the lane's own, held as an SSA value."""
        x = strip_parens(x)
        if x.kind != CK.DECL_REF_EXPR or x.referenced is None:
            return False
        var = self.vars.get(decl_key(x.referenced))
        return var is not None and not var.in_memory


__all__ = ["AtomicForm", "OmpLowerer", "atomic_clauses", "atomic_form", "atomic_references"]
