"""Lowering of C99 complex values (``_Complex float``, ``_Complex double``) to real IR.

A complex rvalue is two values of its part type, ``ComplexValue(re, im)``;
only the parts are ever operands of instructions, so the IR stays real.  A
complex variable is two SSA variables (keys ``(key, "re")`` and ``(key,
"im")``); a complex object in memory (``double complex *p``, arrays of
complex, struct members, address-taken locals) is ``struct.complex.f64``
(lower_types.py), read and written part by part through ``fieldaddr``.

The rules, as gcc 12 and clang 19 compute them at -O2 (checked with -S on
each operand form; ``z``, ``w`` complex, ``x`` real)::

    z + w   (zr + wr, zi + wi)         z - w   (zr - wr, zi - wi)
    z + x   (zr + x, zi)               x + z   (x + zr, zi)
    z - x   (zr - x, zi)               x - z   (x - zr, -zi)
    z * x   (zr * x, zi * x)           x * z   (x * zr, x * zi)
    z / x   (zr / x, zi / x)
    z * w   (zr*wr - zi*wi, zr*wi + zi*wr), and where both parts are NaN
            the Annex G recovery (libgcc's __muldc3) on those lanes only
    z / w, x / w    libgcc's __divdc3 (x as x + 0i), per lane
    -z  (-zr, -zi)     ~z, conj(z)  (zr, -zi)
    z == w  zr == wr && zi == wi       z != w  zr != wr || zi != wi
    (T)z    (T)zr for a real T; (_Bool)z is zr != 0 || zi != 0
    (complex)x      (x, +0.0)
    creal cimag __real__ __imag__   a part;  __builtin_complex, CMPLX  the pair
    cabs    hypot(zr, zi)    carg  atan2(zi, zr)   (what gcc emits; glibc
            computes cabs and carg so)
    cexp clog csqrt cpow csin ... cproj   per lane (s2s/ir/complex_calls.py)

A real operand of ``+ - * /`` is not made complex (C11 6.3.1.8): clang's
AST converts it, but gcc and clang 19 keep its imaginary part absent
(``w + 1`` keeps the sign of a ``-0.0`` imaginary part; clang 14 made it
``+0.0``), so the lowering looks through that implicit conversion.

Functions inlined into the region take a complex parameter as two
arguments and return a complex result through a slot of two parts
(lower_callee.py), so their calls must be inlined.  Left Unsupported:
``++``/``--`` of complex values, complex arguments of functions that are
not inlined, ``_Complex long double`` and integer ``_Complex`` (the type
mapping), ``CMPLX`` used other than as a complex value (the parser, a
clang, does not see glibc's gcc-only macro: see ``_implicit_cmplx``).
"""

from __future__ import annotations

from collections.abc import Hashable

import clang.cindex as ci

from ..ir.complex_calls import BINARY_LIBRARY_FUNCTIONS, LIBRARY_FUNCTIONS, complex_call
from ..ir.types import (
    F32,
    F64,
    I8,
    I64,
    VOID,
    ArrayType,
    FloatType,
    PtrType,
    Type,
    complex_of,
    complex_part,
)
from ..ir.values import Call, Constant, Undef, Value
from .lower_clang import binary_op, children, location, strip_implicit, unary_op, unsupported
from .lower_expr import LValue, Var
from .lower_ops import OperatorLowerer
from .lower_types import is_complex_ctype, usual_arithmetic

CK = ci.CursorKind
TK = ci.TypeKind
PARTS = ("re", "im")


class ComplexValue(Value):
    """A complex rvalue during lowering: its two parts.  Never an operand."""

    def __init__(self, re: Value, im: Value) -> None:
        assert re.type == im.type and isinstance(re.type, FloatType), (re.type, im.type)
        super().__init__(complex_of(re.type))
        self.re = re
        self.im = im

    def part(self, which: str) -> Value:
        return self.re if which == "re" else self.im


def real_type(t: Type) -> Type:
    """The part type of a complex type, else the type itself."""
    return complex_part(t) or t


class ComplexLowerer(OperatorLowerer):
    """Adds complex values to the expression and operator lowering."""

    # -- values and conversions ------------------------------------------------------------
    def to_complex(self, v: Value, t: Type) -> ComplexValue:
        """``v`` converted to the complex type ``t`` (a real one gets +0.0)."""
        part = complex_part(t)
        assert part is not None, t
        if isinstance(v, ComplexValue):
            return ComplexValue(self.cast(v.re, part), self.cast(v.im, part))
        if isinstance(v, Undef):
            return ComplexValue(Undef(part), Undef(part))
        return ComplexValue(self.cast(v, part), self.const(part, 0.0))

    def complex_value(self, c: ci.Cursor) -> ComplexValue:
        v = self.rvalue(c)
        return v if isinstance(v, ComplexValue) else self.to_complex(v, self.ir_type(c))

    def cast(self, v: Value, to: Type) -> Value:
        if complex_part(to) is not None:
            return self.to_complex(v, to)
        if isinstance(v, ComplexValue):
            return super().cast(v.re, to)  # C: the imaginary part is discarded
        return super().cast(v, to)

    def convert(self, v: Value, to_ct: ci.Type, c: ci.Cursor) -> Value:
        if is_complex_ctype(to_ct):
            return self.to_complex(v, self.ir_type(c, to_ct))
        if isinstance(v, ComplexValue):
            kind = to_ct.get_canonical().kind
            if kind == TK.VOID:
                return v
            if kind == TK.BOOL:
                return self.cast(self.truth(v), I8)
            v = v.re
        return super().convert(v, to_ct, c)

    def truth(self, v: Value) -> Value:
        if isinstance(v, ComplexValue):
            return self.bld().binop("or", super().truth(v.re), super().truth(v.im))
        return super().truth(v)

    def compare(self, op: str, a: Value, b: Value) -> Value:
        if not isinstance(a, ComplexValue) and not isinstance(b, ComplexValue):
            return super().compare(op, a, b)
        t = complex_of(usual_arithmetic(real_type(a.type), real_type(b.type)))
        za, zb = self.to_complex(a, t), self.to_complex(b, t)
        assert op in ("==", "!="), op  # C has no other comparison of complex values
        re, im = (super(ComplexLowerer, self).compare(op, za.part(p), zb.part(p)) for p in PARTS)
        return self.bld().binop("and" if op == "==" else "or", re, im)

    # -- variables and memory --------------------------------------------------------------
    def declare_ssa(self, key: Hashable, name: str, ir: Type) -> Var:
        part = complex_part(ir)
        if part is None:
            return super().declare_ssa(key, name, ir)
        var = Var(key, name, ir)
        self.vars[key] = var
        for p in PARTS:
            self.ssa.declare((key, p), part, f"{name}.{p}")
        return var

    @staticmethod
    def part_var(var: Var, which: str) -> Var:
        """One part of a complex SSA variable, as a variable of its own."""
        part = complex_part(var.ir)
        assert part is not None and not var.in_memory
        return Var((var.key, which), f"{var.name}.{which}", part)

    def read_var(self, var: Var) -> Value:
        if complex_part(var.ir) is None or var.in_memory:
            return super().read_var(var)
        return ComplexValue(
            *(super(ComplexLowerer, self).read_var(self.part_var(var, p)) for p in PARTS)
        )

    def write_var(self, var: Var, value: Value) -> None:
        if complex_part(var.ir) is None or var.in_memory:
            super().write_var(var, value)
            return
        z = self.to_complex(value, var.ir)
        for p in PARTS:
            super().write_var(self.part_var(var, p), z.part(p))

    def part_address(self, ptr: Value, which: str) -> Value:
        assert isinstance(ptr.type, PtrType)
        part = complex_part(ptr.type.pointee)
        assert part is not None, ptr.type
        return self.bld().field_addr(ptr, which, PtrType(part), which)

    def load(self, lv: LValue, c: ci.Cursor | None) -> Value:
        if complex_part(lv.ir) is None or lv.var is not None:
            return super().load(lv, c)
        assert lv.ptr is not None
        return ComplexValue(*(self.bld().load(self.part_address(lv.ptr, p)) for p in PARTS))

    def store(self, lv: LValue, v: Value, at: ci.Cursor | None = None) -> None:
        if complex_part(lv.ir) is None:
            super().store(lv, v, at)
            return
        z = self.to_complex(v, lv.ir)
        if lv.var is not None:
            self.write_var(lv.var, z)
            return
        assert lv.ptr is not None
        for p in PARTS:
            self.bld().store(z.part(p), self.part_address(lv.ptr, p))

    # -- operators --------------------------------------------------------------------------
    def operand(self, c: ci.Cursor) -> Value:
        """An operand of complex ``+ - * /``: complex, or real when C keeps it
        real (an implicit conversion of a real to complex is looked through)."""
        if _implicit_cmplx(c) is None and _real_made_complex(c):
            part = complex_part(self.ir_type(c))
            assert part is not None
            return self.cast(self.rvalue(children(c)[0]), part)
        return self.rvalue(c)

    def visit_BINARY_OPERATOR(self, c: ci.Cursor) -> Value:
        op = binary_op(c)
        if is_complex_ctype(c.type) and op in ("+", "-", "*", "/"):
            lhs, rhs = children(c)
            part = complex_part(self.ir_type(c))
            assert part is not None
            return self.complex_arith(op, self.operand(lhs), self.operand(rhs), part, c)
        return super().visit_BINARY_OPERATOR(c)

    def visit_COMPOUND_ASSIGNMENT_OPERATOR(self, c: ci.Cursor) -> Value:
        lhs, rhs = children(c)
        if not is_complex_ctype(lhs.type) and not is_complex_ctype(rhs.type):
            return super().visit_COMPOUND_ASSIGNMENT_OPERATOR(c)
        op = binary_op(c)[:-1]
        lv = self.lvalue(lhs)
        r = self.operand(rhs)
        old = self.load(lv, c)
        # the computation type (C11 6.5.16.2), in the domain of each operand
        part = usual_arithmetic(real_type(old.type), real_type(r.type))
        assert isinstance(part, FloatType)
        new = self.convert(self.complex_arith(op, old, r, part, c), lhs.type, c)
        self.store(lv, new)
        return self.cast(new, lv.ir)

    def complex_arith(
        self, op: str, a: Value, b: Value, part: FloatType, c: ci.Cursor
    ) -> ComplexValue:
        """``a op b`` with at least one complex operand, parts of type ``part``."""
        a, b = self.in_part_type(a, part), self.in_part_type(b, part)
        za = a if isinstance(a, ComplexValue) else None
        zb = b if isinstance(b, ComplexValue) else None
        if za is None and zb is None:  # both real: C made neither complex
            za = self.to_complex(a, complex_of(part))
        bld = self.bld()
        if op in ("+", "-"):
            return self.add_sub(op, a, b)
        if op == "*":
            if za is not None and zb is not None:
                return self.multiply(za, zb, c)
            z, x = (za, b) if za is not None else (zb, a)
            assert z is not None
            first = (lambda p: bld.mul(p, x)) if za is not None else (lambda p: bld.mul(x, p))
            return ComplexValue(first(z.re), first(z.im))
        if op == "/":
            if zb is None:
                assert za is not None
                return ComplexValue(bld.binop("div", za.re, b), bld.binop("div", za.im, b))
            return self.library("cdiv", [za or self.to_complex(a, complex_of(part)), zb], c)
        raise unsupported(f"operator '{op}' on complex values in simd loop", c)

    def in_part_type(self, v: Value, part: FloatType) -> Value:
        if isinstance(v, ComplexValue):
            return self.to_complex(v, complex_of(part))
        return self.cast(v, part)

    def add_sub(self, op: str, a: Value, b: Value) -> ComplexValue:
        bld = self.bld()
        name = "add" if op == "+" else "sub"
        if isinstance(a, ComplexValue) and isinstance(b, ComplexValue):
            return ComplexValue(bld.binop(name, a.re, b.re), bld.binop(name, a.im, b.im))
        if isinstance(a, ComplexValue):
            return ComplexValue(bld.binop(name, a.re, b), a.im)
        assert isinstance(b, ComplexValue)
        im = b.im if op == "+" else bld.unop("neg", b.im)
        return ComplexValue(bld.binop(name, a, b.re), im)

    def multiply(self, a: ComplexValue, b: ComplexValue, c: ci.Cursor) -> ComplexValue:
        """The product as gcc and clang compute it: the formula, and where
        both of its parts are NaN, libgcc's Annex G recovery (a per-lane call
        under a divergent branch: the usual case pays a test)."""
        bld = self.bld()
        re = bld.sub(bld.mul(a.re, b.re), bld.mul(a.im, b.im), "cmul.re")
        im = bld.add(bld.mul(a.re, b.im), bld.mul(a.im, b.re), "cmul.im")
        both_nan = bld.binop("and", bld.cmp("ne", re, re), bld.cmp("ne", im, im), "cmul.nan")
        recover, end = self.new_block("cmul.nan"), self.new_block("cmul.end")
        first = self.cur()
        self.branch(both_nan, recover, end, at=c)
        self.ssa.seal(recover)
        self.set_block(recover)
        annex_g = self.library("cmul", [a, b], c)
        last = self.cur()
        self.jump(end)
        self.ssa.seal(end)
        self.set_block(end)
        parts = []
        for p, formula in (("re", re), ("im", im)):
            phi = self.bld().phi(re.type, f"cmul.{p}")
            phi.add_incoming(formula, first)
            phi.add_incoming(annex_g.part(p), last)
            parts.append(phi)
        return ComplexValue(*parts)

    def library(self, base: str, operands: list[ComplexValue], c: ci.Cursor) -> ComplexValue:
        """Two pure calls of the helpers of ``base`` (one per part of its result)."""
        part = operands[0].re.type
        assert isinstance(part, FloatType)
        args = [v for z in operands for v in (z.re, z.im)]
        results = []
        for p in PARTS:
            call = self.bld().call(complex_call(base, part, p).name, args, part, True)
            assert isinstance(call, Call)
            call.loc = location(c)
            results.append(call)
        return ComplexValue(*results)

    def visit_UNARY_OPERATOR(self, c: ci.Cursor) -> Value:
        op = unary_op(c)
        if op in ("__real", "__imag"):
            return self.part_of(c, "re" if op == "__real" else "im")
        if not is_complex_ctype(c.type) or op in ("*", "&", "+", "__extension__"):
            return super().visit_UNARY_OPERATOR(c)
        x = children(c)[0]
        if op == "-":
            z = self.complex_value(x)
            return ComplexValue(self.bld().unop("neg", z.re), self.bld().unop("neg", z.im))
        if op == "~":  # GNU C: the conjugate
            return self.conjugate(self.complex_value(x))
        raise unsupported(
            f"operator '{op.replace('post', '').replace('pre', '')}' on a "
            "complex value in simd loop",
            c,
        )

    def conjugate(self, z: ComplexValue) -> ComplexValue:
        return ComplexValue(z.re, self.bld().unop("neg", z.im))

    def part_of(self, c: ci.Cursor, which: str) -> Value:
        """``__real__ x`` / ``__imag__ x`` (GNU C; of a real x: x and 0)."""
        x = children(c)[0]
        v = self.rvalue(x)
        if isinstance(v, ComplexValue):
            return v.part(which)
        return v if which == "re" else self.const(self.ir_type(c), 0)

    def lv_UNARY_OPERATOR(self, c: ci.Cursor) -> LValue:
        op = unary_op(c)
        if op not in ("__real", "__imag"):
            return super().lv_UNARY_OPERATOR(c)
        x = children(c)[0]
        if not is_complex_ctype(x.type):
            raise unsupported(f"assignment to '{op}__' of a real value in simd loop", c)
        lv = self.lvalue(x)
        which = "re" if op == "__real" else "im"
        part = complex_part(lv.ir)
        assert part is not None
        if lv.var is not None:
            return LValue(part, var=self.part_var(lv.var, which))
        assert lv.ptr is not None
        return LValue(part, ptr=self.part_address(lv.ptr, which))

    def visit_IMAGINARY_LITERAL(self, c: ci.Cursor) -> Value:
        part = complex_part(self.ir_type(c))
        assert part is not None
        return ComplexValue(self.const(part, 0.0), self.cast(self.rvalue(children(c)[0]), part))

    def visit_CONDITIONAL_OPERATOR(self, c: ci.Cursor) -> Value:
        if not is_complex_ctype(c.type):
            return super().visit_CONDITIONAL_OPERATOR(c)
        test, a, b = children(c)
        then_bb, else_bb = self.new_block("cond.true"), self.new_block("cond.false")
        end = self.new_block("cond.end")
        self.branch(self.cond(test), then_bb, else_bb, at=test)
        arms = []
        for bb, arm in ((then_bb, a), (else_bb, b)):
            self.ssa.seal(bb)
            self.set_block(bb)
            z = self.to_complex(self.rvalue(arm), self.ir_type(c))
            arms.append((z, self.cur()))
            self.jump(end)
        self.ssa.seal(end)
        self.set_block(end)
        parts = []
        for p in PARTS:
            phi = self.bld().phi(arms[0][0].re.type, "cond")
            for z, pred in arms:
                phi.add_incoming(z.part(p), pred)
            parts.append(phi)
        return ComplexValue(*parts)

    def visit_UNEXPOSED_EXPR(self, c: ci.Cursor) -> Value:
        call = _implicit_cmplx(c) if is_complex_ctype(c.type) else None
        if call is not None:
            return self.convert(self.cmplx(call), c.type, c)
        return super().visit_UNEXPOSED_EXPR(c)

    def visit_CSTYLE_CAST_EXPR(self, c: ci.Cursor) -> Value:
        if is_complex_ctype(c.type):
            call = _implicit_cmplx([k for k in children(c) if k.kind.is_expression()][-1])
            if call is not None:
                return self.convert(self.cmplx(call), c.type, c)
        return super().visit_CSTYLE_CAST_EXPR(c)

    # -- calls ------------------------------------------------------------------------------
    def visit_CALL_EXPR(self, c: ci.Cursor) -> Value:
        kids = children(c)
        callee = strip_implicit(kids[0])
        decl = callee.referenced if callee.kind == CK.DECL_REF_EXPR else None
        if decl is None or decl.kind != CK.FUNCTION_DECL:
            return super().visit_CALL_EXPR(c)
        name, args = callee.spelling, kids[1:]
        if name in _CMPLX and _implicit_cmplx(c) is not None:
            raise unsupported(
                f"'{name}' used other than as a complex value in simd loop "
                "(glibc defines it for gcc only, so the parser sees a call "
                "of an undeclared function; write __builtin_complex)",
                c,
            )
        if name == "__builtin_complex" and len(args) == 2:
            part = complex_part(self.ir_type(c))
            assert part is not None
            return ComplexValue(*(self.cast(self.rvalue(a), part) for a in args))
        base = name[len("__builtin_") :] if name.startswith("__builtin_") else name
        if decl.get_definition() is None:
            special = self.library_function(base, args, c)
            if special is not None:
                return special
        if is_complex_ctype(c.type) or any(is_complex_ctype(a.type) for a in args):
            return self.complex_user_call(c, name, decl, args)
        return super().visit_CALL_EXPR(c)

    def library_function(self, base: str, args: list[ci.Cursor], c: ci.Cursor) -> Value | None:
        """A <complex.h> function (``crealf``, ``cexp``, ``__builtin_cabs``),
        or None when ``base`` names none (or not with these arguments)."""
        double = base[:-1] if base.endswith("f") and base[:-1] in _LIBRARY else base
        arity = _LIBRARY.get(double)
        if arity is None or len(args) != arity or not all(is_complex_ctype(a.type) for a in args):
            return None
        zs = [self.complex_value(a) for a in args]
        z = zs[0]
        part = z.re.type
        f = "f" if part == F32 else ""
        bld = self.bld()
        if double in ("creal", "cimag"):
            return z.re if double == "creal" else z.im
        if double == "conj":
            return self.conjugate(z)
        if double in ("cabs", "carg"):
            args_ = [z.re, z.im] if double == "cabs" else [z.im, z.re]
            call = bld.call(("hypot" if double == "cabs" else "atan2") + f, args_, part, True)
            assert isinstance(call, Call)
            call.loc = location(c)
            return call
        return self.library(double, zs, c)

    def cmplx(self, call: ci.Cursor) -> ComplexValue:
        """``CMPLX(x, y)``: ``__builtin_complex((double)(x), (double)(y))`` as
        glibc defines it for gcc (``CMPLXF``: float)."""
        name = strip_implicit(children(call)[0]).spelling
        part = F32 if name == "CMPLXF" else F64
        args = children(call)[1:]
        if len(args) != 2:
            raise unsupported(f"'{name}' takes two arguments", call)
        return ComplexValue(*(self.cast(self.rvalue(a), part) for a in args))

    def complex_user_call(
        self, c: ci.Cursor, name: str, decl: ci.Cursor, args: list[ci.Cursor]
    ) -> Value:
        """A call of a function with complex parameters or result: inlined
        (parameters as two arguments each, the result through a slot of
        two parts, lower_callee.py), or Unsupported."""
        extra, why = (
            ([], "no body to inline") if self.calls is None else self.calls.operands(decl, name)
        )
        if why:
            raise unsupported(
                f"complex argument or result in call to '{name}' in simd loop ({why})", c
            )
        values: list[Value] = []
        for a in args:
            if is_complex_ctype(a.type):
                z = self.complex_value(a)
                values += [z.re, z.im]
            elif a.type.get_canonical().kind == TK.RECORD:
                values.append(self.struct_argument(a, args))
            else:
                values.append(self.rvalue(a))
        result = self.ir_type(c) if c.type.get_canonical().kind != TK.VOID else VOID
        part = complex_part(result)
        slot = None
        if part is not None:
            slot = self.alloca(ArrayType(part, 2), "result")
        elif c.type.get_canonical().kind == TK.RECORD:
            slot = self.alloca(result, "result")
        ret = VOID if slot is not None else result
        call = self.bld().call(name, values + ([slot] if slot else []) + extra, ret, False)
        assert isinstance(call, Call)
        call.loc = location(c)
        if part is None:
            return slot if slot is not None else call
        assert slot is not None
        return ComplexValue(
            *(self.bld().load(self.bld().gep(slot, Constant(I64, k))) for k in (0, 1))
        )

    # -- functions inlined into the region (lower_callee.py) ------------------------------
    def bind_complex_parameter(self, key: Hashable, name: str, ir: Type) -> None:
        """A complex parameter: two arguments, its parts."""
        part = complex_part(ir)
        assert part is not None
        z = ComplexValue(self.fn.add_arg(part, f"{name}.re"), self.fn.add_arg(part, f"{name}.im"))
        if key in self.address_taken:
            ptr = self.alloca(ir, name)
            self.declare_memory(key, name, ir, ptr)
            self.store(LValue(ir, ptr=ptr), z)
            return
        self.write_var(self.declare_ssa(key, name, ir), z)

    def store_result(self, slot: Value, expr: ci.Cursor, c: ci.Cursor) -> None:
        if not is_complex_ctype(expr.type):
            super().store_result(slot, expr, c)
            return
        assert isinstance(slot.type, PtrType)
        part = slot.type.pointee
        z = self.to_complex(self.rvalue(expr), complex_of(part))
        for k, p in enumerate(PARTS):
            self.bld().store(z.part(p), self.bld().gep(slot, Constant(I64, k)))


_LIBRARY: dict[str, int] = {
    "creal": 1,
    "cimag": 1,
    "conj": 1,
    "cabs": 1,
    "carg": 1,
    **{f: 1 for f in LIBRARY_FUNCTIONS},
    **{f: 2 for f in BINARY_LIBRARY_FUNCTIONS},
}
"""<complex.h> functions (double names) and their number of complex arguments."""


_CMPLX = ("CMPLX", "CMPLXF")
"""glibc's macros for a complex value from its parts (see ``_implicit_cmplx``)."""


def _real_made_complex(c: ci.Cursor) -> bool:
    """An implicit conversion of a real value to complex (clang's AST)."""
    if c.kind != CK.UNEXPOSED_EXPR or not is_complex_ctype(c.type):
        return False
    kids = children(c)
    return (
        len(kids) == 1
        and not is_complex_ctype(kids[0].type)
        and kids[0].type.get_canonical().kind != TK.VOID
    )


def _implicit_cmplx(c: ci.Cursor) -> ci.Cursor | None:
    """The call under implicit conversions when it is glibc's ``CMPLX`` or
    ``CMPLXF``, which <complex.h> defines only when ``__GNUC_PREREQ (4, 7)``:
    the parser (libclang, a clang reporting gcc 4.2) sees an implicitly
    declared function returning int, gcc a complex value.  Only a chain of
    conversions that ends in a complex type is gcc's value for certain
    (``CMPLX(x, y) * 2.0`` is a double to the parser, complex to gcc): the
    lowering takes the call there and refuses it anywhere else."""
    inner = strip_implicit(c)
    if inner.kind != CK.CALL_EXPR:
        return None
    kids = children(inner)
    callee = strip_implicit(kids[0]) if kids else None
    if callee is None or callee.kind != CK.DECL_REF_EXPR or callee.spelling not in _CMPLX:
        return None
    decl = callee.referenced
    if decl is None or decl.type.kind != TK.FUNCTIONNOPROTO or decl.is_definition():
        return None
    return inner
