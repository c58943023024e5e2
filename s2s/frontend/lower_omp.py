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

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass

import clang.cindex as ci

from ..diagnostics import Unsupported
from ..ir.atomic_calls import (
    COMMUTATIVE,
    OPERATORS,
    ORDERED_PREFIX,
    ORDERS,
    AtomicCall,
    is_atomic_type,
)
from ..ir.types import VOID, FloatType, IntType, Type
from ..ir.values import Call, Value
from .lower_clang import (
    SourceText,
    binary_op,
    children,
    construct_name,
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
from .parse import name_position

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
    ordered: dict[int, OrderedPlan]
    """Pragma offset -> the helper of each ``ordered simd`` block (lower.py)."""

    def stmt(self, c: ci.Cursor) -> None:
        """Lower one statement (lower_stmt.BodyLowerer's)."""
        raise NotImplementedError

    def lower_inner(self, construct: InnerConstruct) -> None:
        if construct.kind == "ordered":
            self.lower_ordered(construct)
        else:
            self.lower_atomic(construct)

    def lower_ordered(self, construct: InnerConstruct) -> None:
        """A call of the block's helper, with the values it reads and the
        addresses of the variables it writes."""
        plan = self.ordered.get(construct.line.start)
        if plan is None:
            raise Unsupported(
                f"'#pragma omp {construct.line.name}' inside the simd loop is not supported",
                construct.line.location,
            )
        args: list[Value] = []
        for cap in plan.captures:
            if not cap.by_pointer:
                args.append(self.rvalue(cap.ref))
                continue
            lv = self.lvalue(cap.ref)
            if lv.ptr is None:
                raise unsupported(
                    f"'{cap.name}', private to the lane (a data-sharing clause names it), "
                    "is written in a '#pragma omp ordered simd' block",
                    cap.ref,
                )
            args.append(lv.ptr)
        call = self.bld().call(plan.name, args, VOID, False)
        assert isinstance(call, Call)
        call.loc = construct.line.location

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


# -- ordered simd ------------------------------------------------------------------------

_ARITHMETIC = {
    ci.TypeKind.BOOL,
    ci.TypeKind.CHAR_S,
    ci.TypeKind.CHAR_U,
    ci.TypeKind.SCHAR,
    ci.TypeKind.UCHAR,
    ci.TypeKind.SHORT,
    ci.TypeKind.USHORT,
    ci.TypeKind.INT,
    ci.TypeKind.UINT,
    ci.TypeKind.LONG,
    ci.TypeKind.ULONG,
    ci.TypeKind.LONGLONG,
    ci.TypeKind.ULONGLONG,
    ci.TypeKind.FLOAT,
    ci.TypeKind.DOUBLE,
    ci.TypeKind.ENUM,
}
_FUNCTION_NAMES = ("__func__", "__FUNCTION__", "__PRETTY_FUNCTION__")


@dataclass
class Capture:
    """A variable of the enclosing function an ordered block uses."""

    name: str
    ref: ci.Cursor
    """A reference to it in the block (lowered to pass it)."""
    by_pointer: bool
    """Written (or its address taken) in the block: passed by address."""
    c_type: str


@dataclass
class OrderedPlan:
    """An ``ordered simd`` block outlined into a helper of the output."""

    name: str
    captures: list[Capture]
    text: str
    """The helper's C definition."""
    written: set[Hashable]
    """Variables the block writes (or takes the address of)."""
    refs: set[int]
    """Hashes of the references in the block to variables declared outside it."""


def ordered_plan(
    construct: InnerConstruct, function: ci.Cursor, src: SourceText, others: list[InnerConstruct]
) -> OrderedPlan:
    """Outline the block of ``#pragma omp ordered simd`` into a static
    function defined before ``function`` (module docstring), or say why it
    cannot be (Unsupported)."""
    stmt = construct.stmt
    where = construct.line.location
    start, end = construct.extent
    end = _statement_end(src, stmt)
    before = function.extent.start.offset

    def fail(why: str, at: ci.Cursor | None = None) -> Unsupported:
        loc = location(at) if at is not None else where
        return Unsupported(f"'#pragma omp ordered simd' block: {why}", loc)

    for other in others:
        if other is not construct and start <= other.line.start < end:
            raise fail(f"'#pragma omp {other.line.name}' inside it is not supported")
    text = src.slice(start, end)
    if re.search(r"^\s*#", text, re.M):
        raise fail("preprocessing directives inside it are not supported")
    if re.search(r"^\s*#\s*(define|undef)\b", src.slice(before, start), re.M):
        raise fail("a macro is defined in the function before it (the block moves out of it)")
    _check_jumps(stmt, fail)
    written = _written_in(stmt)
    captures: dict[Hashable, Capture] = {}
    refs: set[int] = set()
    written_keys: set[Hashable] = set()
    for c in walk_preorder(stmt):
        ref = c.referenced
        if c.kind == CK.TYPE_REF and ref is not None and not _visible(ref, before):
            raise fail(f"the type '{c.spelling}' is declared in the function", c)
        if c.kind == CK.DECL_REF_EXPR and c.spelling in _FUNCTION_NAMES:
            raise fail("'__func__' names the function it is in", c)
        if c.kind != CK.DECL_REF_EXPR or c.referenced is None:
            continue
        decl = c.referenced
        if decl.kind == CK.FUNCTION_DECL or decl.kind == CK.ENUM_CONSTANT_DECL:
            owner = decl.canonical if decl.kind == CK.FUNCTION_DECL else decl.semantic_parent
            if owner is None or not _visible(owner, before):
                raise fail(f"'{c.spelling}' is declared in the function", c)
            continue
        if decl.kind not in (CK.VAR_DECL, CK.PARM_DECL):
            raise fail(f"'{c.spelling}' is not a variable or function", c)
        loc = decl.location
        if loc.file is not None and loc.file.name == src.path and start <= loc.offset < end:
            continue  # the block's own
        key = decl_key(decl)
        refs.add(c.hash)
        if c.hash in written:
            written_keys.add(key)
        parent = decl.semantic_parent
        if parent is not None and parent.kind == CK.TRANSLATION_UNIT:
            if not _visible(decl.canonical, before):
                raise fail(f"'{c.spelling}' is declared after the start of the function", c)
            continue  # the helper names it as the block does
        if decl.storage_class in (ci.StorageClass.STATIC, ci.StorageClass.EXTERN):
            raise fail(f"static or extern local variable '{c.spelling}'", c)
        found = captures.get(key)
        if found is None:
            found = captures[key] = Capture(c.spelling, c, False, _param_type(c, before, fail))
        found.by_pointer = found.by_pointer or c.hash in written
    names = [cap.name for cap in captures.values()]
    if len(set(names)) != len(names):
        raise fail("it uses two variables of one name")
    text = _rewrite(src, start, end, stmt, [k for k, cap in captures.items() if cap.by_pointer])
    name = f"{ORDERED_PREFIX}{name_position(src.data, construct.line.start)}"
    params = ", ".join(_declarator(cap) for cap in captures.values())
    margin = start - (src.data.rfind(b"\n", 0, start) + 1)
    lines = [_unindent(line, margin) for line in text.split("\n")]
    body = "\n".join("    " + line if line.strip() else "" for line in lines)
    definition = (
        f"/* s2svec: the '#pragma omp ordered simd' block at line {where.line}, run lane by "
        f"lane */\nstatic inline void {name}({params or 'void'})\n{{\n{body}\n}}\n"
    )
    return OrderedPlan(name, list(captures.values()), definition, written_keys, refs)


def _declarator(cap: Capture) -> str:
    star = "*" if cap.by_pointer else ""
    space = "" if cap.c_type.endswith("*") else " "
    return f"{cap.c_type}{space}{star}{cap.name}"


def _unindent(line: str, margin: int) -> str:
    """``line`` without up to ``margin`` leading blanks."""
    k = 0
    while k < margin and k < len(line) and line[k] in " \t":
        k += 1
    return line[k:]


def _statement_end(src: SourceText, c: ci.Cursor) -> int:
    """End of a statement with its ``;`` (clang's extent stops before it)."""
    end = c.extent.end.offset
    data = src.data
    if data[end - 1 : end] in (b";", b"}"):
        return end
    i = end
    while i < len(data) and data[i : i + 1] in b" \t\r\n":
        i += 1
    return i + 1 if data[i : i + 1] == b";" else end


def _visible(decl: ci.Cursor, before: int) -> bool:
    """A file-scope declaration the helper (at offset ``before``) sees."""
    parent = decl.semantic_parent
    if parent is None or parent.kind != CK.TRANSLATION_UNIT:
        return False
    loc = decl.location
    main = decl.translation_unit.spelling
    return loc.file is None or loc.file.name != main or loc.offset < before


def _param_type(ref: ci.Cursor, before: int, fail: Callable[..., Unsupported]) -> str:
    """The C spelling of the type of the variable ``ref`` names, nameable at
    file scope."""
    decl = ref.referenced
    assert decl is not None
    t = decl.type
    canon = t.get_canonical()
    inner = canon
    while inner.kind == ci.TypeKind.POINTER:
        inner = inner.get_pointee().get_canonical()
    if canon.kind not in _ARITHMETIC and not (
        canon.kind == ci.TypeKind.POINTER
        and inner.kind not in (ci.TypeKind.FUNCTIONPROTO, ci.TypeKind.FUNCTIONNOPROTO)
    ):
        raise fail(
            f"'{decl.spelling}' of type '{t.spelling}' is not a scalar or object pointer", ref
        )
    sugar = t
    while True:
        named = sugar.get_declaration()
        if named is not None and named.kind != CK.NO_DECL_FOUND and not _visible(named, before):
            raise fail(f"the type of '{decl.spelling}' is declared in the function", ref)
        if sugar.kind == ci.TypeKind.POINTER:
            sugar = sugar.get_pointee()
        elif sugar.kind == ci.TypeKind.ELABORATED:
            sugar = sugar.get_named_type()
        else:
            break
    return t.spelling


def _written_in(stmt: ci.Cursor) -> set[int]:
    """Hashes of the variable references the block assigns or takes the address of."""
    out: set[int] = set()
    for c in walk_preorder(stmt):
        target = None
        if (
            (c.kind == CK.BINARY_OPERATOR and binary_op(c) == "=")
            or c.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR
            or (c.kind == CK.UNARY_OPERATOR and unary_op(c) in (*_INC_DEC, "&"))
        ):
            target = children(c)[0]
        if target is not None:
            target = strip_parens(target)
            if target.kind == CK.DECL_REF_EXPR:
                out.add(target.hash)
    return out


def _check_jumps(stmt: ci.Cursor, fail: Callable[..., Unsupported]) -> None:
    """No ``return``, ``goto``, labels, and no ``break``/``continue`` that
    leaves the block."""
    loops = (CK.FOR_STMT, CK.WHILE_STMT, CK.DO_STMT)

    def walk(c: ci.Cursor, loop: bool, switch: bool) -> None:
        if c.kind in (CK.RETURN_STMT, CK.GOTO_STMT, CK.INDIRECT_GOTO_STMT, CK.LABEL_STMT):
            raise fail(f"{construct_name(c)} in it is not supported", c)
        if (c.kind == CK.BREAK_STMT and not (loop or switch)) or (
            c.kind == CK.CONTINUE_STMT and not loop
        ):
            raise fail(f"{construct_name(c)} leaves it", c)
        for k in children(c):
            walk(k, loop or c.kind in loops, switch or c.kind == CK.SWITCH_STMT)

    walk(stmt, False, False)


def _rewrite(
    src: SourceText, start: int, end: int, stmt: ci.Cursor, by_pointer: list[Hashable]
) -> str:
    """The block's text with each reference to a variable passed by
    address made ``(*name)``."""
    edits: list[tuple[int, int, str]] = []
    wanted = set(by_pointer)
    for c in walk_preorder(stmt):
        if c.kind != CK.DECL_REF_EXPR or c.referenced is None:
            continue
        if decl_key(c.referenced) not in wanted:
            continue
        a, b = c.extent.start.offset, c.extent.end.offset
        if not (start <= a < b <= end) or src.slice(a, b) != c.spelling:
            raise unsupported(
                f"'#pragma omp ordered simd' block: '{c.spelling}' is written through a macro",
                c,
            )
        edits.append((a, b, f"(*{c.spelling})"))
    out: list[str] = []
    pos = start
    for a, b, new in sorted(edits):
        out.append(src.slice(pos, a))
        out.append(new)
        pos = b
    out.append(src.slice(pos, end))
    return "".join(out)


__all__ = [
    "AtomicForm",
    "Capture",
    "OmpLowerer",
    "OrderedPlan",
    "atomic_clauses",
    "atomic_form",
    "atomic_references",
    "ordered_plan",
]
