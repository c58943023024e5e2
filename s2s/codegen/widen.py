"""Widening: scalar region IR + vector shapes -> vector IR for W lanes.

Each IR value gets a *form*: a scalar C name (uniform values, and the lane-0
value of strided ones) and/or a vector C name (varying values; uniform and
strided values get one on demand: broadcast, or lane-0 + {0, s, 2s, ...}).

    uniform   -> scalar C, the same statement as the scalar loop would run
    strided   -> scalar lane-0 value; vector only where a vector use needs it
    varying   -> vector operation through the target's template, or the
                 generic per-lane fallback when the target has none

Memory (pointer strides are in bytes): a strided pointer whose stride equals
the element size gives a vector load/store at the lane-0 address; any other
non-uniform address becomes a vector of 64-bit addresses and a gather/scatter
(per-lane code when the target has none); a uniform address stays a scalar
load, and a store of a varying value to a uniform address stores the last
lane (sequential semantics).  Masked accesses (Instruction.mask) use masked
templates or per-lane code guarded by the mask: inactive lanes never touch
memory.  Non-pure calls run per lane, in lane order.

Control flow: the region reaches the widener with uniform control flow only
(s2s/pipeline.py: divergent loops made uniform, divergent branches
linearized; masks are IR values and masked operations carry their mask).
Uniform branches become C branches on scalar values (labels/gotos, phis as
parallel copies on the edges); ``s2s.any(mask)`` becomes a test of the mask
bits.  A divergent branch here is an internal error.  The code
generator (generate.py) supplies the forms of the region arguments and what
to do at ``ret``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ..analysis.memory import indexed_address
from ..analysis.records import RecordGroup, RecordInfo
from ..diagnostics import Location, Unsupported, internal_error
from ..ir.atomic_calls import atomic_call_named
from ..ir.complex_calls import ComplexCall, complex_call_named
from ..ir.types import I1, U64, FloatType, IntType, PtrType, Type
from ..ir.values import (
    HORIZONTAL,
    LANE,
    WIDTH,
    Alloca,
    BinOp,
    Block,
    Br,
    Call,
    Cast,
    Cmp,
    CondBr,
    Constant,
    FieldAddr,
    Gep,
    Instruction,
    Load,
    Phi,
    Ret,
    Select,
    Store,
    Switch,
    Undef,
    UnOp,
    Value,
)
from ..transform.dce import live_instructions, operands_and_mask
from ..vfabi import mask_pieces, pieces
from .calls import Callees
from .cexpr import (
    c_decl,
    c_type,
    cast_expr,
    decided_comparison,
    literal,
    scalar_expr,
    unsigned_of,
    value_literal,
)
from .stats import CodeStats
from .target import Target, TypeInfo
from .variant import prototype
from .vector_ir import CStmt, LaneCode, Operand, VBlock, VectorBody, VOp

EXACT_MATH = {"sqrt", "fabs", "floor", "ceil", "trunc", "round", "fmin", "fmax", "fma"}


@dataclass
class Form:
    """How the vector code holds one IR value."""

    scalar: str | None = None
    """Scalar C expression: the value (uniform) or its lane-0 value (strided)."""
    vec: str | None = None
    """Vector variable holding all lanes (defined where the value is)."""
    lazy: bool = False
    """A varying address computed only where a vector use needs it (a load
    through a base + index gather needs no address vector)."""
    invariant: bool = False
    """The scalar is set before the loop (a uniform region parameter), so its
    broadcast can be made there too."""


class Widener:
    """Widens one region body; ``run()`` returns the VectorBody."""

    def __init__(
        self,
        fn: Any,
        div: Any,
        mem: Any,
        target: Target,
        width: int,
        mask_bits: int,
        tag: str,
        math: str,
        location: Location | None,
        simd_functions: dict[str, Any] | None = None,
        records: RecordInfo | None = None,
        threads: bool = False,
        no_variant: dict[str, str] | None = None,
    ) -> None:
        self.fn = fn
        self.div = div
        self.mem: dict[Any, Any] = mem or {}
        """Access kinds from s2s.analysis.memory (uniform/contiguous/strided/gather/scatter)."""
        self.target = target
        self.W = width
        self.tag = tag
        self.math = math
        self.location = location
        self.callees = Callees(simd_functions or {}, no_variant or {})
        self.records = records
        """Record groups (s2s.analysis.records): strided fields moved as whole records."""
        self.threads = threads
        """OpenMP threads share the loop: never write back bytes the loop does not write."""
        self._rec: dict[RecordGroup, list[str]] = {}
        """Open record groups: the vector of each slot (its current contents)."""
        self.forms: dict[Value, Form] = {}
        self.body = VectorBody(width)
        self.stats = CodeStats()
        self.needs: set[Any] = set()
        self._names: set[str] = set()
        self._next_suffix: dict[str, int] = {}
        self._cur: list[Any] = []
        self._bcache: dict[Any, str] = {}
        """Forms made on demand in the current block (reset per block)."""
        self._icache: dict[Any, str] = {}
        """Forms made once before the loop (body.invariants)."""
        self._decls = self.body.decls
        self._targeted: set[Block] = set()
        self._lazy: dict[Value, Callable[[], str]] = {}
        """Blocks emitted inline by if-conversion."""
        self.on_ret: Callable[[Widener, list[Value]], None] = lambda w, vals: None
        canon = target.mask_type(mask_bits, width)
        if canon is None:
            self.fail(f"{target.name} has no mask for {width} lanes of {mask_bits}-bit values")
        self.canon: TypeInfo = canon

    # -- small utilities -------------------------------------------------------------
    def fail(self, message: str, location: Location | None = None) -> NoReturn:
        raise Unsupported(message, location or self.location)

    def internal(self, what: str) -> NoReturn:
        raise internal_error(what, self.location)

    def name(self, hint: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_]", "_", hint or "t").strip("_") or "t"
        n = self._next_suffix.get(base, 0)  # linear, not quadratic, in the uses of a hint
        while True:
            cand = f"s2s_{base}_{n}"
            if cand not in self._names:
                self._names.add(cand)
                self._next_suffix[base] = n + 1
                return cand
            n += 1

    def emit(self, item: Any) -> None:
        self._cur.append(item)

    def stmt(self, text: str) -> None:
        self._cur.append(CStmt(text))

    def new_scalar(self, t: Type, hint: str) -> str:
        name = self.name(hint)
        self._decls.append(c_decl(t, name))
        return name

    def new_vec(self, t: TypeInfo, hint: str) -> str:
        name = self.name(hint + "_v")
        self._decls.append(f"{t.ctype} {name}")
        return name

    def before_loop(self, key: Any, make: Callable[[], str]) -> str:
        """A vector the whole region shares (a constant, the broadcast of a
        value set before the loop): made once by ``make`` into
        ``body.invariants``, so no block repeats it."""
        if key not in self._icache:
            cur, decls = self._cur, self._decls
            self._cur, self._decls = self.body.invariants, self.body.invariant_decls
            try:
                self._icache[key] = make()
            finally:
                self._cur, self._decls = cur, decls
        return self._icache[key]

    def kind(self, v: Value) -> str:
        """'u' uniform, 's' strided, 'v' varying."""
        if isinstance(v, (Constant, Undef)):
            return "u"
        shape = self.div.shape_of(v)
        if shape.is_bottom or shape.is_uniform:
            return "u"
        if shape.is_strided and v.type != I1 and not v.type.is_float():
            return "s"
        return "v"

    def stride(self, v: Value) -> int:
        return int(self.div.shape_of(v).stride)

    def vtype(self, t: Type) -> TypeInfo:
        if t == I1:
            return self.canon
        info = self.target.vtype(U64 if isinstance(t, PtrType) else t, self.W)
        if info is None:
            self.fail(f"{self.target.name} has no vector of {self.W} '{c_type(t)}' values")
        return info

    def mask_type(self, bits: int) -> TypeInfo:
        mt = self.target.mask_type(bits, self.W)
        if mt is None:
            self.fail(f"{self.target.name} has no mask for {self.W} lanes of {bits}-bit values")
        return mt

    def form(self, v: Value) -> Form:
        f = self.forms.get(v)
        if f is None:
            if isinstance(v, (Constant, Undef)):
                f = Form(scalar=value_literal(v))
                self.forms[v] = f
            else:
                self.internal("a value is used before its definition")
        return f

    # -- operations ------------------------------------------------------------------
    def vop(
        self,
        name: str,
        result: TypeInfo | None,
        hint: str = "v",
        mask: Operand | None = None,
        stat: str = "",
        **args: Any,
    ) -> str:
        """A templated vector operation (its macro must exist for these types)."""
        dst = self.new_vec(result, hint) if result is not None else None
        self.emit(VOp(name, dst, result, args, None, mask, stat))
        return dst or ""

    def per_lane(
        self,
        code: str,
        inputs: list[Operand],
        result: TypeInfo | None,
        result_ir: Type | None,
        hint: str = "v",
        mask: Operand | None = None,
    ) -> str:
        """The generic per-lane fallback: scalar C on every (active) lane."""
        dst = self.new_vec(result, hint) if result is not None else None
        self.emit(VOp("", dst, result, {}, LaneCode(code, inputs, result_ir), mask))
        return dst or ""

    def op_or_lanes(
        self,
        name: str,
        result: TypeInfo,
        code: str,
        inputs: list[Operand],
        result_ir: Type,
        hint: str,
        **args: Any,
    ) -> str:
        if self.target.has(name, **args):
            return self.vop(name, result, hint, **args)
        return self.per_lane(code, inputs, result, result_ir, hint)

    def lane_operand(self, v: Value) -> Operand:
        """v as per-lane code reads it (lane ``s2s_j``): a scalar, lane 0's
        value plus the lane's stride (no vector needed: a pointer may have no
        vector type at this width), or a vector."""
        kind = self.kind(v)
        if kind == "u":
            return Operand(self.scalar(v), None, v.type)
        if kind == "s" and isinstance(v.type, PtrType):
            return Operand(
                f"(({c_type(v.type)})((char *){self.scalar(v)} + (long)s2s_j * {self.stride(v)}))",
                None,
                v.type,
            )
        if kind == "s" and isinstance(v.type, IntType):
            u = unsigned_of(v.type)
            return Operand(
                f"(({c_type(v.type)})(({u}){self.scalar(v)} + ({u})s2s_j * ({u}){self.stride(v)}))",
                None,
                v.type,
            )
        return Operand(self.vec(v), self.vtype(v.type), v.type)

    # -- forms on demand -------------------------------------------------------------
    def scalar(self, v: Value) -> str:
        f = self.form(v)
        if f.scalar is not None:
            return f.scalar
        if self.kind(v) == "v":
            self.internal("a value that differs between lanes is needed as one scalar")
        key = ("s", v)
        if key not in self._bcache:
            self._bcache[key] = self.extract(v, 0)
        return self._bcache[key]

    def vec(self, v: Value) -> str:
        f = self.form(v)
        if f.vec is not None:
            return f.vec
        key = ("v", v)
        if key in self._bcache:
            return self._bcache[key]
        if f.lazy:
            self._bcache[key] = self._lazy[v]()
            return self._bcache[key]
        if isinstance(v, (Constant, Undef)):  # a mask, or shared with const_vec's
            kind = "mask" if v.type == I1 else "k"
            return self.before_loop(
                (kind, self.vtype(v.type).key, value_literal(v)), lambda: self.broadcast(v)
            )
        if f.invariant:
            return self.before_loop(key, lambda: self.broadcast(v))
        self._bcache[key] = self.broadcast(v)
        return self._bcache[key]

    def broadcast(self, v: Value) -> str:
        """The vector form of a uniform or strided value from its scalar."""
        t = self.vtype(v.type)
        s = self.scalar(v)
        hint = v.name or "c"
        if self.kind(v) == "s":
            out = self.iota(t, v.type, s, self.stride(v), hint)
        elif v.type == I1 and self.target.has("mask_splat", mt=self.canon):
            out = self.vop("mask_splat", self.canon, hint, mt=self.canon, x=s)
        elif v.type == I1:
            it = self.vtype(IntType(self.canon.bits))
            one = self.vop("broadcast", it, hint, t=it, x=f"({s} ? 1 : 0)")
            zero = self.const_vec(it, 0)
            out = self.vop("cmp_ne", self.canon, hint, t=it, a=one, b=zero, mt=self.canon)
        elif isinstance(v.type, PtrType):
            out = self.vop("broadcast", t, hint, t=t, x=f"(uint64_t)(uintptr_t){s}")
        else:
            out = self.vop("broadcast", t, hint, t=t, x=s)
        return out

    def const_vec(self, t: TypeInfo, value: int | float) -> str:
        ir = U64 if t.is_mask else _ir_of(t)
        x = literal(value, ir)
        return self.before_loop(("k", t.key, x), lambda: self.vop("broadcast", t, "k", t=t, x=x))

    def iota(self, t: TypeInfo, ir: Type, start: str, stride: int, hint: str) -> str:
        """Lanes start + j*stride (pointers: byte addresses)."""
        elem = _ir_of(t)
        x = f"(uint64_t)(uintptr_t){start}" if isinstance(ir, PtrType) else start
        base = self.vop("broadcast", t, hint, t=t, x=x)
        offs = self.before_loop(
            ("iota", t.key, stride),
            lambda: self.vop(
                "setr", t, "lane_off", t=t, xs=[literal(j * stride, elem) for j in range(self.W)]
            ),
        )
        return self.vop("add", t, hint, t=t, a=base, b=offs)

    def extract(self, v: Value, lane: int) -> str:
        """Scalar value of one lane of v's vector form."""
        t = self.vtype(v.type)
        vv = self.vec(v)
        dst = self.new_scalar(v.type if v.type != I1 else IntType(32), (v.name or "x") + "_l")
        cast = f"({c_type(v.type)})(uintptr_t)" if isinstance(v.type, PtrType) else ""
        self.emit(VOp("$extract", dst, t, {"t": t, "v": vv, "j": lane, "cast": cast}))
        return dst

    def mask_to(self, m: str, src: TypeInfo, dst: TypeInfo) -> str:
        if src.bits == dst.bits:
            return m
        if self.target.has("mask_convert", f=src, t=dst):
            return self.vop("mask_convert", dst, "m", f=src, t=dst, m=m)
        return self.per_lane("{0}", [Operand(m, src, I1)], dst, I1, "m")

    def mask_operand(self, inst: Instruction, bits: int) -> Operand | None:
        """The instruction's lane mask (and the predicate of an if-converted
        block) converted to lanes of ``bits``; None = all lanes."""
        m = inst.mask
        if m is None or (isinstance(m, Constant) and int(m.value) & 1):
            return None
        mv = self.vec(m)
        mt = self.mask_type(bits)
        return Operand(self.mask_to(mv, self.canon, mt), mt, I1)

    # -- driver ------------------------------------------------------------------------
    def run(self) -> VectorBody:
        blocks = list(self.fn.blocks)
        self.preds = self.fn.predecessors()
        self._prepare_phis()
        for index, block in enumerate(blocks):
            nxt = blocks[index + 1] if index + 1 < len(blocks) else None
            self._cur = []
            self._bcache = {}
            for inst in block.instructions:
                if isinstance(inst, Phi):
                    continue
                if inst.is_terminator:
                    self.terminator(block, inst, nxt)
                elif inst in self.live:
                    self.instruction(inst)
            self.body.blocks.append(VBlock(self.label(block), self._cur))
        for vb, block in zip(self.body.blocks, blocks):
            if block not in self._targeted:
                vb.label = None
        return self.body

    def label(self, block: Block) -> str:
        index = self.fn.blocks.index(block)
        base = re.sub(r"[^A-Za-z0-9_]", "_", block.name or "bb")
        return f"s2s_{self.tag}_{index}_{base}"

    def _prepare_phis(self) -> None:
        for block in self.fn.blocks:
            for phi in self.live_phis(block):
                if self.kind(phi) == "v":
                    self.forms[phi] = Form(
                        vec=self.new_vec(self.vtype(phi.type), phi.name or "phi")
                    )
                else:
                    self.forms[phi] = Form(scalar=self.new_scalar(phi.type, phi.name or "phi"))

    def live_phis(self, block: Block) -> list[Phi]:
        """The phis of ``block`` whose value is used (dead ones get no variable)."""
        return [phi for phi in block.phis if phi in self.live]

    # -- terminators ---------------------------------------------------------------------
    def goto(self, block: Block) -> None:
        self._targeted.add(block)
        self.stmt(f"goto {self.label(block)};")

    def edge(self, pred: Block, succ: Block, nxt: Block | None) -> None:
        self.edge_copies(pred, succ)
        if succ is not nxt:
            self.goto(succ)

    def prepare_edges(self, pred: Block, succs: list[Block]) -> None:
        """Materialize what the phi copies of these edges read before the branch,
        so that no edge uses a broadcast that only another edge computed."""
        for succ in succs:
            for phi in self.live_phis(succ):
                inc = phi.value_from(pred)
                if self.forms[phi].vec is not None:
                    self.vec(inc)
                else:
                    self.scalar(inc)

    def edge_copies(self, pred: Block, succ: Block) -> None:
        pairs: list[tuple[str, str, str]] = []
        for phi in self.live_phis(succ):
            inc = phi.value_from(pred)
            f = self.forms[phi]
            if f.vec is not None:
                pairs.append((f.vec, self.vec(inc), self.vtype(phi.type).ctype))
            else:
                pairs.append((f.scalar or "", self.scalar(inc), c_decl(phi.type, "")))
        dsts = {d for d, _, _ in pairs}
        if any(s in dsts and s != d for d, s, _ in pairs):
            # parallel copy: read every source before writing any phi
            temps = []
            self.stmt("{")
            for i, (_, s, ty) in enumerate(pairs):
                self.stmt(f"{_decl_with(ty, f's2s_pc{i}')} = {s};")
                temps.append(f"s2s_pc{i}")
            for (d, _, _), tmp in zip(pairs, temps):
                self.stmt(f"{d} = {tmp};")
            self.stmt("}")
        else:
            for d, s, _ in pairs:
                if d != s:
                    self.stmt(f"{d} = {s};")

    def terminator(self, block: Block, term: Instruction, nxt: Block | None) -> None:
        if isinstance(term, Br):
            self.edge(block, term.target, nxt)
        elif isinstance(term, CondBr):
            if self.div.is_divergent_branch(block) or self.kind(term.operands[0]) != "u":
                self.internal("a divergent branch reached the code generator")
            cond = self.scalar(term.operands[0])
            self.prepare_edges(block, term.successors)
            t, f = term.if_true, term.if_false
            if not t.phis and not f.phis:
                # plain jumps: fall through to the next block where possible
                if t is nxt:
                    self._targeted.add(f)
                    self.stmt(f"if (!{cond}) goto {self.label(f)};")
                    return
                self._targeted.add(t)
                self.stmt(f"if ({cond}) goto {self.label(t)};")
                if f is not nxt:
                    self.goto(f)
                return
            self.stmt(f"if ({cond}) {{")
            self.edge(block, t, None)
            self.stmt("}")
            self.edge(block, f, nxt)
        elif isinstance(term, Switch):
            if self.div.is_divergent_branch(block) or self.kind(term.operands[0]) != "u":
                self.internal("a divergent switch reached the code generator")
            value = self.scalar(term.operands[0])
            self.prepare_edges(block, term.successors)
            self.stmt(f"switch ({value}) {{")
            for value, target in term.cases:
                self.stmt(f"case {literal(value, term.operands[0].type)}: {{")
                self.edge(block, target, None)
                self.stmt("}")
            self.stmt("default: {")
            self.edge(block, term.default, None)
            self.stmt("}")
            self.stmt("}")
        elif isinstance(term, Ret):
            self.on_ret(self, list(term.operands))
            if nxt is not None:
                self.body.end_label = f"s2s_{self.tag}_next"
                self.stmt(f"goto {self.body.end_label};")
        else:
            self.internal(f"no widening for the IR terminator '{term.opcode}'")

    def _select_names(self, t_ir: Type, m: str, a: str, b: str, hint: str) -> str:
        t = self.vtype(t_ir)
        if t_ir == I1:
            ma = self.vop("mask_and", t, hint, mt=t, a=m, b=a)
            nm = self.vop("mask_not", t, hint, mt=t, a=m)
            mb = self.vop("mask_and", t, hint, mt=t, a=nm, b=b)
            return self.vop("mask_or", t, hint, mt=t, a=ma, b=mb)
        mt = self.mask_type(t.bits)
        return self.vop("select", t, hint, t=t, m=self.mask_to(m, self.canon, mt), a=a, b=b, mt=mt)

    def select_vec(self, t_ir: Type, cond: str, a: Value, b: Value, hint: str) -> str:
        """Vector of a where the canonical mask ``cond`` is set, else b."""
        return self._select_names(t_ir, cond, self.vec(a), self.vec(b), hint)

    # -- instructions ----------------------------------------------------------------------
    def instruction(self, inst: Instruction) -> None:
        if isinstance(inst, Load):
            return self.load(inst)
        if isinstance(inst, Store):
            return self.store(inst)
        if isinstance(inst, Alloca):
            return self.alloca(inst)
        if isinstance(inst, Call):
            return self.call(inst)
        if self.is_scalar(inst):
            return self.scalar_inst(inst)
        if isinstance(inst, BinOp):
            return self.binop(inst)
        if isinstance(inst, UnOp):
            return self.unop(inst)
        if isinstance(inst, Cmp):
            return self.cmp(inst)
        if isinstance(inst, Cast):
            return self.cast(inst)
        if isinstance(inst, Select):
            return self.select(inst)
        if isinstance(inst, (Gep, FieldAddr)):
            return self.address(inst)
        self.internal(f"no widening for the IR instruction '{inst.opcode}'")

    def is_scalar(self, inst: Instruction) -> bool:
        """Computed once for all lanes, as scalar C (scalar_inst)."""
        return self.kind(inst) != "v" and all(self.kind(o) != "v" for o in inst.operands)

    def scalar_inst(self, inst: Instruction) -> None:
        name = self.new_scalar(inst.type, inst.name or inst.opcode)
        # a decided comparison reads no operand (reads()): they may have no code
        decided = isinstance(inst, Cmp) and decided_comparison(inst) is not None
        ops = ["" for _ in inst.operands] if decided else [self.scalar(o) for o in inst.operands]
        expr = scalar_expr(inst, ops)
        self.forms[inst] = Form(scalar=name)
        traps = isinstance(inst, BinOp) and inst.op in ("div", "rem") and inst.type.is_int()
        mask = self.mask_operand(inst, self.canon.bits) if traps else None
        if mask is not None:
            # a uniform division under a mask runs only when some lane is active
            self.emit(
                VOp(
                    "$if_any",
                    name,
                    None,
                    {"mt": mask.type, "m": mask.text, "expr": expr, "zero": literal(0, inst.type)},
                )
            )
            return
        self.stmt(f"{name} = {expr};")

    def set_vec(self, inst: Instruction, name: str) -> None:
        self.forms[inst] = Form(vec=name)

    def binop(self, inst: BinOp) -> None:
        a, b = inst.operands
        hint = inst.name or inst.op
        if inst.type == I1:
            name = {"and": "mask_and", "or": "mask_or", "xor": "mask_xor"}.get(inst.op)
            if name is None:
                self.internal(f"no widening for '{inst.op}' on booleans")
            return self.set_vec(
                inst, self.vop(name, self.canon, hint, mt=self.canon, a=self.vec(a), b=self.vec(b))
            )
        t = self.vtype(inst.type)
        va = self.vec(a)
        vb = self.vec_as(b, inst.type)
        code = scalar_expr(inst, ["{0}", "{1}"])
        inputs = [Operand(va, t, inst.type), Operand(vb, t, inst.type)]
        mask = self.mask_operand(inst, t.bits) if inst.op in ("div", "rem") and t.is_int else None
        if mask is not None:
            # integer division traps: inactive lanes must not divide
            return self.set_vec(inst, self.per_lane(code, inputs, t, inst.type, hint, mask))
        self.set_vec(
            inst, self.op_or_lanes(inst.op, t, code, inputs, inst.type, hint, t=t, a=va, b=vb)
        )

    def vec_as(self, v: Value, t: Type) -> str:
        """v's vector converted to integer type t (shift counts)."""
        if v.type == t:
            return self.vec(v)
        return self.convert(v.type, t, self.vec(v), "cnt")

    def unop(self, inst: UnOp) -> None:
        a = inst.operands[0]
        if inst.type == I1:
            return self.set_vec(
                inst,
                self.vop("mask_not", self.canon, inst.name or "not", mt=self.canon, a=self.vec(a)),
            )
        t = self.vtype(inst.type)
        va = self.vec(a)
        code = scalar_expr(inst, ["{0}"])
        self.set_vec(
            inst,
            self.op_or_lanes(
                inst.op,
                t,
                code,
                [Operand(va, t, inst.type)],
                inst.type,
                inst.name or inst.op,
                t=t,
                a=va,
            ),
        )

    def cmp(self, inst: Cmp) -> None:
        a, b = inst.operands
        hint = inst.name or "cmp"
        if a.type == I1:
            x = self.vop("mask_xor", self.canon, hint, mt=self.canon, a=self.vec(a), b=self.vec(b))
            if inst.pred == "ne":
                return self.set_vec(inst, x)
            if inst.pred == "eq":
                return self.set_vec(
                    inst, self.vop("mask_not", self.canon, hint, mt=self.canon, a=x)
                )
            self.internal("no widening for an ordered compare of booleans")
        t = self.vtype(a.type)
        mt = self.mask_type(t.bits)
        va, vb = self.vec(a), self.vec(b)
        code = scalar_expr(inst, ["{0}", "{1}"])
        inputs = [Operand(va, t, a.type), Operand(vb, t, b.type)]
        m = self.op_or_lanes(f"cmp_{inst.pred}", mt, code, inputs, I1, hint, t=t, a=va, b=vb, mt=mt)
        self.set_vec(inst, self.mask_to(m, mt, self.canon))

    def convert(self, src: Type, dst: Type, v: str, hint: str) -> str:
        f, t = self.vtype(src), self.vtype(dst)
        if f.ctype == t.ctype and f.bits == t.bits and not f.is_float and not t.is_float:
            return v

        code = cast_expr(src, dst, "{0}")
        return self.op_or_lanes("convert", t, code, [Operand(v, f, src)], dst, hint, f=f, t=t, a=v)

    def cast(self, inst: Cast) -> None:
        a = inst.operands[0]
        src, dst = a.type, inst.type
        hint = inst.name or "cast"
        if src == dst or (isinstance(src, PtrType) and isinstance(dst, PtrType)):
            t = self.vtype(dst)
            name = self.new_vec(t, hint)
            self.stmt(f"{name} = {self.vec(a)};")
            return self.set_vec(inst, name)
        if src == I1:
            t = self.vtype(dst)
            mt = self.mask_type(t.bits)
            m = self.mask_to(self.vec(a), self.canon, mt)
            return self.set_vec(
                inst,
                self.vop(
                    "select",
                    t,
                    hint,
                    t=t,
                    m=m,
                    mt=mt,
                    a=self.const_vec(t, 1),
                    b=self.const_vec(t, 0),
                ),
            )
        if dst == I1:
            t = self.vtype(src)
            mt = self.mask_type(t.bits)
            zero = self.const_vec(t, 0)
            va = self.vec(a)
            m = self.op_or_lanes(
                "cmp_ne",
                mt,
                "({0} != 0)",
                [Operand(va, t, src)],
                I1,
                hint,
                t=t,
                a=va,
                b=zero,
                mt=mt,
            )
            return self.set_vec(inst, self.mask_to(m, mt, self.canon))
        s2 = U64 if isinstance(src, PtrType) else src
        d2 = U64 if isinstance(dst, PtrType) else dst
        if isinstance(src, IntType) and isinstance(dst, IntType):
            # index widening: often only needed as a gather index (see base_index)
            return self.lazy(inst, lambda: self.convert(s2, d2, self.vec(a), hint))
        self.set_vec(inst, self.convert(s2, d2, self.vec(a), hint))

    def select(self, inst: Select) -> None:
        c, a, b = inst.operands
        hint = inst.name or "sel"
        t = self.vtype(inst.type)
        if self.kind(c) == "u":
            name = self.new_vec(t, hint)
            self.stmt(f"{name} = {self.scalar(c)} ? {self.vec(a)} : {self.vec(b)};")
            return self.set_vec(inst, name)
        self.set_vec(inst, self.select_vec(inst.type, self.vec(c), a, b, hint))

    def address(self, inst: Instruction) -> None:
        """Varying gep/fieldaddr: materialized on demand (see ``vec``)."""
        self.lazy(inst, lambda: self.address_vec(inst))

    def lazy(self, inst: Instruction, compute: Callable[[], str]) -> None:
        """Compute inst's vector only in the blocks that use it as a vector."""
        self.forms[inst] = Form(lazy=True)
        self._lazy[inst] = compute

    def address_vec(self, inst: Instruction) -> str:
        """A varying gep/fieldaddr as a vector of 64-bit byte addresses."""
        at = self.vtype(U64)
        hint = inst.name or "addr"
        base = self.vec(inst.operands[0])
        if isinstance(inst, FieldAddr):
            off = self.const_vec(at, inst.offset)
            return self.vop("add", at, hint, t=at, a=base, b=off)
        index = inst.operands[1]
        assert isinstance(inst.type, PtrType)  # a gep of the scalar IR
        size = inst.type.pointee.size
        iv = self.vec(index)
        if index.type != U64:
            # C converts the index to a 64-bit offset (sign- or zero-extending)
            iv = self.convert(index.type, U64, iv, "idx")
        if size != 1:
            if size & (size - 1) == 0 and self.target.has("shl", t=at):
                iv = self.vop(
                    "shl", at, "off", t=at, a=iv, b=self.const_vec(at, size.bit_length() - 1)
                )
            else:
                k = self.const_vec(at, size)
                iv = self.op_or_lanes(
                    "mul",
                    at,
                    "(uint64_t)({0} * {1})",
                    [Operand(iv, at, U64), Operand(k, at, U64)],
                    U64,
                    "off",
                    t=at,
                    a=iv,
                    b=k,
                )
        return self.vop("add", at, hint, t=at, a=base, b=iv)

    def base_index(self, ptr: Value) -> tuple[str, Value, int] | None:
        """(uniform base, varying integer index, element size) of ``gep base, idx``
        when a gather can take the index as it is (analysis.memory.indexed_address)."""
        found = indexed_address(ptr, self.div)
        if found is None:
            return None
        return self.scalar(found.base), found.index, found.elem_size

    # -- memory ------------------------------------------------------------------------------
    def access_kind(self, inst: Instruction, ptr: Value, elem: Type, store: bool = False) -> str:
        """uniform, contiguous, strided, gather (loads) / scatter (stores): the memory
        analysis says; accesses it did not see (made here) get the same rule."""
        access = self.mem.get(inst)
        if access is not None:
            return access.kind
        k = self.kind(ptr)
        if k == "u":
            return "uniform"
        if k == "s":
            return "contiguous" if self.stride(ptr) == elem.size else "strided"
        return "scatter" if store else "gather"

    def load(self, inst: Load) -> None:
        ptr = inst.operands[0]
        elem = inst.type
        if elem == I1 or not (elem.is_int() or elem.is_float() or elem.is_ptr()):
            if self.kind(ptr) == "u" and inst.mask is None:
                return self.scalar_inst(inst)
            self.fail(
                f"reading a whole {_what(elem)} at an address, or under a condition, "
                "that differs between lanes is not vectorized"
            )
        kind = self.access_kind(inst, ptr, elem)
        # a uniform access needs no vector of its type: test the canonical mask
        bits = self.canon.bits if kind == "uniform" else self.vtype(elem).bits
        mask = self.mask_operand(inst, bits)
        hint = inst.name or "ld"
        self.stats.access(inst, kind, mask is not None)
        if kind == "uniform":
            if mask is None:
                return self.scalar_inst(inst)
            # one address for all lanes: read it once if any lane is active
            name = self.new_scalar(elem, hint)
            self.emit(
                VOp(
                    "$if_any",
                    name,
                    None,
                    {
                        "mt": mask.type,
                        "m": mask.text,
                        "expr": f"(*{self.scalar(ptr)})",
                        "zero": literal(0, elem),
                    },
                )
            )
            self.forms[inst] = Form(scalar=name)
            return
        t = self.vtype(elem)
        if kind == "strided" and mask is None and self.record_access(inst, None):
            return
        if kind == "contiguous":
            p = self.scalar(ptr)
            if mask is None:
                return self.set_vec(inst, self.vop("load", t, hint, t=t, p=p))
            if self.target.has("masked_load", t=t, mt=mask.type):
                return self.set_vec(
                    inst, self.vop("masked_load", t, hint, t=t, p=p, m=mask.text, mt=mask.type)
                )
        bi = self.base_index(ptr) if kind == "gather" else None
        if bi is not None:
            base, index, size = bi
            it = self.vtype(index.type)
            if mask is None and self.target.has("gather_base", t=t, it=it):
                return self.set_vec(
                    inst,
                    self.vop(
                        "gather_base",
                        t,
                        hint,
                        t=t,
                        base=base,
                        idx=self.vec(index),
                        it=it,
                        scale=size,
                    ),
                )
            if mask is not None and self.target.has("masked_gather_base", t=t, it=it, mt=mask.type):
                return self.set_vec(
                    inst,
                    self.vop(
                        "masked_gather_base",
                        t,
                        hint,
                        t=t,
                        base=base,
                        idx=self.vec(index),
                        it=it,
                        scale=size,
                        m=mask.text,
                        mt=mask.type,
                    ),
                )
        at = self.target.vtype(U64, self.W)
        if kind in ("gather", "strided") and at is not None:
            if mask is None and self.target.has("gather", t=t, at=at):
                return self.set_vec(inst, self.vop("gather", t, hint, t=t, a=self.vec(ptr), at=at))
            if mask is not None and self.target.has("masked_gather", t=t, at=at, mt=mask.type):
                return self.set_vec(
                    inst,
                    self.vop(
                        "masked_gather",
                        t,
                        hint,
                        t=t,
                        a=self.vec(ptr),
                        at=at,
                        m=mask.text,
                        mt=mask.type,
                    ),
                )
        code, *operands = self.lane_address(ptr, elem, kind)
        self.set_vec(inst, self.per_lane(f"(*{code})", operands, t, elem, hint, mask))

    @functools.cached_property
    def live(self) -> set[Instruction]:
        """The instructions whose code is made (the others' values are never
        read: their variables would be set but unused)."""
        return live_instructions(self.fn, self.reads, _has_effect)

    @functools.cached_property
    def read_values(self) -> set[Value]:
        """Every value the code made reads."""
        return {v for inst in self.live for v in self.reads(inst)}

    def reads_value(self, v: Value) -> bool:
        """Whether the code made reads ``v`` (a region argument's C copy is
        made only then)."""
        return v in self.read_values

    # -- record groups (s2s.analysis.records) ------------------------------------------------
    def reads(self, inst: Instruction) -> list[Value]:
        """What the code of ``inst`` reads: its operands, its mask where the
        code is guarded by it (_reads_mask), and for a member of a group
        moved as whole records the group's base instead of its own address
        (record_access).  Values only the IR reads get no code (their C
        variables would be set but never read)."""
        if isinstance(inst, Cmp) and self.is_scalar(inst) and decided_comparison(inst):
            return []  # written as its value (cexpr)
        reads_mask = _reads_mask(inst) and self.exact_math(inst) is None
        used = operands_and_mask(inst) if reads_mask else list(inst.operands)
        group = self.records.group_of(inst) if self.records is not None else None
        if group is None or self.record_type(group) is None:
            return used
        address = 0 if isinstance(inst, Load) else 1
        return [v for i, v in enumerate(used) if i != address] + [group.base]

    def record_type(self, group: RecordGroup) -> TypeInfo | None:
        """The vector type of the group's fields when the target can move its
        records (else None: the members keep their gathers and scatters)."""
        return record_vector_type(self.target, group, self.W, self.threads)

    def record_access(self, inst: Instruction, value: Value | None) -> bool:
        """A load (value None) or store of a record group: the group's loads
        run at its first member, its stores after its last store; members
        read and write the slot vectors in between.  False: not grouped."""
        group = self.records.group_of(inst) if self.records is not None else None
        t = self.record_type(group) if group is not None else None
        if group is None or t is None:
            return False
        slots = self._rec.get(group)
        if slots is None:
            slots = [self.new_vec(t, f"rec{s}") for s in range(group.slots)]
            self._rec[group] = slots
            if group.needs_load:
                self.vop(
                    "load_records", None, t=t, k=group.slots, p=self.scalar(group.base), outs=slots
                )
                for s in sorted(self.unread_slots(group)):
                    self.stmt(f"(void){slots[s]};  /* loaded with the record, not read */")
        slot = slots[group.slot_of(inst)]
        if value is None:
            # a copy: a later member store changes the slot vector
            dst = self.new_vec(t, inst.name or "ld")
            self.stmt(f"{dst} = {slot};")
            self.set_vec(inst, dst)
            return True
        self.stmt(f"{slot} = {self.vec(value)};")
        if inst is group.last_store:
            self.vop("store_records", None, t=t, k=group.slots, p=self.scalar(group.base), vs=slots)
        return True

    def unread_slots(self, group: RecordGroup) -> set[int]:
        """Slots of a loaded group that neither a live member load reads nor
        a store of the records writes back."""
        if group.last_store is not None:
            return set()
        read = {s for i, s in group.members if isinstance(i, Load) and i in self.live}
        return set(range(group.slots)) - read

    def scatter_base(self, ptr: Value, t: TypeInfo, vv: str, mask: Operand | None) -> bool:
        """A scatter to ``base[index]`` from the index itself (no 64-bit addresses)."""
        bi = self.base_index(ptr)
        if bi is None:
            return False
        base, index, size = bi
        it = self.vtype(index.type)
        name = "scatter_base" if mask is None else "masked_scatter_base"
        masking: dict[str, Any] = {} if mask is None else {"m": mask.text, "mt": mask.type}
        if not self.target.has(name, t=t, it=it, **masking):
            return False
        self.vop(
            name, None, t=t, base=base, idx=self.vec(index), it=it, scale=size, v=vv, **masking
        )
        return True

    def lane_address(self, ptr: Value, elem: Type, kind: str) -> tuple[str, *tuple[Operand, ...]]:
        """Per-lane address of an access: C text with ``{0}`` and its operand.
        Contiguous and strided accesses use the scalar lane-0 address, so no
        vector of 64-bit addresses is needed (narrow loops keep their width)."""
        if kind in ("contiguous", "strided"):
            p = Operand(self.scalar(ptr), None, ptr.type)
            stride = self.stride(ptr)
            return (f"(({c_type(ptr.type)})((char *){{0}} + (long)s2s_j * {stride}))", p)
        bi = self.base_index(ptr)
        if bi is not None and self.target.vtype(U64, self.W) is None:
            # base[index] per lane: no vector of 64-bit addresses needed
            base, index, _ = bi
            return (
                "({0} + {1})",
                Operand(base, None, ptr.type),
                Operand(self.vec(index), self.vtype(index.type), index.type),
            )
        return "{0}", Operand(self.vec(ptr), self.vtype(U64), ptr.type)

    def store(self, inst: Store) -> None:
        value, ptr = inst.operands
        elem = value.type
        if elem == I1 or not (elem.is_int() or elem.is_float() or elem.is_ptr()):
            if self.kind(ptr) == "u" and self.kind(value) == "u" and inst.mask is None:
                self.stmt(f"*{self.scalar(ptr)} = {self.scalar(value)};")
                return
            self.fail(
                f"writing a whole {_what(elem)} at an address, or under a condition, "
                "that differs between lanes is not vectorized"
            )
        kind = self.access_kind(inst, ptr, elem, store=True)
        bits = (
            self.canon.bits
            if kind == "uniform" and self.kind(value) == "u"
            else self.vtype(elem).bits
        )
        mask = self.mask_operand(inst, bits)
        self.stats.access(inst, kind, mask is not None)
        if kind == "uniform" and mask is None:
            # every lane stores to one address: the last lane's value wins
            src = self.scalar(value) if self.kind(value) == "u" else self.extract(value, self.W - 1)
            self.stmt(f"*{self.scalar(ptr)} = {src};")
            return
        if kind == "uniform" and self.kind(value) == "u" and mask is not None:
            # one value to one address: store it if any lane is active
            self.emit(
                VOp(
                    "$if_any",
                    None,
                    None,
                    {
                        "mt": mask.type,
                        "m": mask.text,
                        "stmt": f"*{self.scalar(ptr)} = {self.scalar(value)};",
                    },
                )
            )
            return
        t = self.vtype(elem)
        if kind == "strided" and mask is None and self.record_access(inst, value):
            return
        vv = self.vec(value)
        if kind == "contiguous":
            p = self.scalar(ptr)
            if mask is None:
                self.vop("store", None, t=t, p=p, v=vv)
                return
            if self.target.has("masked_store", t=t, mt=mask.type):
                self.vop("masked_store", None, t=t, p=p, v=vv, m=mask.text, mt=mask.type)
                return
        if kind == "scatter" and self.scatter_base(ptr, t, vv, mask):
            return
        at = self.target.vtype(U64, self.W)
        if kind in ("scatter", "strided") and at is not None:
            if mask is None and self.target.has("scatter", t=t, at=at):
                self.vop("scatter", None, t=t, a=self.vec(ptr), at=at, v=vv)
                return
            if mask is not None and self.target.has("masked_scatter", t=t, at=at, mt=mask.type):
                self.vop(
                    "masked_scatter",
                    None,
                    t=t,
                    a=self.vec(ptr),
                    at=at,
                    v=vv,
                    m=mask.text,
                    mt=mask.type,
                )
                return
        if kind == "uniform":
            code, operands = "{1}", [Operand(self.scalar(ptr), None, ptr.type)]
        else:
            code, *operands = self.lane_address(ptr, elem, kind)
            code = code.replace("{1}", "{2}").replace("{0}", "{1}")
        # lane order: on colliding addresses the last active lane wins
        self.per_lane(
            f"*{code} = {{0}};", [Operand(vv, t, elem), *operands], None, None, "st", mask
        )

    def horizontal(self, inst: Call) -> None:
        """``s2s.any(m)`` / ``s2s.all(m)`` over the active lanes (the call's mask)."""
        if inst.callee not in ("s2s.any", "s2s.all"):
            self.fail(f"no '{inst.callee}' in the widener (the vector IR path has it)")
        m = self.vec(inst.operands[0])
        active = self.mask_operand(inst, self.canon.bits)
        if inst.callee == "s2s.all":
            # all active lanes set: no active lane is clear
            m = self.vop("mask_not", self.canon, "clear", mt=self.canon, a=m)
        if active is not None:
            m = self.vop("mask_and", self.canon, "m", mt=self.canon, a=m, b=active.text)
        name = self.new_scalar(inst.type, inst.name or "any")
        some, none = ("1", "0") if inst.callee == "s2s.any" else ("0", "1")
        self.emit(
            VOp("$if_any", name, None, {"mt": self.canon, "m": m, "expr": some, "zero": none})
        )
        self.forms[inst] = Form(scalar=name)

    def alloca(self, inst: Alloca) -> None:
        hint = inst.name or "obj"
        if inst.interleaved:  # one object, W copies of T element by element
            self.stats.allocas["varying"] += 1
            name = self.name(hint)
            self.body.decls.append(c_decl(inst.allocated, f"{name}[{self.W}]"))
            self.forms[inst] = Form(scalar=f"(&{name}[0])")
            return
        if self.kind(inst) == "u":
            self.stats.allocas["uniform"] += 1
            name = self.name(hint)
            self.body.decls.append(c_decl(inst.allocated, name))
            self.forms[inst] = Form(scalar=f"(&{name})")
            return
        self.stats.allocas["varying"] += 1
        name = self.name(hint)
        self.body.decls.append(c_decl(inst.allocated, f"{name}[{self.W}]"))
        at = self.vtype(U64)
        self.set_vec(inst, self.iota(at, inst.type, f"(&{name}[0])", inst.allocated.size, hint))

    def call(self, inst: Call) -> None:
        args = inst.operands
        hint = inst.name or inst.callee
        helper = complex_call_named(inst.callee)
        if helper is not None and inst in self.forms:  # made with its other part
            return None
        if inst.callee in HORIZONTAL:
            return self.horizontal(inst)
        if inst.callee in (LANE, WIDTH):  # lane 0's value; the shape gives the others
            value = 0 if inst.callee == LANE else self.W
            self.forms[inst] = Form(scalar=literal(value, inst.type))
            return None
        if inst.pure and self.kind(inst) != "v" and all(self.kind(a) != "v" for a in args):
            if helper is not None:
                self.needs.add(("complex", inst.callee))
            return self.scalar_inst(inst)  # a math call's mask only spares inactive lanes work
        for a in args:
            if not (a.type.is_int() or a.type.is_float() or a.type.is_ptr()):
                self.fail(
                    f"call of '{inst.callee}' with a {_what(a.type)} argument is not vectorized"
                )
        ret = inst.type
        t = self.vtype(ret) if ret.is_int() or ret.is_float() or ret.is_ptr() else None
        # the mask in lanes of the result: made where it is passed (a variant
        # converts it to its own lanes; a conversion nobody reads is dead code)
        mask_bits = t.bits if t is not None else self.canon.bits
        base = (
            inst.callee[:-1]
            if isinstance(ret, FloatType) and ret.bits == 32 and inst.callee.endswith("f")
            else inst.callee
        )
        float_args = t is not None and t.is_float and all(a.type == ret for a in args)
        if t is not None and self.exact_math(inst) == base:
            names = ["a", "b", "c"][: len(args)]
            kw = {n: self.vec(a) for n, a in zip(names, args)}
            self.stats.call("vector math", inst)
            return self.set_vec(inst, self.vop(base, t, hint, mask=None, t=t, **kw))
        # pure math may run on inactive lanes too (no memory, no traps)
        if inst.pure and float_args and self.math == "vector" and t is not None:
            vname = self.target.vector_math_name(inst.callee, len(args), t)
            if vname is not None:
                self.stats.call("vector math", inst, vname)
                self.needs.add(("proto", vname, t.ctype, len(args)))
                dst = self.new_vec(t, hint)
                mask = self.mask_operand(inst, mask_bits)
                self.stmt(f"{dst} = {vname}({', '.join(self.math_args(args, t, mask))});")
                return self.set_vec(inst, dst)
        # a call that runs for its effects only: no vector of its results
        kept = t if self.reads_value(inst) else None
        if self.vector_variant(inst, kept, hint):
            return
        mask = self.mask_operand(inst, mask_bits)
        self.stats.call("serialized", inst, self.why_serialized(inst))
        if helper is not None:
            if t is not None and self.complex_pair(inst, helper, t, mask):
                return
            self.needs.add(("complex", inst.callee))
        if atomic_call_named(inst.callee) is not None:
            self.needs.add(("atomic", inst.callee))
        inputs = [self.lane_operand(a) for a in args]
        code = f"{inst.callee}({', '.join(_argument(a, f'{{{i}}}') for i, a in enumerate(args))})"
        if kept is None:
            self.per_lane(code + ";", inputs, None, None, hint, mask)
            return
        self.set_vec(inst, self.per_lane(code, inputs, kept, ret, hint, mask))

    def exact_math(self, inst: Instruction) -> str | None:
        """The target's template computing this pure math call exactly on
        every lane (``sqrt``, ``fabs`` ...: it needs no mask), else None."""
        if not isinstance(inst, Call) or not inst.pure or not isinstance(inst.type, FloatType):
            return None
        base = (
            inst.callee[:-1] if inst.type.bits == 32 and inst.callee.endswith("f") else inst.callee
        )
        t = self.target.vtype(inst.type, self.W)
        if base not in EXACT_MATH or t is None or any(a.type != inst.type for a in inst.operands):
            return None
        return base if self.target.has(base, t=t) else None

    def complex_pair(
        self, inst: Call, helper: ComplexCall, t: TypeInfo, mask: Operand | None
    ) -> bool:
        """Both parts of a complex operation (``inst`` and the call of the
        other part on the same operands) from one evaluation per lane, by the
        pair helper; False when the other part is not computed here."""
        other = next(
            (
                i
                for i in inst.parent.instructions
                if isinstance(i, Call)
                and i.callee == helper.sibling
                and i in self.live
                and i not in self.forms
                and i.mask is inst.mask
                and len(i.operands) == len(inst.operands)
                and all(a is b for a, b in zip(i.operands, inst.operands))
            ),
            None,
        )
        if other is None:
            return False
        self.needs.add(("complex_pair", inst.callee))
        parts = {inst: "", other: ""}
        for call in parts:
            parts[call] = self.name((call.name or call.callee) + "_lanes")
            self.body.decls.append(f"{t.scalar} {parts[call]}[{self.W}]")
            if mask is not None:  # the inactive lanes' elements are loaded too
                self.vop("store", None, t=t, p=parts[call], v=self.const_vec(t, 0.0))
        re, im = (parts[inst], parts[other]) if helper.part == "re" else (parts[other], parts[inst])
        inputs = [self.lane_operand(a) for a in inst.operands]
        args = ", ".join(f"{{{k}}}" for k in range(len(inputs)))
        self.per_lane(
            f"{helper.pair_name}({args}, &{re}[s2s_j], &{im}[s2s_j]);",
            inputs,
            None,
            None,
            helper.base,
            mask,
        )
        for call, array in parts.items():
            self.set_vec(call, self.vop("load", t, call.name or "part", t=t, p=array))
        return True

    def why_serialized(self, inst: Call) -> str:
        """The report's reason for a call run lane by lane."""
        return self.callees.why_serialized(inst, self.target, self.math == "vector")

    def math_args(self, args: list[Value], t: TypeInfo, mask: Operand | None) -> list[str]:
        """A math call's vector arguments, 1.0 on the lanes its mask leaves out:
        what those lanes hold (0/0, a negative, an infinity) would send the
        vector math library down its slow path for special inputs."""
        vectors = [self.vec(a) for a in args]
        if mask is None:
            return vectors
        one = self.const_vec(t, 1.0)
        return [
            self.vop("select", t, "arg", t=t, m=mask.text, a=v, b=one, mt=mask.type)
            for v in vectors
        ]

    def vector_variant(self, inst: Call, t: TypeInfo | None, hint: str) -> bool:
        """Call the declare simd variant whose lanes are W, whose mask matches
        (masked under a mask) and whose parameter kinds fit the arguments'
        shapes (the ABI's caller rules), of the best ISA the target may call
        whose registers hold the loop's vectors as they are; False: none fits."""
        mask = inst.mask is not None and not (
            isinstance(inst.mask, Constant) and int(inst.mask.value) & 1
        )
        for sig, v in self.callees.candidates(inst.callee, self.target, mask, self.W):
            if not all(self.fits(a, k) for a, k in zip(inst.operands, v.params)):
                continue
            if not self.same_registers(inst, t, v):
                continue
            proto = prototype(sig, v)
            if proto is None:
                continue
            args = [self.abi_arg(a, k, v) for a, k in zip(inst.operands, v.params)]
            if mask:
                m = self.mask_operand(inst, v.cdt_bits)
                assert m is not None
                args.append(f"({mask_pieces(v)[0].ctype}){m.text}")
            self.needs.add(("decl", proto))
            self.stats.call("variant", inst, v.mangled)
            call = f"{v.mangled}({', '.join(args)})"
            if t is None:
                self.stmt(f"{call};")
                return True
            dst = self.new_vec(t, hint)
            self.stmt(f"{dst} = ({t.ctype}){call};")
            self.set_vec(inst, dst)
            return True
        return False

    def same_registers(self, inst: Call, t: TypeInfo | None, v: Any) -> bool:
        """Does the variant take each vector argument (and give its result)
        in one register of the size the loop keeps that vector in?"""
        values = [
            (a.type, self.vtype(a.type)) for a, k in zip(inst.operands, v.params) if k.kind == "v"
        ]
        if t is not None:
            values.append((inst.type, t))
        for ir_type, vt in values:
            regs = pieces(v.isa, ir_type, v.vlen, v.mangled)
            if len(regs) != 1 or vt is None or vt.reg_bits != regs[0].lanes * vt.bits:
                return False
        return True

    def fits(self, a: Value, k: Any) -> bool:
        """An argument of this shape may be passed as a parameter of kind k."""
        if k.kind == "v":
            return (a.type.is_int() or a.type.is_float() or a.type.is_ptr()) and a.type != I1
        if k.kind == "u":
            return self.kind(a) == "u"
        if k.kind == "l":
            return self.kind(a) == "s" and self.stride(a) == k.step
        return False  # ls: the step is only known at run time

    def abi_arg(self, a: Value, k: Any, v: Any) -> str:
        if k.kind != "v":
            return _argument(a, self.scalar(a))
        return f"({pieces(v.isa, a.type, v.vlen, v.mangled)[0].ctype}){self.vec(a)}"


def _argument(a: Value, text: str) -> str:
    """An argument of a call to the user's function: a pointer through
    ``void *``, which converts to the parameter's pointer type as declared
    (the IR's type may name the target otherwise: ``int8_t *`` for ``const
    char *``, a clang -Wpointer-sign warning)."""
    return f"(void *)({text})" if isinstance(a.type, PtrType) else text


def _has_effect(inst: Instruction) -> bool:
    """An effect of its own: a horizontal ``s2s.any``/``s2s.all`` has none
    in C (the IR keeps it as a call; unused, its variable would be set and
    never read)."""
    return inst.has_side_effects and not (isinstance(inst, Call) and inst.callee in HORIZONTAL)


def _reads_mask(inst: Instruction) -> bool:
    """Whether the code of ``inst`` reads its lane mask: memory accesses and
    calls (an inactive lane must not touch memory or run a callee) and
    integer divisions (nor trap).  Other operations run on every lane, and
    a uniform branch's mask is the predicated IR's, not the C code's."""
    return isinstance(inst, (Load, Store, Call)) or (
        isinstance(inst, BinOp) and inst.op in ("div", "rem") and inst.type.is_int()
    )


def record_vector_type(
    target: Target, group: RecordGroup, width: int, threads: bool
) -> TypeInfo | None:
    """The vector type of ``group``'s fields at ``width`` lanes when the
    target's macros move its records (``Target.has``), else None."""
    t = target.vtype(group.elem, width)
    if t is None:
        return None
    if group.needs_load and not target.has("load_records", t=t, k=group.slots):
        return None
    if group.last_store is None:
        return t
    if threads and len(group.stored_slots) != group.slots:
        return None  # another thread may write the bytes this loop only reads
    return t if target.has("store_records", t=t, k=group.slots) else None


def _what(t: Type) -> str:
    """A value of IR type t as the user's C sees it (struct, array, _Bool, ...)."""
    if t == I1:
        return "'_Bool'"
    try:
        return f"'{c_type(t)}'"
    except Unsupported:
        return "value"


def _ir_of(t: TypeInfo) -> Type:
    from ..ir.types import SCALAR_TYPES

    if t.is_mask:
        return IntType(t.bits)
    return SCALAR_TYPES[t.elem]


def _decl_with(ty: str, name: str) -> str:
    """``ty`` is a declarator with an empty name (``double *``): add the name."""
    if "(*)" in ty:
        return ty.replace("(*)", f"(*{name})", 1)
    return f"{ty} {name}"
