"""Lowering of C expressions (libclang cursors) to IR, with SSA variables.

clang makes every implicit conversion explicit: integer promotions, the
usual arithmetic conversions, lvalue-to-rvalue loads and array decay all
appear as implicit casts (``UNEXPOSED_EXPR`` with one child).  So the
lowering follows the AST: an implicit cast over an lvalue is a load (or a
decay for arrays), any other implicit cast is a C conversion to its type.
The one conversion clang leaves implicit is the computation type of a
compound assignment (``c += 1`` with ``char c`` computes in ``int``); lower_ops
rebuilds it with ``promote``/``usual_arithmetic``.

Three entry points per expression: ``rvalue`` (its value), ``lvalue`` (where
it lives: an SSA variable or an address) and ``cond`` (lower_ops: its truth
as an ``i1``, so that ``if (a < b)`` needs no int round trip).  Dispatch is on the
cursor kind: ``visit_<KIND>`` for values, ``lv_<KIND>`` for lvalues; a kind
without a method is Unsupported, naming it.

Operators (arithmetic, assignments, comparisons, ``?:``, ``&&``, ``||``)
are in lower_ops.py, statements in lower_stmt.py.
"""

from __future__ import annotations

import struct
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import clang.cindex as ci

from ..diagnostics import Unsupported
from ..ir.builder import IRBuilder
from ..ir.ssa import SSABuilder
from ..ir.types import (
    F32,
    I1,
    I8,
    I32,
    I64,
    VOID,
    ArrayType,
    FloatType,
    IntType,
    PtrType,
    StructType,
    Type,
)
from ..ir.values import Block, Call, Constant, Function, Phi, Undef, Value
from .lower_clang import (
    binary_op,
    children,
    construct_name,
    decl_key,
    declaration,
    evaluate,
    is_anonymous_record,
    is_lvalue_kind,
    location,
    strip_implicit,
    unary_op,
    unsupported,
    walk_preorder,
)
from .lower_types import TypeMapper, is_bool_ctype, is_function_pointer

if TYPE_CHECKING:
    from .lower_callee import CallLowering

CK = ci.CursorKind
TK = ci.TypeKind

# math.h functions lowered as pure calls (no memory access, no errno reliance).
_MATH = """
    sqrt fabs fmin fmax floor ceil trunc round fma exp log pow sin cos tan atan atan2 exp2
    log2 log10 cbrt erf tanh asin acos sinh cosh expm1 log1p hypot copysign rint nearbyint
    fmod
""".split()
PURE_FUNCTIONS = frozenset(_MATH + [f + "f" for f in _MATH])

_CONST_KINDS = (CK.INTEGER_LITERAL, CK.FLOATING_LITERAL, CK.CHARACTER_LITERAL, CK.CXX_UNARY_EXPR)
_FOLDABLE = (
    CK.BINARY_OPERATOR,
    CK.UNARY_OPERATOR,
    CK.PAREN_EXPR,
    CK.UNEXPOSED_EXPR,
    CK.CSTYLE_CAST_EXPR,
    CK.CONDITIONAL_OPERATOR,
)


@dataclass
class Var:
    """A C variable visible in the region."""

    key: Hashable
    name: str
    ir: Type
    """IR type of the object (an ArrayType or StructType for aggregates)."""
    ptr: Value | None = None
    """For variables in memory: their address (arrays: possibly decayed)."""

    @property
    def in_memory(self) -> bool:
        return self.ptr is not None


@dataclass
class LValue:
    """Where an lvalue lives: an SSA variable or an address."""

    ir: Type
    var: Var | None = None
    ptr: Value | None = None


class ExprLowerer:
    """State shared by expression and statement lowering."""

    def __init__(self, fn: Function, types: TypeMapper, address_taken: set[Hashable]) -> None:
        self.fn = fn
        self.types = types
        self.address_taken = address_taken
        self.ssa = SSABuilder()
        self.assigned_flags: dict[Hashable, Hashable] = {}
        """Variable -> its "assigned in this iteration" flag (lastprivate)."""
        self.vars: dict[Hashable, Var] = {}
        self.b = IRBuilder()
        self.block: Block | None = None
        self.entry = self.new_block("entry")
        self.set_block(self.entry)
        self.ssa.seal(self.entry)
        self.alloca_builder = IRBuilder()
        self.n_allocas = 0
        self.calls: CallLowering | None = None
        """How calls of functions with a body here are lowered
        (lower_callee.CallLowering; None: as plain calls)."""
        self.constant_memo: dict[ci.Cursor, bool] = {}
        """``_constant_tree`` per expression: ``_fold`` asks at every level of
        an expression tree, so without it a deep tree costs quadratic time."""

    # -- blocks ------------------------------------------------------------------------
    def new_block(self, name: str) -> Block:
        """A block not yet in the layout: it is placed when first entered."""
        block = Block(name)
        self.ssa.add_block(block)
        return block

    def set_block(self, block: Block) -> None:
        if block.function is None:
            self.fn.add_block(block)
        self.block = block
        self.b.at_end(block)

    def cur(self) -> Block:
        """The current block; code after a jump goes to a fresh unreachable one."""
        if self.block is None:
            dead = self.new_block("dead")
            self.ssa.seal(dead)
            self.set_block(dead)
        assert self.block is not None
        return self.block

    def bld(self) -> IRBuilder:
        """The builder at the end of the current block.  Repositioned on each
        use because SSA construction inserts phis at block starts behind
        the builder's back."""
        self.b.at_end(self.cur())
        return self.b

    def jump(self, target: Block) -> None:
        if self.block is None:
            return
        self.ssa.add_edge(self.block, target)
        self.bld().br(target)
        self.block = None

    def branch(
        self, cond: Value, if_true: Block, if_false: Block, at: ci.Cursor | None = None
    ) -> None:
        """Branch on ``cond``; ``at``: the condition's cursor (its location
        goes on the branch, for the report)."""
        block = self.cur()
        self.ssa.add_edge(block, if_true)
        self.ssa.add_edge(block, if_false)
        term = self.bld().condbr(cond, if_true, if_false)
        if at is not None:
            term.loc = location(at)
        self.block = None

    # -- variables ---------------------------------------------------------------------
    def declare_ssa(self, key: Hashable, name: str, ir: Type) -> Var:
        var = Var(key, name, ir)
        self.vars[key] = var
        self.ssa.declare(key, ir, name)
        return var

    def declare_memory(self, key: Hashable, name: str, ir: Type, ptr: Value) -> Var:
        var = Var(key, name, ir, ptr)
        self.vars[key] = var
        return var

    def alloca(self, ir: Type, name: str) -> Value:
        """A private stack object, placed at the start of the entry block."""
        self.alloca_builder.block = self.entry
        self.alloca_builder.index = self.n_allocas
        p = self.alloca_builder.alloca(ir, name)
        self.n_allocas += 1
        if isinstance(ir, ArrayType):
            # Arrays are used decayed; decay once, right after the alloca.
            p = self.alloca_builder.cast(p, PtrType(ir.elem), name)
            self.n_allocas += 1
        return p

    def read_var(self, var: Var) -> Value:
        return self.ssa.read(var.key, self.cur())

    def write_var(self, var: Var, value: Value) -> None:
        if (
            not value.name
            and not isinstance(value, (Constant, Undef))
            and not isinstance(value, Phi)
        ):
            value.name = var.name
        self.ssa.write(var.key, self.cur(), value)
        flag = self.assigned_flags.get(var.key)
        if flag is not None:
            self.ssa.write(flag, self.cur(), Constant(I1, 1))

    def track_assignments(self, key: Hashable, name: str) -> None:
        """Keep an ``i1`` SSA variable telling whether the iteration assigned
        the variable ``key`` (false at the start; lastprivate needs it)."""
        flag = ("assigned", key)
        self.assigned_flags[key] = flag
        self.ssa.declare(flag, I1, f"{name}.set")
        self.ssa.write(flag, self.cur(), Constant(I1, 0))

    def var_of(self, c: ci.Cursor) -> Var:
        ref = c.referenced
        if ref is None:
            raise unsupported(f"{construct_name(c)} in simd loop", c)
        var = self.vars.get(decl_key(ref))
        if var is None:
            raise unsupported(f"variable '{ref.spelling}' is not available in the simd loop", c)
        return var

    # -- types and constants -------------------------------------------------------------
    def ir_type(self, c: ci.Cursor, t: ci.Type | None = None) -> Type:
        return self.types.map(c.type if t is None else t, location(c))

    @staticmethod
    def const(t: Type, value: int | float) -> Constant:
        if isinstance(t, IntType):
            return Constant(t, wrap_int(int(value), t))
        if isinstance(t, FloatType):
            return Constant(t, _round_float(float(value), t))
        return Constant(t, value)

    def cast(self, v: Value, to: Type) -> Value:
        """C conversion, folded for constants; integer 0 to a pointer is null."""
        if isinstance(to, ArrayType):
            # an array-typed parameter (``const double m[5]``) is a pointer
            to = PtrType(to.elem)
        if v.type == to:
            return v
        if isinstance(v, Constant) and isinstance(v.type, PtrType) and isinstance(to, PtrType):
            return Constant(to, v.value)  # null of another pointer type
        if isinstance(v, Constant) and not isinstance(v.type, PtrType):
            if isinstance(to, PtrType):
                if v.value == 0:
                    return Constant(to, 0)
            elif isinstance(to, IntType) and isinstance(v.type, IntType):
                return self.const(to, int(v.value))
            elif isinstance(to, FloatType):
                return self.const(to, float(v.value))
            elif (
                isinstance(to, IntType)
                and to.bits > 1
                and isinstance(v.value, float)
                and v.value == v.value
                and abs(v.value) < 2.0 ** (to.bits - 1)
            ):
                return self.const(to, int(v.value))
        return self.bld().cast(v, to)

    def truth(self, v: Value) -> Value:
        """``v != 0`` as an i1 (C's truth value of a scalar)."""
        if v.type == I1:
            return v
        if isinstance(v, Constant):
            return Constant(I1, 1 if v.value else 0)
        zero = Constant(v.type, 0.0 if isinstance(v.type, FloatType) else 0)
        return self.bld().cmp("ne", v, zero)

    def convert(self, v: Value, to_ct: ci.Type, c: ci.Cursor) -> Value:
        """Convert a value to the C type ``to_ct`` (_Bool: compare with 0)."""
        canon = to_ct.get_canonical()
        if canon.kind == TK.VOID:
            return v
        if canon.kind == TK.BOOL:
            return self.cast(self.truth(v), I8)
        if canon.kind == TK.RECORD:
            raise unsupported("struct value in simd loop", c)
        return self.cast(v, self.ir_type(c, to_ct))

    # -- dispatch --------------------------------------------------------------------------
    def rvalue(self, c: ci.Cursor) -> Value:
        """The value of an expression."""
        folded = self._fold(c)
        if folded is not None:
            return folded
        method = getattr(self, "visit_" + c.kind.name, None)
        if method is None:
            raise unsupported(f"{construct_name(c)} in simd loop", c)
        return method(c)

    def lvalue(self, c: ci.Cursor) -> LValue:
        """Where the object an lvalue expression designates lives."""
        method = getattr(self, "lv_" + c.kind.name, None)
        if method is None:
            raise unsupported(f"{construct_name(c)} as the target of an assignment in simd loop", c)
        return method(c)

    def effect(self, c: ci.Cursor) -> None:
        """Evaluate an expression for its side effects only."""
        if c.kind == CK.CONDITIONAL_OPERATOR or is_void_expr(c):
            self.rvalue(c)
            return
        if c.type.get_canonical().kind == TK.RECORD and c.kind != CK.BINARY_OPERATOR:
            if strip_implicit(c).kind == CK.CALL_EXPR:
                self.visit_CALL_EXPR(strip_implicit(c))
            return
        self.rvalue(c)

    def _fold(self, c: ci.Cursor) -> Value | None:
        if (
            c.kind not in _CONST_KINDS
            and (c.kind not in _FOLDABLE or not _constant_tree(c, self.constant_memo))
            and not (
                c.kind == CK.DECL_REF_EXPR
                and c.referenced is not None
                and c.referenced.kind == CK.ENUM_CONSTANT_DECL
            )
        ):
            return None
        if c.type.get_canonical().kind not in _ARITH_KINDS:
            return None
        value = evaluate(c)
        if value is None:
            return None
        t = self.ir_type(c)
        if is_bool_ctype(c.type):
            value = 1 if value else 0
        return self.const(t, value)

    # -- lvalues -----------------------------------------------------------------------------
    def lv_PAREN_EXPR(self, c: ci.Cursor) -> LValue:
        return self.lvalue(children(c)[0])

    def lv_DECL_REF_EXPR(self, c: ci.Cursor) -> LValue:
        var = self.var_of(c)
        if var.in_memory:
            return LValue(var.ir, ptr=var.ptr)
        return LValue(var.ir, var=var)

    def lv_ARRAY_SUBSCRIPT_EXPR(self, c: ci.Cursor) -> LValue:
        base, index = children(c)
        if _pointerish(index) and not _pointerish(base):
            base, index = index, base  # i[a]
        p = self.rvalue(base)
        i = self.index(self.rvalue(index))
        return LValue(self.ir_type(c), ptr=self.bld().gep(p, i))

    def lv_MEMBER_REF_EXPR(self, c: ci.Cursor) -> LValue:
        ref = c.referenced
        if ref is not None and ref.is_bitfield():
            raise unsupported(f"bit-field '{c.spelling}' in simd loop", c)
        base = children(c)[0]
        if base.type.get_canonical().kind == TK.POINTER:  # p->f
            p = self.rvalue(base)
        else:  # s.f
            p = self.address(self.lvalue(base), c)
        st = p.type.pointee if isinstance(p.type, PtrType) else None
        if not isinstance(st, StructType):
            raise unsupported(f"member access '{c.spelling}' of a non-struct in simd loop", c)
        if ref is not None and _anonymous_member(ref):
            # ``s.x`` with x in an anonymous struct member: clang shows the
            # implicit access to the anonymous member; its fields are fields
            # of the enclosing struct (lower_types), at offsets from it.
            return LValue(st, ptr=p)
        field = next((f for f in st.fields if f.name == c.spelling), None)
        if field is None:
            raise unsupported(
                f"member '{c.spelling}' of '{st.c_spelling or st.name}' in simd loop", c
            )
        ftype = field.type
        # Array members decay in ``fieldaddr`` (the IR's convention).
        result = PtrType(ftype.elem if isinstance(ftype, ArrayType) else ftype)
        return LValue(ftype, ptr=self.bld().field_addr(p, c.spelling, result, c.spelling))

    def lv_UNARY_OPERATOR(self, c: ci.Cursor) -> LValue:
        if unary_op(c) != "*":
            raise unsupported(f"operator '{unary_op(c)}' is not an lvalue", c)
        p = self.rvalue(children(c)[0])
        if not isinstance(p.type, PtrType):
            raise unsupported("dereference of a non-pointer in simd loop", c)
        return LValue(self.ir_type(c), ptr=p)

    def lv_UNEXPOSED_EXPR(self, c: ci.Cursor) -> LValue:
        kids = children(c)
        if len(kids) == 1 and is_lvalue_kind(kids[0]):
            return self.lvalue(kids[0])
        raise unsupported("unsupported construct 'UNEXPOSED_EXPR' as an lvalue in simd loop", c)

    def lv_COMPOUND_LITERAL_EXPR(self, c: ci.Cursor) -> LValue:
        raise unsupported("compound literal in simd loop", c)

    def lv_STRING_LITERAL(self, c: ci.Cursor) -> LValue:
        raise unsupported("string literal in simd loop", c)

    def address(self, lv: LValue, c: ci.Cursor) -> Value:
        if lv.ptr is None:
            raise unsupported("address of a register variable in simd loop", c)
        return lv.ptr

    def decay(self, lv: LValue, c: ci.Cursor) -> Value:
        """Array to pointer to its first element."""
        p = self.address(lv, c)
        assert isinstance(lv.ir, ArrayType) and isinstance(p.type, PtrType)
        if p.type.pointee == lv.ir:
            return self.cast(p, PtrType(lv.ir.elem))
        return p

    def load(self, lv: LValue, c: ci.Cursor | None) -> Value:
        """Read ``lv``; ``c``: the expression reading it (None: a read the
        lowering adds, of a variable's final value)."""
        if lv.var is not None:
            return self.read_var(lv.var)
        if isinstance(lv.ir, (StructType, ArrayType)):
            raise Unsupported(
                "struct or array value in simd loop", location(c) if c is not None else None
            )
        assert lv.ptr is not None
        load = self.bld().load(lv.ptr)
        if c is not None:
            load.loc = location(c)
        return load

    def store(self, lv: LValue, v: Value, at: ci.Cursor | None = None) -> None:
        """Write ``v`` to ``lv``; ``at``: the expression doing it (the store's
        place in the source)."""
        v = self.cast(v, lv.ir)
        if lv.var is not None:
            self.write_var(lv.var, v)
        else:
            assert lv.ptr is not None
            store = self.bld().store(v, lv.ptr)
            if at is not None:
                store.loc = location(at)

    def index(self, v: Value) -> Value:
        """An address index as i64 (C converts the integer, sign from its type)."""
        return self.cast(v, I64)

    # -- leaves --------------------------------------------------------------------------------
    def visit_UNEXPOSED_EXPR(self, c: ci.Cursor) -> Value:
        kids = children(c)
        if len(kids) == 1 and kids[0].kind == CK.COMPOUND_STMT:
            raise unsupported("statement expression in simd loop", c)
        if len(kids) != 1:
            raise unsupported("unsupported construct 'UNEXPOSED_EXPR' in simd loop", c)
        child = kids[0]
        ckind = child.type.get_canonical().kind
        if ckind in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO):
            raise unsupported("function pointer in simd loop", c)
        if is_lvalue_kind(child):
            lv = self.lvalue(child)
            if lv.var is not None:  # also array parameters: pointers in SSA
                return self.read_var(lv.var)
            if isinstance(lv.ir, ArrayType):
                return self.decay(lv, c)
            if ckind == TK.INCOMPLETEARRAY:
                return self.address(lv, c)
            return self.load(lv, c)
        return self.convert(self.rvalue(child), c.type, c)

    def visit_PAREN_EXPR(self, c: ci.Cursor) -> Value:
        return self.rvalue(children(c)[0])

    def visit_DECL_REF_EXPR(self, c: ci.Cursor) -> Value:
        ref = c.referenced
        if ref is not None and ref.kind == CK.FUNCTION_DECL:
            raise unsupported("function pointer in simd loop", c)
        return self.load(self.lv_DECL_REF_EXPR(c), c)

    def visit_StmtExpr(self, c: ci.Cursor) -> Value:
        raise unsupported("statement expression in simd loop", c)

    def visit_STRING_LITERAL(self, c: ci.Cursor) -> Value:
        raise unsupported("string literal in simd loop", c)

    def visit_COMPOUND_LITERAL_EXPR(self, c: ci.Cursor) -> Value:
        raise unsupported("compound literal in simd loop", c)

    def visit_CXX_UNARY_EXPR(self, c: ci.Cursor) -> Value:
        raise unsupported("sizeof of a variable-length array in simd loop", c)

    def visit_INIT_LIST_EXPR(self, c: ci.Cursor) -> Value:
        raise unsupported("initializer list outside a declaration in simd loop", c)

    def visit_ARRAY_SUBSCRIPT_EXPR(self, c: ci.Cursor) -> Value:
        return self.load(self.lvalue(c), c)

    def visit_MEMBER_REF_EXPR(self, c: ci.Cursor) -> Value:
        return self.load(self.lvalue(c), c)

    def visit_CSTYLE_CAST_EXPR(self, c: ci.Cursor) -> Value:
        operand = [k for k in children(c) if k.kind.is_expression()][-1]
        if is_void_expr(c):
            self.effect(operand)
            return Undef(VOID)
        return self.convert(self.rvalue(operand), c.type, c)

    # -- calls --------------------------------------------------------------------------------
    def visit_CALL_EXPR(self, c: ci.Cursor) -> Value:
        kids = children(c)
        callee = strip_implicit(kids[0])
        if self.is_named_pointer(callee):
            return self.call_through_pointer(c, callee.spelling, kids[1:])
        if (
            callee.kind != CK.DECL_REF_EXPR
            or callee.referenced is None
            or callee.referenced.kind != CK.FUNCTION_DECL
        ):
            raise unsupported("call through a function pointer in simd loop", c)
        name = callee.spelling
        if name.startswith("__builtin_"):
            special = self.builtin(c, name[len("__builtin_") :], kids[1:])
            if special is not None:
                return special
            if name[len("__builtin_") :] in PURE_FUNCTIONS:
                name = name[len("__builtin_") :]
        ret_kind = c.type.get_canonical().kind
        ret = VOID if ret_kind in (TK.VOID, TK.RECORD) else self.ir_type(c)
        pure = name in PURE_FUNCTIONS and ret != VOID
        extra, not_inlined = [], ""
        if self.calls is not None and not pure:
            extra, not_inlined = self.calls.operands(callee.referenced, name)
        records = [a for a in kids[1:] if a.type.get_canonical().kind == TK.RECORD]
        if records and (self.calls is None or not_inlined):
            raise unsupported(
                f"struct argument in call to '{name}' in simd loop"
                + (f" ({not_inlined})" if not_inlined else ""),
                records[0],
            )
        if ret_kind == TK.RECORD and (self.calls is None or not_inlined):
            raise unsupported(
                f"call to '{name}' returning a struct in simd loop"
                + (f" ({not_inlined})" if not_inlined else ""),
                c,
            )
        # structs go by address: only to calls that are inlined (lower_callee)
        args = [
            self.struct_argument(a, kids[1:]) if a in records else self.rvalue(a) for a in kids[1:]
        ]
        slot = self.alloca(self.ir_type(c), "result") if ret_kind == TK.RECORD else None
        result = self.bld().call(name, args + ([slot] if slot else []) + extra, ret, pure)
        assert isinstance(result, Call)
        result.loc = location(c)
        result.not_inlined = not_inlined
        return slot if slot is not None else result

    def is_named_pointer(self, callee: ci.Cursor) -> bool:
        """A function pointer variable from outside the loop (``fp(x)``):
        the vector code can call it by its name."""
        ref = callee.referenced
        return (
            callee.kind == CK.DECL_REF_EXPR
            and ref is not None
            and ref.kind in (CK.VAR_DECL, CK.PARM_DECL)
            and decl_key(ref) not in self.vars
            and is_function_pointer(ref.type)
            and self.calls is not None
        )

    def call_through_pointer(self, c: ci.Cursor, name: str, args: list[ci.Cursor]) -> Value:
        """A call through a function pointer: lane by lane, never inlined."""
        if (
            any(a.type.get_canonical().kind == TK.RECORD for a in args)
            or c.type.get_canonical().kind == TK.RECORD
        ):
            raise unsupported(
                f"struct argument or result in a call through '{name}' in simd loop", c
            )
        ret = VOID if c.type.get_canonical().kind == TK.VOID else self.ir_type(c)
        call = self.bld().call(name, [self.rvalue(a) for a in args], ret, False)
        assert isinstance(call, Call)
        call.loc = location(c)
        call.not_inlined = f"a call through the function pointer '{name}'"
        if self.calls is not None:  # the name must be visible where it is inlined
            self.calls.plain_calls.add(name)
        return call

    def struct_argument(self, a: ci.Cursor, others: list[ci.Cursor]) -> Value:
        """The address of a struct passed by value: the object itself, or a
        copy when another argument takes the address of the same variable
        (the callee could write it through that pointer and read the copy)."""
        src = self.struct_source(a)
        base = base_variable(a)
        if base is None or not any(takes_address_of(o, base) for o in others if o != a):
            return src
        assert isinstance(src.type, PtrType)
        copy = self.alloca(src.type.pointee, "arg")
        self.copy_struct(copy, src, a)
        return copy

    # -- struct values: OperatorLowerer's (lower_ops) ------------------------------------
    def struct_source(self, c: ci.Cursor) -> Value:
        """The address of a struct-valued expression."""
        raise NotImplementedError

    def copy_struct(self, dst: Value, src: Value, c: ci.Cursor) -> None:
        """Member-wise copy of an aggregate."""
        raise NotImplementedError

    def builtin(self, c: ci.Cursor, name: str, args: list[ci.Cursor]) -> Value | None:
        """The GNU builtins math.h macros expand to (isnan, isinf, ...) and
        ``__builtin_expect``; None for other builtins (then ordinary calls)."""
        if name == "expect" and len(args) == 2:
            return self.convert(self.rvalue(args[0]), c.type, c)
        if name not in ("isnan", "isinf", "isfinite", "isinf_sign", "signbit") or len(args) != 1:
            return None
        x = self.rvalue(args[0])
        if not isinstance(x.type, FloatType):
            raise unsupported(f"'__builtin_{name}' of a non-float in simd loop", c)
        bld = self.bld()
        zero = self.const(x.type, 0.0)
        nan = bld.cmp("ne", x, x)
        # x - x is 0 for finite x and NaN for infinities and NaNs.
        finite = bld.cmp("eq", bld.sub(x, x), zero)
        if name == "signbit":
            raise unsupported("'signbit' in simd loop", c)
        if name == "isnan":
            flag = nan
        elif name == "isfinite":
            flag = finite
        else:
            inf = bld.binop("and", bld.unop("not", nan), bld.unop("not", finite))
            if name == "isinf":
                flag = inf
            else:
                sign = bld.select(bld.cmp("gt", x, zero), self.const(I32, 1), self.const(I32, -1))
                return self.cast(bld.select(inf, sign, self.const(I32, 0)), self.ir_type(c))
        return self.cast(flag, self.ir_type(c))


_ARITH_KINDS = (
    TK.BOOL,
    TK.CHAR_S,
    TK.CHAR_U,
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
    TK.ENUM,
)


def _constant_tree(c: ci.Cursor, memo: dict[ci.Cursor, bool]) -> bool:
    """Whether clang can fold the expression: literals, sizeof, enum
    constants and operators on them (no variables, calls or assignments).
    ``memo`` keeps the answers for subexpressions."""
    known = memo.get(c)
    if known is None:
        known = memo[c] = _constant_node(c, memo)
    return known


def _constant_node(c: ci.Cursor, memo: dict[ci.Cursor, bool]) -> bool:
    k = c.kind
    if k in _CONST_KINDS:
        return True
    if k == CK.DECL_REF_EXPR:
        return c.referenced is not None and c.referenced.kind == CK.ENUM_CONSTANT_DECL
    if k == CK.BINARY_OPERATOR and binary_op(c) in ("=", ","):
        return False
    if k == CK.UNARY_OPERATOR and unary_op(c) not in ("+", "-", "~", "!"):
        return False
    if k in _FOLDABLE or k == CK.TYPE_REF:
        kids = children(c)
        return bool(kids) and all(_constant_tree(x, memo) for x in kids if x.kind != CK.TYPE_REF)
    return False


def _anonymous_member(field: ci.Cursor) -> bool:
    """A FIELD_DECL that is a C11 anonymous struct or union member."""
    if field.kind != CK.FIELD_DECL:
        return False
    t = field.type.get_canonical()
    return t.kind == TK.RECORD and is_anonymous_record(declaration(t))


def base_variable(c: ci.Cursor) -> Hashable | None:
    """The variable an lvalue such as ``s``, ``s.a.b`` or ``s.arr[2]`` is
    part of (None: through a pointer, or no variable)."""
    c = strip_implicit(c)
    while True:
        if c.kind == CK.DECL_REF_EXPR:
            return decl_key(c.referenced) if c.referenced is not None else None
        kids = children(c)
        if (
            c.kind == CK.MEMBER_REF_EXPR
            and kids
            and kids[0].type.get_canonical().kind != TK.POINTER
        ) or (
            c.kind == CK.ARRAY_SUBSCRIPT_EXPR
            and kids
            and kids[0].type.get_canonical().kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY)
        ):
            c = strip_implicit(kids[0])
        elif c.kind == CK.UNEXPOSED_EXPR and len(kids) == 1:
            c = kids[0]
        else:
            return None


def takes_address_of(c: ci.Cursor, var: Hashable) -> bool:
    """Whether expression ``c`` has ``&`` of (a part of) variable ``var``,
    or names an array variable ``var`` (which decays to its address)."""
    for k in walk_preorder(c):
        if (
            k.kind == CK.UNARY_OPERATOR
            and unary_op(k) == "&"
            and base_variable(children(k)[0]) == var
        ):
            return True
        if (
            k.kind == CK.DECL_REF_EXPR
            and k.referenced is not None
            and decl_key(k.referenced) == var
            and k.type.get_canonical().kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY)
        ):
            return True
    return False


def _pointerish(c: ci.Cursor) -> bool:
    return c.type.get_canonical().kind in (
        TK.POINTER,
        TK.CONSTANTARRAY,
        TK.INCOMPLETEARRAY,
        TK.VARIABLEARRAY,
    )


def is_void_expr(c: ci.Cursor) -> bool:
    return c.type.get_canonical().kind == TK.VOID


def wrap_int(value: int, t: IntType) -> int:
    """Two's complement wrap of an integer into the range of type t."""
    if t.bits == 1:
        return value & 1
    mask = (1 << t.bits) - 1
    value &= mask
    if t.signed and value >> (t.bits - 1):
        value -= 1 << t.bits
    return value


def _round_float(value: float, t: FloatType) -> float:
    if t == F32 and value == value and abs(value) != float("inf"):
        try:
            return struct.unpack("f", struct.pack("f", value))[0]
        except OverflowError:
            return float("inf") if value > 0 else float("-inf")
    return value


__all__ = ["PURE_FUNCTIONS", "ExprLowerer", "LValue", "Var", "is_void_expr", "wrap_int"]
