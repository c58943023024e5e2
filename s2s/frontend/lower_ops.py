"""Lowering of C operators: arithmetic with C's conversions, pointer
arithmetic, assignments (struct copies member-wise), comparisons and the
short-circuit operators.

``?:``, ``&&`` and ``||`` short-circuit with branches, as C says; the
transforms decide what runs speculatively (transform/speculate.py turns
harmless arms of divergent branches into selects, ``and``/``or``).
"""

from __future__ import annotations

import clang.cindex as ci

from ..ir.types import I1, I32, I64, VOID, ArrayType, PtrType, StructType
from ..ir.values import Constant, Undef, Value
from .lower_clang import (
    binary_op,
    children,
    is_lvalue_kind,
    strip_implicit,
    strip_parens,
    unary_op,
    unsupported,
)
from .lower_expr import ExprLowerer, is_void_expr
from .lower_types import is_bool_ctype, promote, usual_arithmetic

CK = ci.CursorKind
TK = ci.TypeKind

_ARITH = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "div",
    "%": "rem",
    "&": "and",
    "|": "or",
    "^": "xor",
    "<<": "shl",
    ">>": "shr",
}
_CMP = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}


class OperatorLowerer(ExprLowerer):
    """Adds the operators to the expression lowering."""

    # -- operators --------------------------------------------------------------------------------
    def visit_UNARY_OPERATOR(self, c: ci.Cursor) -> Value:
        op = unary_op(c)
        x = children(c)[0]
        if op in ("post++", "post--", "pre++", "pre--"):
            return self.inc_dec(c, op, x)
        if op == "&":
            return self.address_of(c, x)
        if op == "*":
            return self.load(self.lv_UNARY_OPERATOR(c), c)
        if op == "!":
            return self.cast(self.bld().unop("not", self.cond(x)), I32)
        if op in ("+", "__extension__"):
            return self.rvalue(x)
        if op == "-":
            return self.bld().unop("neg", self.rvalue(x))
        if op == "~":
            return self.bld().unop("not", self.rvalue(x))
        raise unsupported(f"operator '{op}' in simd loop", c)

    def address_of(self, c: ci.Cursor, x: ci.Cursor) -> Value:
        if x.type.get_canonical().kind in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO):
            raise unsupported("function pointer in simd loop", c)
        lv = self.lvalue(x)
        return self.cast(self.address(lv, c), self.ir_type(c))

    def inc_dec(self, c: ci.Cursor, op: str, x: ci.Cursor) -> Value:
        if is_bool_ctype(x.type):
            raise unsupported("'++'/'--' on a _Bool in simd loop", c)
        lv = self.lvalue(x)
        old = self.load(lv, c)
        delta = 1 if op.endswith("++") else -1
        if isinstance(old.type, PtrType):
            new = self.bld().gep(old, self.const(I64, delta))
        else:
            new = self.bld().add(old, self.const(old.type, delta))
        self.store(lv, new, c)
        return new if op.startswith("pre") else old

    def visit_BINARY_OPERATOR(self, c: ci.Cursor) -> Value:
        op = binary_op(c)
        lhs, rhs = children(c)
        if op == "=":
            return self.assign(c, lhs, rhs)
        if op == ",":
            self.effect(lhs)
            return self.rvalue(rhs)
        if op in ("&&", "||", "==", "!=", "<", "<=", ">", ">="):
            return self.cast(self.cond(c), I32)
        if op not in _ARITH:
            raise unsupported(f"operator '{op}' in simd loop", c)
        return self.arith(op, self.rvalue(lhs), self.rvalue(rhs), c)

    def arith(self, op: str, a: Value, b: Value, c: ci.Cursor) -> Value:
        bld = self.bld()
        if op in ("+", "-") and (isinstance(a.type, PtrType) or isinstance(b.type, PtrType)):
            return self.pointer_arith(op, a, b, c)
        if op in ("<<", ">>"):
            return bld.binop(_ARITH[op], a, self.cast(b, a.type))
        if a.type != b.type:  # clang converted both already; be robust anyway
            common = usual_arithmetic(a.type, b.type)
            a, b = self.cast(a, common), self.cast(b, common)
        return bld.binop(_ARITH[op], a, b)

    def pointer_arith(self, op: str, a: Value, b: Value, c: ci.Cursor) -> Value:
        bld = self.bld()
        if isinstance(a.type, PtrType) and isinstance(b.type, PtrType):
            if op != "-":
                raise unsupported("pointer addition in simd loop", c)
            size = a.type.pointee.size if a.type.pointee != VOID else 1
            diff = bld.sub(self.cast(a, I64), self.cast(b, I64))
            return bld.binop("div", diff, self.const(I64, size)) if size != 1 else diff
        if isinstance(b.type, PtrType):
            a, b = b, a
        idx = self.index(b)
        if op == "-":
            idx = self.const(I64, -idx.value) if isinstance(idx, Constant) else bld.unop("neg", idx)
        return bld.gep(a, idx)

    def assign(self, c: ci.Cursor, lhs: ci.Cursor, rhs: ci.Cursor) -> Value:
        if lhs.type.get_canonical().kind == TK.RECORD:
            dst = self.address(self.lvalue(lhs), c)
            self.copy_struct(dst, self.struct_source(rhs), c)
            return Undef(VOID)
        lv = self.lvalue(lhs)
        v = self.rvalue(rhs)
        self.store(lv, v, c)
        return self.cast(v, lv.ir)

    def struct_source(self, c: ci.Cursor) -> Value:
        """The address of a struct-valued expression: an lvalue, or the
        result of a call (that is inlined, lower_callee)."""
        inner = strip_implicit(c)
        if inner.kind == CK.CALL_EXPR:
            return self.visit_CALL_EXPR(inner)
        if not is_lvalue_kind(inner):
            raise unsupported("struct value that is not a variable or element in simd loop", c)
        return self.address(self.lvalue(inner), c)

    def store_result(self, slot: Value, expr: ci.Cursor, c: ci.Cursor) -> None:
        """``return expr`` of a function whose result goes through ``slot``
        (a struct: copied member-wise; lower_complex adds complex results)."""
        self.copy_struct(slot, self.struct_source(expr), c)

    def copy_struct(self, dst: Value, src: Value, c: ci.Cursor) -> None:
        """Member-wise copy of an aggregate (struct assignment)."""
        assert isinstance(dst.type, PtrType)
        t = dst.type.pointee
        bld = self.bld()
        if isinstance(t, StructType):
            for f in t.fields:
                ft = PtrType(f.type.elem if isinstance(f.type, ArrayType) else f.type)
                d = bld.field_addr(dst, f.name, ft)
                s = bld.field_addr(src, f.name, ft)
                if isinstance(f.type, ArrayType):
                    self.copy_array(d, s, f.type, c)
                else:
                    self.copy_struct(d, s, c)
        elif isinstance(t, ArrayType):
            elem = PtrType(t.elem)
            self.copy_array(self.cast(dst, elem), self.cast(src, elem), t, c)
        else:
            bld.store(bld.load(src), dst)

    def copy_array(self, dst: Value, src: Value, t: ArrayType, c: ci.Cursor) -> None:
        if t.count > 64:
            raise unsupported("copy of a large array member in simd loop", c)
        for k in range(t.count):
            i = self.const(I64, k)
            self.copy_struct(self.bld().gep(dst, i), self.bld().gep(src, i), c)

    def visit_COMPOUND_ASSIGNMENT_OPERATOR(self, c: ci.Cursor) -> Value:
        op = binary_op(c)[:-1]
        lhs, rhs = children(c)
        lv = self.lvalue(lhs)
        r = self.rvalue(rhs)
        old = self.load(lv, c)
        if isinstance(old.type, PtrType):
            new = self.pointer_arith(op, old, r, c)
        else:
            # The computation type clang does not show (C11 6.5.16.2).
            comp = promote(old.type) if op in ("<<", ">>") else usual_arithmetic(old.type, r.type)
            new = self.arith(op, self.cast(old, comp), self.cast(r, comp), c)
            new = self.convert(new, lhs.type, c)
        self.store(lv, new, c)
        return self.cast(new, lv.ir)

    # -- conditions ---------------------------------------------------------------------
    def cond(self, c: ci.Cursor) -> Value:
        """The truth of a scalar expression as an i1."""
        c = strip_parens(c)
        if c.kind == CK.BINARY_OPERATOR:
            op = binary_op(c)
            if op in _CMP:
                lhs, rhs = children(c)
                return self.compare(op, self.rvalue(lhs), self.rvalue(rhs))
            if op in ("&&", "||"):
                return self.logical(c, op)
        if c.kind == CK.UNARY_OPERATOR and unary_op(c) == "!":
            return self.bld().unop("not", self.cond(children(c)[0]))
        return self.truth(self.rvalue(c))

    def compare(self, op: str, a: Value, b: Value) -> Value:
        if a.type != b.type:
            if isinstance(a.type, PtrType):
                b = self.cast(b, a.type)
            elif isinstance(b.type, PtrType):
                a = self.cast(a, b.type)
            else:
                common = usual_arithmetic(a.type, b.type)
                a, b = self.cast(a, common), self.cast(b, common)
        return self.bld().cmp(_CMP[op], a, b)

    def logical(self, c: ci.Cursor, op: str) -> Value:
        lhs, rhs = children(c)
        a = self.cond(lhs)
        rhs_bb = self.new_block("land.rhs" if op == "&&" else "lor.rhs")
        end = self.new_block("land.end" if op == "&&" else "lor.end")
        first = self.cur()
        if op == "&&":
            self.branch(a, rhs_bb, end, at=lhs)
        else:
            self.branch(a, end, rhs_bb, at=lhs)
        self.ssa.seal(rhs_bb)
        self.set_block(rhs_bb)
        b = self.cond(rhs)
        last = self.cur()
        self.jump(end)
        self.ssa.seal(end)
        self.set_block(end)
        phi = self.bld().phi(I1, "land" if op == "&&" else "lor")
        phi.add_incoming(Constant(I1, 0 if op == "&&" else 1), first)
        phi.add_incoming(b, last)
        return phi

    def visit_CONDITIONAL_OPERATOR(self, c: ci.Cursor) -> Value:
        test, a, b = children(c)
        void = is_void_expr(c)
        if c.type.get_canonical().kind == TK.RECORD:
            raise unsupported("conditional expression of struct type in simd loop", c)
        then_bb, else_bb = self.new_block("cond.true"), self.new_block("cond.false")
        end = self.new_block("cond.end")
        self.branch(self.cond(test), then_bb, else_bb, at=test)
        results = []
        for bb, arm in ((then_bb, a), (else_bb, b)):
            self.ssa.seal(bb)
            self.set_block(bb)
            if void:
                self.effect(arm)
            else:
                results.append((self.convert(self.rvalue(arm), c.type, c), self.cur()))
            self.jump(end)
        self.ssa.seal(end)
        self.set_block(end)
        if void:
            return Undef(VOID)
        phi = self.bld().phi(results[0][0].type, "cond")
        for v, pred in results:
            phi.add_incoming(v, pred)
        return phi
