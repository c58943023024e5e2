"""Lowering of C statements to a CFG, with SSA built on the fly.

Blocks are sealed as soon as all their predecessors exist (Braun et al.):

    for (init; cond; inc) body        while (cond) body       do body while (cond)
      init                              br cond                 br body
      br cond                         cond: condbr body, end    body: ... br cond*
    cond: condbr body, end            body: ... br cond*        cond: condbr body, end
    body: ... br inc*                 end:                      end:
    inc: ...; br cond                 (* also the target of continue; break goes to end)
    end:

Every ``if`` is a branch; the transforms decide what to predicate or
speculate (s2s/transform/).

``switch`` becomes a ``switch`` terminator with one block per case label;
fallthrough is a branch into the next label's block.  ``continue`` of the
simd loop itself ends the iteration (a branch to the region's ``ret``
block); ``break``/``return``/``goto`` out of it are Unsupported, like every
statement kind without a ``visit_<KIND>`` method.
"""

from __future__ import annotations

import ctypes
from collections.abc import Hashable
from dataclasses import dataclass

import clang.cindex as ci

from ..deep import is_too_deep
from ..diagnostics import Unsupported
from ..ir.region import ScanHelper
from ..ir.types import I64, ArrayType, FloatType, IntType, PtrType, StructType, Type, complex_part
from ..ir.values import Block, Constant, Function, Undef, Value
from .loop_form import for_parts
from .lower_clang import children, construct_name, decl_key, evaluate, unsupported, var_initializer
from .lower_expr import LValue, wrap_int
from .lower_omp import OmpLowerer
from .lower_types import TypeMapper
from .omp_context import InnerConstruct

CK = ci.CursorKind
TK = ci.TypeKind

NESTED_TOO_DEEPLY = "expression nested too deeply"


@dataclass
class Targets:
    """Where ``break`` and ``continue`` go (None: they would leave the region)."""

    brk: Block | None
    cont: Block | None


class BodyLowerer(OmpLowerer):
    """Lowers the statements of one loop body into ``fn``."""

    def __init__(
        self,
        fn: Function,
        types: TypeMapper,
        address_taken: set[Hashable],
        inner: dict[int, InnerConstruct] | None = None,
    ) -> None:
        super().__init__(fn, types, address_taken)
        self.inner = dict(inner or {})
        self.ordered = {}
        self.scan_vars: list[tuple[Hashable, ScanHelper, Value]] = []
        """Each scan variable's key, helper and total's address (lower.py)."""
        self.ret_block = self.new_block("ret")
        self.result_keys: list[Hashable] = []
        """The variables whose final values ``ret`` returns, in order."""
        """Inner loops in the order they are finished (innermost first)."""
        self.targets: list[Targets] = [Targets(None, self.ret_block)]
        self.case_blocks: dict[int, Block] = {}

    def stmt(self, c: ci.Cursor) -> None:
        """Lower one statement."""
        try:
            construct = self.inner.pop(c.extent.start.offset, None)
            if construct is not None:
                if construct.stmt != c:
                    raise unsupported(
                        f"'#pragma omp {construct.line.name}' does not annotate a statement "
                        "s2svec recognizes",
                        c,
                    )
                self.lower_inner(construct)
                return
            if c.kind.is_expression():
                self.effect(c)
                return
            method = getattr(self, "visit_" + c.kind.name, None)
            if method is None:
                raise unsupported(f"{construct_name(c)} in simd loop", c)
            method(c)
        except (RecursionError, ctypes.ArgumentError) as exc:
            # Beyond s2s.deep.DEPTH_LIMIT (the innermost statement reports it).
            if not is_too_deep(exc):
                raise
            raise unsupported(NESTED_TOO_DEEPLY, c) from None

    # -- simple statements -------------------------------------------------------------------
    def visit_COMPOUND_STMT(self, c: ci.Cursor) -> None:
        for s in children(c):
            self.stmt(s)

    def visit_NULL_STMT(self, c: ci.Cursor) -> None:
        pass

    def visit_DECL_STMT(self, c: ci.Cursor) -> None:
        for d in children(c):
            if d.kind == CK.VAR_DECL:
                self.declare_local(d)
            elif d.kind in (CK.TYPEDEF_DECL, CK.STRUCT_DECL, CK.ENUM_DECL, CK.FUNCTION_DECL):
                continue  # types and prototypes: clang already resolved them
            else:
                raise unsupported(f"{construct_name(d)} in simd loop", d)

    def visit_RETURN_STMT(self, c: ci.Cursor) -> None:
        raise unsupported("'return' leaves the simd loop", c)

    def visit_GCC_ASM_STMT(self, c: ci.Cursor) -> None:
        raise unsupported("inline assembly in simd loop", c)

    visit_ASM_STMT = visit_GCC_ASM_STMT
    visit_MS_ASM_STMT = visit_GCC_ASM_STMT

    def visit_BREAK_STMT(self, c: ci.Cursor) -> None:
        target = self.targets[-1].brk
        if target is None:
            raise unsupported("'break' leaves the simd loop", c)
        self.jump(target)

    def visit_CONTINUE_STMT(self, c: ci.Cursor) -> None:
        target = self.targets[-1].cont
        assert target is not None
        self.jump(target)

    # -- declarations ---------------------------------------------------------------------------
    def declare_local(self, d: ci.Cursor) -> None:
        if d.storage_class in (ci.StorageClass.STATIC, ci.StorageClass.EXTERN):
            raise unsupported(f"static or extern local variable '{d.spelling}' in simd loop", d)
        canon = d.type.get_canonical()
        if canon.kind == TK.VARIABLEARRAY:
            raise unsupported(f"variable-length array '{d.spelling}' in simd loop", d)
        ir = self.ir_type(d)
        key = decl_key(d)
        init = var_initializer(d)
        if _aggregate(ir) or key in self.address_taken:
            ptr = self.alloca(ir, d.spelling)
            self.declare_memory(key, d.spelling, ir, ptr)
            if init is not None:
                self.init_memory(ptr, ir, init)
            return
        var = self.declare_ssa(key, d.spelling, ir)
        if init is None:
            self.write_var(var, self.undef_of(ir))
            return
        if init.kind == CK.INIT_LIST_EXPR:
            items = children(init)
            if len(items) != 1:
                raise unsupported(f"bad scalar initializer of '{d.spelling}'", init)
            init = items[0]
        self.write_var(var, self.convert(self.rvalue(init), d.type, init))

    def lv_COMPOUND_LITERAL_EXPR(self, c: ci.Cursor) -> LValue:
        """``(struct P){1, 2}``: an unnamed local object, like a declaration."""
        init = [k for k in children(c) if k.kind == CK.INIT_LIST_EXPR]
        if len(init) != 1:
            raise unsupported("compound literal in simd loop", c)
        ir = self.ir_type(c)
        ptr = self.alloca(ir, "literal")
        self.init_memory(ptr, ir, init[0])
        return LValue(ir, ptr=ptr)

    def visit_COMPOUND_LITERAL_EXPR(self, c: ci.Cursor) -> Value:
        return self.load(self.lv_COMPOUND_LITERAL_EXPR(c), c)

    @staticmethod
    def undef_of(ir: Type) -> Value:
        return Undef(ir)

    def init_memory(self, ptr: Value, ir: Type, init: ci.Cursor) -> None:
        """Store an initializer into a fresh object (missing elements are zero)."""
        if init.kind == CK.INIT_LIST_EXPR:
            if any(t.spelling == "=" for t in init.get_tokens()):
                raise unsupported("designated initializer in simd loop", init)
            if not _aggregate(ir):  # int x = {3};
                items = children(init)
                if len(items) != 1:
                    raise unsupported("bad scalar initializer in simd loop", init)
                self.init_memory(ptr, ir, items[0])
                return
            pos = self.init_aggregate(ptr, ir, children(init), 0, init)
            if pos != len(children(init)):
                raise unsupported("excess elements in initializer", init)
            return
        if _aggregate(ir) and isinstance(ir, StructType):
            self.copy_struct(ptr, self.struct_source(init), init)
            return
        if isinstance(ir, ArrayType):
            raise unsupported("array initialized from a string in simd loop", init)
        self.store(LValue(ir, ptr=ptr), self.rvalue(init))

    def init_aggregate(
        self, ptr: Value, ir: Type, items: list[ci.Cursor], pos: int, where: ci.Cursor
    ) -> int:
        """Initialize each member of an aggregate from ``items[pos:]`` (C11
        6.7.9: a member without its own braces takes as many items as it
        has scalars); returns the position after the items used."""
        for sub_ptr, sub_ir in self.members(ptr, ir):
            if pos >= len(items):
                self.zero_fill(sub_ptr, sub_ir)
                continue
            item = items[pos]
            aggregate = _aggregate(sub_ir)
            if item.kind == CK.INIT_LIST_EXPR:
                self.init_memory(sub_ptr, sub_ir, item)
                pos += 1
            elif aggregate and not (
                isinstance(sub_ir, StructType) and item.type.get_canonical().kind == TK.RECORD
            ):
                pos = self.init_aggregate(sub_ptr, sub_ir, items, pos, where)
            else:
                self.init_memory(sub_ptr, sub_ir, item)
                pos += 1
        return pos

    def members(self, ptr: Value, ir: Type) -> list[tuple[Value, Type]]:
        """Addresses and types of the direct members of an aggregate."""
        bld = self.bld()
        if isinstance(ir, ArrayType):
            base = ptr if ptr.type == PtrType(ir.elem) else self.cast(ptr, PtrType(ir.elem))
            if ir.count > 256:
                raise Unsupported("initializer of a large local array in simd loop")
            return [(bld.gep(base, Constant(I64, k)), ir.elem) for k in range(ir.count)]
        assert isinstance(ir, StructType)
        out: list[tuple[Value, Type]] = []
        for f in ir.fields:
            ft = PtrType(f.type.elem if isinstance(f.type, ArrayType) else f.type)
            out.append((bld.field_addr(ptr, f.name, ft), f.type))
        return out

    def zero_fill(self, ptr: Value, ir: Type) -> None:
        if isinstance(ir, (ArrayType, StructType)):
            for sub_ptr, sub_ir in self.members(ptr, ir):
                self.zero_fill(sub_ptr, sub_ir)
            return
        zero: Constant = Constant(ir, 0.0 if isinstance(ir, FloatType) else 0)
        self.bld().store(zero, ptr)

    # -- control flow ------------------------------------------------------------------------------
    def visit_IF_STMT(self, c: ci.Cursor) -> None:
        kids = children(c)
        then_bb = self.new_block("if.then")
        else_bb = self.new_block("if.else") if len(kids) > 2 else None
        end = self.new_block("if.end")
        self.branch(self.cond(kids[0]), then_bb, else_bb or end, at=kids[0])
        for bb, body in ((then_bb, kids[1]), (else_bb, kids[2] if else_bb else None)):
            if bb is None or body is None:
                continue
            self.ssa.seal(bb)
            self.set_block(bb)
            self.stmt(body)
            self.jump(end)
        self.ssa.seal(end)
        self.set_block(end)

    def visit_FOR_STMT(self, c: ci.Cursor) -> None:
        parts = for_parts(c)
        if parts.init is not None:
            self.stmt(parts.init)
        header = self.new_block("for.cond")
        body_bb, latch, end = (
            self.new_block("for.body"),
            self.new_block("for.inc"),
            self.new_block("for.end"),
        )
        self.jump(header)
        self.set_block(header)
        if parts.cond is not None:
            self.branch(self.cond(parts.cond), body_bb, end, at=parts.cond)
        else:
            self.jump(body_bb)
        self.loop_body(body_bb, parts.body, Targets(end, latch))
        self.ssa.seal(latch)
        self.set_block(latch)
        if parts.inc is not None:
            self.effect(parts.inc)
        self.jump(header)
        self.ssa.seal(header)
        self.finish_loop(end, header)

    def visit_WHILE_STMT(self, c: ci.Cursor) -> None:
        cond, body = children(c)
        header = self.new_block("while.cond")
        body_bb, end = self.new_block("while.body"), self.new_block("while.end")
        self.jump(header)
        self.set_block(header)
        self.branch(self.cond(cond), body_bb, end, at=cond)
        self.loop_body(body_bb, body, Targets(end, header))
        self.ssa.seal(header)
        self.finish_loop(end, header)

    def visit_DO_STMT(self, c: ci.Cursor) -> None:
        body, cond = children(c)
        body_bb = self.new_block("do.body")
        cond_bb, end = self.new_block("do.cond"), self.new_block("do.end")
        self.jump(body_bb)
        self.set_block(body_bb)
        self.targets.append(Targets(end, cond_bb))
        self.stmt(body)
        self.targets.pop()
        self.jump(cond_bb)
        self.ssa.seal(cond_bb)
        self.set_block(cond_bb)
        self.branch(self.cond(cond), body_bb, end, at=cond)
        self.ssa.seal(body_bb)
        self.finish_loop(end, body_bb)

    def loop_body(self, body_bb: Block, body: ci.Cursor, targets: Targets) -> None:
        self.ssa.seal(body_bb)
        self.set_block(body_bb)
        self.targets.append(targets)
        self.stmt(body)
        self.targets.pop()
        assert targets.cont is not None
        self.jump(targets.cont)

    def finish_loop(self, end: Block, first: Block) -> None:
        self.ssa.seal(end)
        if self.ssa.preds.get(end):
            self.set_block(end)
        else:
            self.block = None  # an endless loop: what follows is unreachable

    # -- switch ------------------------------------------------------------------------------------
    def visit_SWITCH_STMT(self, c: ci.Cursor) -> None:
        cond, body = children(c)
        value = self.rvalue(cond)
        end = self.new_block("sw.end")
        cases: list[tuple[int, Block]] = []
        default = end
        for label in _case_labels(body):
            if label.kind == CK.DEFAULT_STMT:
                default = self.new_block("sw.default")
                self.case_blocks[label.hash] = default
                continue
            kids = children(label)
            if len(kids) != 2:
                raise unsupported("case range in simd loop", label)
            k = evaluate(kids[0])
            if not isinstance(k, int):
                raise unsupported("non-constant case label", label)
            bb = self.new_block("sw.case")
            self.case_blocks[label.hash] = bb
            cases.append((_wrap_case(k, value.type), bb))
        block = self.cur()
        for _, bb in cases:
            self.ssa.add_edge(block, bb)
        self.ssa.add_edge(block, default)
        self.bld().switch(value, default, cases)
        self.block = None
        self.targets.append(Targets(end, self.targets[-1].cont))
        self.stmt(body)
        self.targets.pop()
        self.jump(end)
        self.ssa.seal(end)
        if self.ssa.preds.get(end):
            self.set_block(end)

    def visit_CASE_STMT(self, c: ci.Cursor) -> None:
        self.enter_label(c)
        self.stmt(children(c)[-1])

    def visit_DEFAULT_STMT(self, c: ci.Cursor) -> None:
        self.enter_label(c)
        self.stmt(children(c)[-1])

    def enter_label(self, c: ci.Cursor) -> None:
        bb = self.case_blocks.get(c.hash)
        if bb is None:
            raise unsupported("case label outside a switch", c)
        self.jump(bb)  # fallthrough from the previous label, if reachable
        self.ssa.seal(bb)
        self.set_block(bb)


def _aggregate(ir: Type) -> bool:
    """An array or struct; a complex value is a scalar of C, though its
    objects in memory are structs (lower_types.py)."""
    return isinstance(ir, (ArrayType, StructType)) and complex_part(ir) is None


def _case_labels(c: ci.Cursor) -> list[ci.Cursor]:
    """The case/default labels of one switch body (not of nested switches)."""
    out: list[ci.Cursor] = []
    for k in children(c):
        if k.kind in (CK.CASE_STMT, CK.DEFAULT_STMT):
            out.append(k)
        if k.kind == CK.SWITCH_STMT or k.kind.is_expression():
            continue
        out.extend(_case_labels(k))
    return out


def _wrap_case(k: int, t: Type) -> int:
    return wrap_int(k, t) if isinstance(t, IntType) else k


__all__ = ["BodyLowerer"]
