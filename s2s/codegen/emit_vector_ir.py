"""C text from vector IR (s2s/ir/vector.py) for one fixed-width target.

The emitter is the only part of this path that makes text.  Each value of
the vector function gets a C variable: a scalar of its C type; a vector in
the target's register type when the target has one for its element type and
lane count (``templates/<target>/target.toml``), else an array of W lanes;
a mask ``<W x i1>`` in the target's mask type for the region's mask width
(lane masks of that many bits, or bit masks), converted where an operation
on narrower or wider lanes needs its own.  An instruction becomes the
target macro of its name (``templates/<target>/ops.j2``) when the target's
capability table says it has one for these types, else the generic per-lane loop of
``templates/common/per_lane.c.j2`` (vectors spilled to arrays, the scalar C
of one lane run for each active lane in lane order, the result reloaded).
Uniform branches become ``goto``s, phis parallel copies on the edges.

Legalization (s2s/codegen/legalize.py) has cut the vectors to the
target's registers before; tests compile what this writes for random
regions and compare with the vector interpreter.
"""

from __future__ import annotations

import itertools
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Unsupported
from ..ir.atomic_calls import atomic_call_named, scan_call_named
from ..ir.clauses import reduction_identity
from ..ir.complex_calls import complex_call_named
from ..ir.types import (
    I1,
    U64,
    VOID,
    ArrayType,
    IntType,
    PtrType,
    Type,
    VectorType,
    element_type,
)
from ..ir.values import (
    ALL,
    ANY,
    HORIZONTAL,
    POPCOUNT,
    WIDTH,
    Alloca,
    Argument,
    BinOp,
    Block,
    Br,
    Call,
    Cast,
    Cmp,
    CondBr,
    Constant,
    Function,
    Gep,
    Instruction,
    Phi,
    Ret,
    Select,
    Store,
    Switch,
    Undef,
    UnOp,
    Value,
    address_base,
)
from ..ir.vector import (
    Concat,
    ExtractLane,
    ExtractPart,
    Gather,
    InsertLane,
    RecordLoad,
    RecordStore,
    Reduce,
    Reverse,
    RowLoad,
    Scatter,
    Splat,
    StepVector,
    VLoad,
    VStore,
    is_lanewise,
)
from ..vfabi import Variant, element_bits, mask_pieces, pieces
from .c_lines import INDENT
from .calls import Callees
from .cexpr import binop_expr, c_decl, c_type, literal, scalar_expr, value_literal
from .legalize import mask_lane_bits
from .stats import CodeStats
from .target import Target, TypeInfo
from .variant import prototype

EXACT_MATH = {"sqrt", "fabs", "floor", "ceil", "trunc", "round", "fmin", "fmax", "fma"}


@dataclass
class EmittedBody:
    decls: list[str]
    """Declarations of the C variables (``T name``, no semicolon)."""
    lines: list[str]
    """The statements; a ``ret`` becomes ``results`` assignments and a jump
    to ``end_label``."""
    needs: set[Any] = field(default_factory=set)
    """Helper functions and prototypes the code uses (codegen.generate.prelude)."""


class VectorIREmitter:
    """Emits one vector function's body for ``target``."""

    def __init__(
        self,
        fn: Function,
        width: int,
        target: Target,
        arg_names: list[str],
        results: list[str],
        end_label: str,
        prefix: str = "s2s",
        vector_math: bool = True,
        caller_declares: frozenset[str] = frozenset(),
        callees: Callees | None = None,
    ) -> None:
        self.fn, self.W, self.target = fn, width, target
        self.scatters: list[Scatter] = []
        """Scatters done lane by lane whose loop is not yet written (scatter_lanes)."""
        self.spilled: dict[Value, str] | None = None
        """While their loop is written: the arrays the scatters' vectors went to."""
        self.lanes = target.lanes_c(width)
        """C expression of the lanes of a vector (run time on a scalable target)."""
        self.max_lanes = target.max_lanes(width)
        """The most lanes a vector may have: arrays of lanes are this long."""
        self.callees = callees or Callees()
        """The declare simd variants calls may go to (s2s.codegen.calls)."""
        self.variants: dict[Instruction, str] = {}
        """Calls selected as a variant: its name."""
        self.vector_math = vector_math
        self.caller_declares = caller_declares
        """Result variables the caller declares (accumulators that live
        across trips of the loop); the emitter declares the others."""
        """Math calls go to the target's vector math library (``--math vector``)."""
        self.results, self.end_label, self.prefix = results, end_label, prefix
        self.needs: set[Any] = set()
        self.stats = CodeStats()
        """The report's counts of the calls (the caller counts memory and stack objects)."""
        self.counted_calls: set[tuple[str, object]] = set()
        """(callee as the source names it, where) of the calls counted."""
        self.names: dict[Value, str] = dict(zip(fn.args, arg_names))
        self.decls: list[str] = []
        self.lines: list[str] = []
        self.counter = 0
        self.mask_bits = mask_lane_bits(fn, target, width)
        self.reg_types: dict[Type, TypeInfo | None] = {}
        """``reg_type`` by vector type, made once."""
        self.labels = {b: f"{prefix}_{k}_{_c_name(b.name)}" for k, b in enumerate(fn.blocks)}

    # -- names and types -------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        self.counter += 1
        return f"{self.prefix}_{_c_name(hint) or 't'}_{self.counter}"

    def reg_type(self, t: Type) -> TypeInfo | None:
        """The register type of a vector type (None: an array of lanes)."""
        assert isinstance(t, VectorType)
        if t not in self.reg_types:  # asked for every operand of every instruction
            # a fixed-width type's own lanes: legalization may cut element
            # types into different numbers of registers (legalize.split_mixed)
            lanes = self.W if t.scalable else t.lanes
            if t.elem == I1:
                self.reg_types[t] = self.target.mask_type(self.mask_bits, lanes)
            else:
                self.reg_types[t] = self.target.vtype(_lane_type(t.elem), lanes)
        return self.reg_types[t]

    def vt(self, elem: Type) -> VectorType:
        """The vector type of the function's lanes of ``elem``."""
        return VectorType(elem, self.W, self.target.scalable)

    def declare(self, v: Value) -> str:
        name = self.fresh(v.name)
        self.names[v] = name
        self.decls.append(self.decl_of(v.type, name))
        return name

    def decl_of(self, t: Type, name: str) -> str:
        """A register, an array of W lanes, or a scalar."""
        if isinstance(t, VectorType):
            ti = self.reg_type(t)
            return (
                f"{ti.ctype} {name}"
                if ti is not None
                else c_decl(ArrayType(_lane_type(t.elem), self.max_lanes), name)
            )
        return c_decl(t, name)

    def lane_loop(self) -> str:
        """The head of a C loop over the lanes (``s2s_j``)."""
        return f"for (int s2s_j = 0; s2s_j < {self.lanes}; s2s_j++) "

    def required(self, name: str, **args: Any) -> str:
        """The target macro's text; Unsupported when it has none for these types."""
        text = self.macro(name, **args)
        if text is None:
            keys = ", ".join(v.key for v in args.values() if isinstance(v, TypeInfo))
            raise Unsupported(f"{self.target.name} has no '{name}' for {keys}")
        return text

    def macro(self, name: str, **args: Any) -> str | None:
        """The target macro's text, or None when its capability table
        (templates/<target>/capabilities.toml) has none for these types."""
        if not self.target.has(name, **args):
            return None
        return self.target.call(name, self.need_helper, **args).strip()

    def need_helper(self, name: str) -> None:
        """ops.j2's ``need``: the output must define helper ``name``."""
        self.needs.add(("helper", name))

    # -- operands --------------------------------------------------------------------
    def scalar(self, v: Value) -> str:
        if isinstance(v, (Constant, Undef)):
            return value_literal(v)
        return self.names[v]

    def reg(self, v: Value) -> str:
        """A vector operand held in a register (``in_reg``)."""
        return self.names[v]

    def in_reg(self, v: Value) -> bool:
        return isinstance(v.type, VectorType) and self.reg_type(v.type) is not None

    # -- the walk --------------------------------------------------------------------
    def emit(self) -> EmittedBody:
        for a in self.fn.args:
            if a not in self.names:
                self.declare(a)
        for name, t in zip(self.results, self.fn.ret_types):
            if name not in self.caller_declares:
                self.decls.append(self.decl_of(t, name))
        self.folded = {inst for inst in self.fn.instructions() if self.folds(inst)}
        self.discarded = {
            inst
            for inst in self.fn.instructions()
            if isinstance(inst, Call) and inst.type != VOID and not inst.users
        }
        """Calls made for their effects: their results get no variable (it
        would be set and never read)."""
        self.record_loads: dict[tuple[Block | None, Value], list[RecordLoad]] = {}
        """The fields of one group of records, loaded together."""
        for inst in self.fn.instructions():
            if isinstance(inst, RecordLoad):
                self.record_loads.setdefault((inst.block, inst.operands[0]), []).append(inst)
        self.records_loaded: set[Instruction] = set()
        self.complex_pairs = _complex_pairs(self.fn, self.discarded)
        """Each part of a complex operation computed with its other part."""
        self.pairs_done: set[Instruction] = set()
        self.row_groups: dict[RowLoad, list[RowLoad]] = _row_groups(self.fn)
        """Each row load -> the loads of its group, loaded together."""
        for b in self.fn.blocks:
            for inst in b.instructions:
                if (
                    inst.type != VOID
                    and not inst.is_terminator
                    and inst not in self.folded | self.discarded
                ):
                    self.declare(inst)
        blocks = self.fn.blocks
        self.falls_into = {
            a: b for a, b in itertools.pairwise(blocks) if isinstance(a.terminator, Br)
        }
        """Blocks whose jump goes to the next block: no goto, C falls through."""
        targets = {
            s
            for b in blocks
            for s in b.successors
            if not (isinstance(b.terminator, Br) and self.falls_into.get(b) is s)
        }
        for b in blocks:
            if b in targets:
                self.lines.append(f"{self.labels[b]}:;")
            for inst in b.instructions:
                if not isinstance(inst, Phi) and inst not in self.folded:
                    self.instruction(inst)
        assert not self.scatters, "a block ends in its terminator, which writes them"
        return EmittedBody(self.decls, self.lines, self.needs)

    def instruction(self, inst: Instruction) -> None:
        if self.scatters and not (self.passes_scatters(inst) or isinstance(inst, Scatter)):
            self.write_scatters()
        if inst.is_terminator:
            return self.terminator(inst)
        if isinstance(inst, Call) and inst in self.complex_pairs:
            return self.complex_pair(inst)
        if isinstance(inst, Call) and complex_call_named(inst.callee) is not None:
            self.needs.add(("complex", inst.callee))  # the output defines it
        vector = is_lanewise(inst)
        if isinstance(inst, Alloca):
            return self.alloca(inst)
        if isinstance(inst, RecordLoad) and inst in self.records_loaded:
            return None
        if isinstance(inst, RecordLoad) and self.load_records(inst):
            return None
        if isinstance(inst, RowLoad) and inst in self.records_loaded:
            return None
        if isinstance(inst, RowLoad) and self.load_rows(inst):
            return None
        if isinstance(inst, Call) and inst.callee in HORIZONTAL and vector:
            return self.horizontal(inst)
        if not vector:
            return self.scalar_instruction(inst)
        if isinstance(inst, Call) and self.scan_prefix(inst):
            return None
        text = self.selected(inst)
        if text is not None:
            if isinstance(inst, Scatter):
                self.write_scatters()
            self.lines.append(text)
        elif isinstance(inst, Scatter):
            self.scatter_lanes(inst)
        else:
            self.per_lane(inst)
        if isinstance(inst, Call):
            self.count_call(inst, text is not None)
            if atomic_call_named(inst.callee) is not None:  # the output defines it
                self.needs.add(("atomic", inst.callee))

    def scan_prefix(self, inst: Call) -> bool:
        """A ``#pragma omp scan`` helper's call (s2s/ir/atomic_calls.py) as
        an in-register prefix, where the target moves lanes up
        (``slide_up``) and has the operator for the type: the inactive
        lanes take the identity, log2(lanes) steps ``p = p op (p moved up
        by 1, 2, 4 ... lanes)`` make the inclusive prefix, the running
        total (``*ptr``) is combined into every lane (an exclusive prefix:
        the inclusive one moved up a lane), and the last lane's inclusive
        value becomes the total.  Legalized parts are calls in lane order,
        each passing the total on.  False: the call runs lane by lane."""
        scan = scan_call_named(inst.callee)
        if scan is None or not isinstance(inst.type, VectorType):
            return False
        inclusive, symbol = scan
        name = _SCAN_MACROS.get(symbol)
        t = self.reg_type(inst.type)
        ptr, v = inst.operands
        if name is None or t is None or t.is_mask or not self.in_reg(v):
            return False
        if inst.mask is not None and not self.in_reg(inst.mask):
            return False
        mt = self.mask_for(t) if inst.mask is not None else None
        elem = inst.type.elem
        ident = literal(reduction_identity(symbol, elem), elem)
        fill = self.macro("broadcast", t=t, x=ident)
        total = self.macro("broadcast", t=t, x=f"(*{self.scalar(ptr)})")
        if (
            fill is None
            or total is None
            or (inst.mask is not None and mt is None)
            or not all(self.target.has(m, t=t) for m in (name, "slide_up", "extract", "broadcast"))
        ):
            return False
        f, p, c = self.fresh("fill"), self.fresh("prefix"), self.fresh("total")
        self.decls += [f"{t.ctype} {f}", f"{t.ctype} {p}", f"{t.ctype} {c}"]
        first = self.reg(v)
        if inst.mask is not None:
            assert mt is not None
            m = self.mask_as(inst.mask, mt)
            first = self.required("select", t=t, m=m, a=first, b=f, mt=mt)
        lines = [f"{f} = {fill};", f"{p} = {first};"]
        k = 1
        while k < t.lanes:
            moved = self.required("slide_up", t=t, v=p, fill=f, j=k)
            lines.append(f"{p} = {self.required(name, t=t, a=p, b=moved)};")
            k *= 2
        lines.append(f"{c} = {total};")
        dst = self.names[inst]
        inclusive_value = self.required(name, t=t, a=c, b=p)
        if inclusive:
            lines.append(f"{dst} = {inclusive_value};")
            last = self.required("extract", t=t, v=dst, j=t.lanes - 1)
        else:
            moved = self.required("slide_up", t=t, v=p, fill=f, j=1)
            lines.append(f"{dst} = {self.required(name, t=t, a=c, b=moved)};")
            last = self.required("extract", t=t, v=inclusive_value, j=t.lanes - 1)
        lines.append(f"*{self.scalar(ptr)} = {last};")
        self.lines += lines
        return True

    def count_call(self, inst: Call, selected: bool) -> None:
        """The report's count of a call of the source (once however many
        parts legalization cut it into): a variant, vector math, or lane by
        lane with the reason."""
        helper = complex_call_named(inst.callee)  # both parts are one call of the source
        key = (helper.source if helper is not None else inst.callee, inst.loc)
        if key in self.counted_calls:
            return
        self.counted_calls.add(key)
        if inst in self.variants:
            self.stats.call("variant", inst, self.variants[inst])
        elif selected:
            self.stats.call("vector math", inst)
        else:
            why = self.callees.why_serialized(inst, self.target, self.vector_math, self.W)
            self.stats.call("serialized", inst, why)

    def scalar_instruction(self, inst: Instruction) -> None:
        """Uniform code; under a mask, it runs when the mask is set (a value
        is 0 otherwise)."""
        ops = [self.scalar(o) for o in inst.operands]
        mask = self.scalar(inst.mask) if inst.mask is not None else None
        guard = f"if ({mask}) " if mask is not None else ""
        if isinstance(inst, Call) and inst.callee == WIDTH:  # the lane count
            self.lines.append(f"{self.names[inst]} = ({c_type(inst.type)}){self.lanes};")
            return
        if isinstance(inst, Call) and inst.callee in (ANY, ALL):  # of a uniform value
            expr = ops[0] if mask is None else f"({mask} ? {ops[0]} : {int(inst.callee == ALL)})"
            self.lines.append(f"{self.names[inst]} = {expr};")
        elif isinstance(inst, Store):
            self.lines.append(f"{guard}*{ops[1]} = {ops[0]};")
        elif inst.type == VOID:
            self.lines.append(f"{guard}{scalar_expr(inst, ops)};")
        elif mask is not None:
            self.lines.append(
                f"{self.names[inst]} = {mask} ? {scalar_expr(inst, ops)} : {literal(0, inst.type)};"
            )
        else:
            self.lines.append(f"{self.names[inst]} = {scalar_expr(inst, ops)};")

    def alloca(self, inst: Alloca) -> None:
        storage = self.fresh(f"{inst.name}_obj")
        self.decls.append(c_decl(inst.allocated, storage))
        self.lines.append(f"{self.names[inst]} = &{storage};")

    # -- base[index] addresses --------------------------------------------------------------
    def indexed(self, ptrs: Value) -> tuple[Value, Value, int] | None:
        """(base, index, element size) of ``gep base, index`` with a scalar
        base and a vector of signed 32-bit or 64-bit indices: gathers and
        scatters take the index itself, no vector of addresses."""
        if not isinstance(ptrs, Gep) or isinstance(ptrs.operands[0].type, VectorType):
            return None
        base, index = ptrs.operands
        t = index.type
        if not isinstance(t, VectorType) or not isinstance(t.elem, IntType):
            return None
        if not isinstance(base.type, PtrType):
            return None
        size = base.type.pointee.size
        if size not in (1, 2, 4, 8) or not (
            t.elem.bits == 64 or (t.elem.bits == 32 and t.elem.signed)
        ):
            return None
        return base, index, size

    def immediate_shift(self, inst: Instruction) -> bool:
        """A shift by one constant count the target has an immediate form of."""
        t = self.reg_type(inst.type) if isinstance(inst.type, VectorType) else None
        return (
            isinstance(inst, BinOp)
            and inst.mask is None
            and t is not None
            and not t.is_mask
            and _constant_count(inst, t.bits) is not None
            and self.target.has(f"{inst.op}_imm", t=t)
        )

    def increments(self, inst: Instruction) -> bool:
        """``select m, (add x, splat 1), x`` where the target adds the mask's
        lanes as they are (``increment_where``: lane masks of the value's
        width, s2s.codegen.promote_counters)."""
        if not isinstance(inst, Select) or not isinstance(inst.type, VectorType):
            return False
        _, add, x = inst.operands
        t = self.reg_type(inst.type)
        if t is None or t.is_mask or not isinstance(add, BinOp) or add.op != "add":
            return False
        one = [o for o in add.operands if o is not x]
        if len(one) != 1 or not _is_splat_of(one[0], 1) or x not in add.operands:
            return False
        mt = self.mask_for(t)
        return (
            mt is not None
            and mt.key == self.canonical().key
            and self.target.has("increment_where", t=t, mt=mt)
        )

    def increment_add(self, inst: Instruction) -> bool:
        """An add that only ``increment_where`` selects read."""
        return (
            isinstance(inst, BinOp)
            and bool(inst.users)
            and all(self.increments(u) and u.operands[1] is inst for u in inst.users)
        )

    def folds(self, inst: Instruction) -> bool:
        """A gep only gathers and scatters use as their address (by its
        index); a splat count only immediate shifts use; an add of one only
        ``increment_where`` selects use, and its splat."""
        if self.increment_add(inst):
            return True
        if isinstance(inst, Splat) and isinstance(inst.operands[0], Constant) and inst.users:
            return all(
                (self.immediate_shift(u) and u.operands[1] is inst and u.operands[0] is not inst)
                or self.increment_add(u)
                for u in inst.users
            )
        return (
            self.indexed(inst) is not None
            and bool(inst.users)
            and all(
                (isinstance(u, Gather) and u.operands[0] is inst)
                or (isinstance(u, Scatter) and u.operands[1] is inst and u.operands[0] is not inst)
                for u in inst.users
            )
        )

    def indexed_access(self, inst: Instruction) -> str | None:
        """A gather or scatter through a folded gep as the target's
        ``[masked_]gather_base`` / ``[masked_]scatter_base``."""
        ptrs = inst.operands[0] if isinstance(inst, Gather) else inst.operands[1]
        found = self.indexed(ptrs) if ptrs in self.folded else None
        value = inst if isinstance(inst, Gather) else inst.operands[0]
        t = self.reg_type(value.type)
        if found is None or t is None or t.is_mask:
            return None
        base, index, size = found
        it = self.reg_type(index.type)
        if it is None or not self.in_reg(index):
            return None
        name = ("masked_" if inst.mask is not None else "") + (
            "gather_base" if isinstance(inst, Gather) else "scatter_base"
        )
        args: dict[str, Any] = dict(
            t=t, base=self.scalar(base), idx=self.reg(index), it=it, scale=size
        )
        if isinstance(inst, Scatter):
            args["v"] = self.reg(inst.operands[0])
        if inst.mask is not None:
            mt = self.mask_for(t)
            if mt is None or not self.in_reg(inst.mask):
                return None
            args.update(m=self.mask_as(inst.mask, mt), mt=mt)
        if isinstance(inst, Scatter) and not self.in_reg(inst.operands[0]):
            return None
        return self.macro(name, **args)

    # -- selection: an instruction as the target's macro -------------------------------
    def selected(self, inst: Instruction) -> str | None:
        """``dst = macro(...);`` when the target has the operation for these
        types and every vector operand is in a register; else None."""
        if isinstance(inst, (Gather, Scatter)) and inst.operands[-1] in self.folded:
            expr = self.indexed_access(inst)
            if expr is None:
                return None
            return (
                f"{self.names[inst]} = {expr};"
                if isinstance(inst, Gather)
                else (expr if expr.endswith(";") else expr + ";")
            )
        vectors = [v for v in [inst] + list(inst.operands) if isinstance(v.type, VectorType)]
        if inst.mask is not None:
            vectors.append(inst.mask)
        if not all(self.in_reg(v) for v in vectors):
            return None
        expr = self.selection(inst)
        if expr is None:
            return None
        if inst.type == VOID:
            return expr if expr.endswith(";") else expr + ";"
        if inst in self.discarded:
            return f"(void){expr};"
        return f"{self.names[inst]} = {expr};"

    def selection(self, inst: Instruction) -> str | None:
        ops = inst.operands
        t = self.reg_type(inst.type) if isinstance(inst.type, VectorType) else None
        if isinstance(inst, (BinOp, UnOp)) and inst.mask is None:
            assert t is not None
            if t.is_mask:
                name = {
                    "and": "mask_and",
                    "or": "mask_or",
                    "xor": "mask_xor",
                    "not": "mask_not",
                }.get(inst.op)
                return None if name is None else self.macro(name, mt=t, **_ab(self, ops))
            if self.immediate_shift(inst):
                count = _constant_count(inst, t.bits)
                return self.macro(f"{inst.op}_imm", t=t, a=self.reg(ops[0]), n=count)
            return self.macro(inst.op, t=t, **_ab(self, ops))
        if isinstance(inst, Cmp):
            operand_t = self.reg_type(ops[0].type)
            if operand_t is None or operand_t.is_mask:
                return None
            mt = self.target.mask_type(operand_t.bits, self.W)
            if mt is None:
                return None
            text = self.macro(
                f"cmp_{inst.pred}", t=operand_t, a=self.reg(ops[0]), b=self.reg(ops[1]), mt=mt
            )
            return None if text is None else self.to_canonical(text, mt)
        if isinstance(inst, Select) and inst.mask is None:
            assert t is not None
            if not isinstance(ops[0].type, VectorType):
                return f"({self.scalar(ops[0])} ? {self.reg(ops[1])} : {self.reg(ops[2])})"
            if t.is_mask:  # lanes of a where c is set, of b elsewhere
                c, a, b = (self.reg(o) for o in ops)
                keep = self.macro("mask_and", mt=t, a=c, b=a)
                other = self.macro("mask_not", mt=t, a=c)
                if keep is None or other is None:
                    return None
                rest = self.macro("mask_and", mt=t, a=other, b=b)
                return None if rest is None else self.macro("mask_or", mt=t, a=keep, b=rest)
            mt = self.mask_for(t)
            if mt is not None and self.increments(inst):
                x, m = self.reg(ops[2]), self.reg(ops[0])
                return self.macro("increment_where", t=t, x=x, m=m, mt=mt)
            return (
                None
                if mt is None
                else self.macro(
                    "select",
                    t=t,
                    m=self.mask_as(ops[0], mt),
                    a=self.reg(ops[1]),
                    b=self.reg(ops[2]),
                    mt=mt,
                )
            )
        if isinstance(inst, Gep) and t is not None and inst.mask is None:
            return self.lane_addresses(inst, t)
        if isinstance(inst, Cast) and inst.mask is None:
            f = self.reg_type(ops[0].type)
            if t is None or f is None or t.is_mask or f.is_mask:
                return None
            if f.key == t.key:
                return self.reg(ops[0])
            return self.macro("convert", f=f, t=t, a=self.reg(ops[0]))
        if isinstance(inst, Splat):
            assert t is not None
            if t.is_mask:
                return self.macro("mask_splat", mt=t, x=self.scalar(ops[0]))
            x = self.scalar(ops[0])
            if isinstance(ops[0].type, PtrType):
                x = f"(uint64_t)(uintptr_t){x}"
            return self.macro("broadcast", t=t, x=x)
        if isinstance(inst, StepVector):
            assert t is not None and isinstance(inst.type, VectorType)
            if self.target.has("stepvector", t=t):
                return self.macro("stepvector", t=t)
            if self.target.scalable:
                return None
            lanes = [literal(k, inst.type.elem) for k in range(inst.type.lanes)]
            return self.macro("setr", t=t, xs=lanes)
        if isinstance(inst, ExtractPart):
            f = self.reg_type(ops[0].type)
            return None if f is None else self.macro("part", t=f, v=self.reg(ops[0]), j=inst.part)
        if isinstance(inst, Concat) and len(ops) == 2:
            assert t is not None
            return self.macro("concat", t=t, a=self.reg(ops[0]), b=self.reg(ops[1]))
        if isinstance(inst, Reverse):
            assert t is not None
            return None if t.is_mask else self.macro("reverse", t=t, a=self.reg(ops[0]))
        if isinstance(inst, (VLoad, VStore)):
            return self.contiguous(inst)
        if isinstance(inst, (Gather, Scatter)):
            return self.through_addresses(inst)
        if isinstance(inst, RecordStore):
            return self.store_records(inst)
        if isinstance(inst, ExtractLane) and (isinstance(ops[1], Constant) or self.target.scalable):
            f = self.reg_type(ops[0].type)
            j = int(ops[1].value) if isinstance(ops[1], Constant) else self.scalar(ops[1])
            if f is not None and f.is_mask and self.max_lanes <= 32:
                bits = self.macro("mask_bits", mt=f, m=self.reg(ops[0]))
                return None if bits is None else f"((({bits}) >> ({j})) & 1u)"
            if f is None or f.is_mask:
                return None
            lane = self.macro("extract", t=f, v=self.reg(ops[0]), j=j)
            if lane is not None and isinstance(inst.type, PtrType):
                lane = f"(({c_type(inst.type)})(uintptr_t){lane})"
            return lane
        if isinstance(inst, Call) and inst.pure and t is not None and not t.is_mask:
            # pure math may run on inactive lanes too: no memory, no traps
            return self.math(inst, t)
        if isinstance(inst, Call) and not inst.pure:
            return self.variant_call(inst)
        return None

    # -- declare simd variants ---------------------------------------------------------
    def variant_call(self, inst: Call) -> str | None:
        """The call as the best declare simd variant that fits it (the
        Vector Function ABI's caller rules: W lanes, masked under a mask,
        each parameter's kind fits its operand, vectors passed in one
        register of the size the code keeps them in)."""
        masked = inst.mask is not None
        for sig, v in self.callees.candidates(inst.callee, self.target, masked, self.W):
            text = self.variant_text(inst, sig, v)
            if text is not None:
                self.variants[inst] = v.mangled
                return text
        return None

    def variant_text(self, inst: Call, sig: Any, v: Variant) -> str | None:
        proto = prototype(sig, v)
        if proto is None:
            return None
        args = [self.variant_arg(inst, k, v, sig.params[k]) for k in range(len(inst.operands))]
        if v.masked:
            mt = self.target.mask_type(v.cdt_bits, self.W)
            if mt is None:
                return None
            args.append(self.variant_mask(inst, v, mt))
        if None in args:
            return None
        call = f"{v.mangled}({', '.join(a for a in args if a is not None)})"
        if inst.type != VOID:
            kept = self.reg_type(inst.type)
            abi = self.abi_register(inst.type, v, v.mangled + "_r", sig.ret)
            if kept is None or abi is None:
                return None
            if v.isa.scalable:  # sizeless types: no casts, narrow lanes packed
                want = self.target.vtype(_lane_type(sig.ret), self.W)
                packed = self.macro("abi_packed", t=want, x=call) if want else None
                call = self.same_bits(packed, want, kept)
                if call is None:
                    return None
            else:
                call = f"({kept.ctype}){call}"
        self.needs.add(("decl", proto))
        return call

    def scalable_argument(self, x: str | None, have: TypeInfo | None, declared: Type) -> str | None:
        """A vector for a scalable variant's parameter of type ``declared``:
        as its signedness (plain char differs between the views), unpacked
        when narrower than the variant's lanes (no casts of sizeless types)."""
        want = self.target.vtype(_lane_type(declared), self.W)
        same = self.same_bits(x, have, want)
        return None if same is None or want is None else self.macro("abi_unpacked", t=want, x=same)

    def same_bits(self, x: str | None, have: TypeInfo | None, want: TypeInfo | None) -> str | None:
        """``x`` of type ``have`` as ``want``, an integer of the same size
        (signedness only); None when it is another type."""
        if x is None or have is None or want is None:
            return None
        if have.key == want.key:
            return x
        if have.bits != want.bits or not (have.is_int and want.is_int):
            return None
        return self.macro("convert", f=have, t=want, a=x)

    def variant_mask(self, inst: Call, v: Variant, mt: TypeInfo) -> str | None:
        """The mask argument: the call's mask, or every lane for an unmasked
        call of a masked variant (scalable ones are always masked)."""
        if v.isa.mask == "vector" and mt.fill != mt.lanes:
            return None  # the lanes in part of a register: no cast to the ABI's vector
        if inst.mask is None:
            mask = self.macro("mask_splat", mt=mt, x="1")
        else:
            mask = self.mask_as(inst.mask, mt)
        if mask is None or v.isa.scalable:
            return mask
        return f"({mask_pieces(v)[0].written}){mask}"

    def abi_register(self, t: Type, v: Variant, tag: str, declared: Type) -> str | None:
        """The variant's C type of a vector of type ``t`` for a parameter or
        result of type ``declared`` (plain char's signedness may differ),
        when it passes it in one register as wide as the one the code keeps
        it in (scalable: as many lanes of the same size, narrow elements
        unpacked by abi_unpacked)."""
        assert isinstance(t, VectorType)
        ti = self.reg_type(t)
        regs = pieces(v.isa, declared, v.vlen, tag)
        if ti is None or len(regs) != 1:
            return None
        if v.isa.scalable:
            fits = ti.lanes == regs[0].lanes and ti.bits == element_bits(declared)
        else:  # the same lanes, and the C type holds no more (a cast keeps every bit)
            fits = ti.lanes == regs[0].lanes == ti.fill
        return regs[0].written if fits else None

    def split_argument(self, t: Type, v: Variant, declared: Type, x: str) -> str | None:
        """A vector ``x`` of type ``t`` for a parameter the variant passes in
        several registers (a ``long`` of 8 lanes in two AVX2 registers, from
        one AVX-512 register): the pieces, lowest lanes first, when the
        register the code keeps ``x`` in holds exactly their lanes."""
        assert isinstance(t, VectorType)
        ti = self.reg_type(t)
        regs = pieces(v.isa, declared, v.vlen, v.mangled)
        if (
            v.isa.scalable
            or ti is None
            or len(regs) < 2
            or not ti.lanes == ti.fill == sum(r.lanes for r in regs)
            or ti.bits != element_bits(declared)
        ):
            return None
        union = f"union {{ {ti.ctype} s2s_w; {regs[0].written} s2s_p[{len(regs)}]; }}"
        return ", ".join(
            f"__extension__ ({{ {union} s2s_u = {{ {x} }}; s2s_u.s2s_p[{j}]; }})"
            for j in range(len(regs))
        )

    def broadcast_argument(self, a: Value, v: Variant, declared: Type) -> str | None:
        """A uniform value for a varying parameter: every lane holds it."""
        t = self.vt(a.type)
        ti = self.reg_type(t)
        ctype = None if a.type == I1 else self.abi_register(t, v, v.mangled, declared)
        if ti is None or (ctype is None and v.isa.scalable):
            return None
        x = self.scalar(a)
        if isinstance(a.type, PtrType):
            x = f"(uint64_t)(uintptr_t){x}"
        splat = self.macro("broadcast", t=ti, x=x)
        if splat is None or v.isa.scalable:  # every element holds it: packed or not
            return splat
        if ctype is None:
            return None if a.type == I1 else self.split_argument(t, v, declared, splat)
        return f"({ctype}){splat}"

    def variant_arg(self, inst: Call, k: int, v: Variant, declared: Type) -> str | None:
        """Operand ``k`` as the variant's parameter (of type ``declared``): a
        vector in its register type, a uniform value as it is, a linear one
        as lane 0's value."""
        a, kind = inst.operands[k], v.params[k]
        t = a.type
        if not isinstance(t, VectorType):
            if kind.kind == "v":
                splat = self.broadcast_argument(a, v, declared)
                if v.isa.scalable:
                    splat = self.scalable_argument(splat, self.reg_type(self.vt(a.type)), declared)
                return splat
            return _user_argument(t, self.scalar(a)) if kind.kind == "u" else None
        if kind.kind == "v":
            ctype = None if t.elem == I1 else self.abi_register(t, v, v.mangled, declared)
            if ctype is None:
                return None if t.elem == I1 else self.split_argument(t, v, declared, self.reg(a))
            if v.isa.scalable:
                return self.scalable_argument(self.reg(a), self.reg_type(t), declared)
            return f"({ctype}){self.reg(a)}"
        if kind.kind == "l" and inst.lane_strides.get(k) == kind.step:
            ti = self.reg_type(t)
            if ti is None or ti.is_mask:
                return None
            lane0 = self.macro("extract", t=ti, v=self.reg(a), j=0)
            if lane0 is None:
                return None
            elem = t.elem
            if isinstance(elem, PtrType):
                lane0 = f"(({c_type(elem)})(uintptr_t){lane0})"
            return _user_argument(elem, lane0)
        return None

    def load_records(self, first: RecordLoad) -> bool:
        """Every field the group of ``first`` loads, at once (the target's
        ``load_records``; a slot nobody reads gets a variable of its own);
        False: the target cannot, each field goes lane by lane."""
        loads = self.record_loads[(first.block, first.operands[0])]
        t = self.reg_type(first.type)
        outs, unread = self.slot_outputs(first, loads)
        p = self.scalar(first.operands[0])
        text = self.macro("load_records", t=t, k=first.slots, p=p, outs=outs) if t else None
        if text is None:
            return False
        self.lines.extend(text.split("\n"))
        self.lines += [f"(void){name};" for name in unread]
        self.records_loaded.update(loads)
        return True

    def slot_outputs(
        self, first: RecordLoad | RowLoad, loads: list[RecordLoad] | list[RowLoad]
    ) -> tuple[list[str], list[str]]:
        """The variable of every slot of a group's records (the loads' own;
        a slot nobody reads gets one of its own, also returned apart)."""
        by_slot = {load.slot: load for load in loads}
        outs: list[str] = []
        unread: list[str] = []
        for k in range(first.slots):
            if k in by_slot:
                outs.append(self.names[by_slot[k]])
                continue
            unread.append(self.fresh(f"field{k}"))
            self.decls.append(self.decl_of(first.type, unread[-1]))
            outs.append(unread[-1])
        return outs, unread

    def load_rows(self, first: RowLoad) -> bool:
        """Every slot of a row group at once: each active lane's row copied
        to a buffer (an inactive lane's from a row of zeros), the buffer
        de-interleaved as records (the target's ``load_records``); False:
        the target cannot, each slot goes lane by lane."""
        loads = self.row_groups[first]
        t = self.reg_type(first.type)
        vectors = [first.operands[0]] + ([first.mask] if first.mask is not None else [])
        if t is None or not all(self.in_reg(v) for v in vectors):
            return False
        outs, unread = self.slot_outputs(first, loads)
        records = self.macro("load_records", t=t, k=first.slots, p="s2s_rows", outs=outs)
        if records is None:
            return False
        pre: list[str] = []
        row = self.lane_of(first.operands[0], pre, "row")
        active = self.lane_of(first.mask, pre, "mk") if first.mask is not None else ""
        text = self.target.render(
            "rows.c.j2",
            W=self.lanes,
            size=self.max_lanes * first.slots,
            k=first.slots,
            scalar=t.scalar,
            pre=pre,
            row=row,
            active=active,
            records=records.split("\n"),
        )
        self.lines.extend(text.rstrip("\n").split("\n"))
        self.lines += [f"(void){name};" for name in unread]
        self.records_loaded.update(loads)
        return True

    def store_records(self, inst: RecordStore) -> str | None:
        t = self.reg_type(inst.operands[0].type)
        if t is None:
            return None
        fields = [self.reg(v) for v in inst.operands[:-1]]
        p = self.scalar(inst.operands[-1])
        return self.macro("store_records", t=t, k=inst.slots, p=p, vs=fields)

    def through_addresses(self, inst: Gather | Scatter) -> str | None:
        """A gather or scatter through a vector of addresses (the target's
        ``[masked_]gather`` / ``[masked_]scatter``)."""
        ptrs = inst.operands[-1]
        value = inst if isinstance(inst, Gather) else inst.operands[0]
        t, at = self.reg_type(value.type), self.reg_type(ptrs.type)
        if t is None or at is None or t.is_mask:
            return None
        name = "gather" if isinstance(inst, Gather) else "scatter"
        args: dict[str, Any] = dict(t=t, a=self.reg(ptrs), at=at)
        if isinstance(inst, Scatter):
            args["v"] = self.reg(inst.operands[0])
        if inst.mask is not None:
            mt = self.mask_for(t)
            if mt is None:
                return None
            name = "masked_" + name
            args.update(m=self.mask_as(inst.mask, mt), mt=mt)
        return self.macro(name, **args)

    def lane_addresses(self, inst: Gep, t: TypeInfo) -> str | None:
        """``gep base, index`` on vectors as 64-bit integer arithmetic:
        base + (index << log2 size), index converted to 64 bits as C does."""
        base, index = inst.operands
        ptr = element_type(inst.type)
        if not isinstance(ptr, PtrType) or ptr.pointee.size & (ptr.pointee.size - 1):
            return None
        size = ptr.pointee.size
        if isinstance(index.type, VectorType):
            it = self.reg_type(index.type)
            offset = None if it is None else self.macro("convert", f=it, t=t, a=self.reg(index))
        else:
            offset = self.macro("broadcast", t=t, x=f"(uint64_t){self.scalar(index)}")
        if offset is not None and size > 1:
            shift = self.macro("broadcast", t=t, x=str(size.bit_length() - 1))
            offset = None if shift is None else self.macro("shl", t=t, a=offset, b=shift)
        if isinstance(base.type, VectorType):
            start: str | None = self.reg(base)
        else:
            start = self.macro("broadcast", t=t, x=f"(uint64_t)(uintptr_t){self.scalar(base)}")
        if offset is None or start is None:
            return None
        return self.macro("add", t=t, a=start, b=offset)

    def contiguous(self, inst: Instruction) -> str | None:
        value = inst if isinstance(inst, VLoad) else inst.operands[0]
        t = self.reg_type(value.type)
        if t is None or t.is_mask:
            return None
        p = self.scalar(inst.operands[-1])
        if inst.mask is None:
            return (
                self.macro("load", t=t, p=p)
                if isinstance(inst, VLoad)
                else self.macro("store", t=t, p=p, v=self.reg(inst.operands[0]))
            )
        mt = self.mask_for(t)
        if mt is None:
            return None
        m = self.mask_as(inst.mask, mt)
        return (
            self.macro("masked_load", t=t, p=p, m=m, mt=mt)
            if isinstance(inst, VLoad)
            else self.macro("masked_store", t=t, p=p, v=self.reg(inst.operands[0]), m=m, mt=mt)
        )

    def math(self, inst: Call, t: TypeInfo) -> str | None:
        maybe = [
            self.reg(o)
            if isinstance(o.type, VectorType)
            else self.macro("broadcast", t=t, x=self.scalar(o))
            for o in inst.operands
        ]
        args = [a for a in maybe if a is not None]
        if not inst.pure or len(args) < len(maybe):
            return None
        if inst.callee in EXACT_MATH:
            return self.macro(inst.callee, t=t, **dict(zip("abc", args)))
        if not self.vector_math:
            return None
        name = self.target.vector_math_name(inst.callee, len(args), t)
        if name is None:
            return None
        if inst.mask is not None:
            args = self.inactive_ones(inst.mask, args, t)
            if args is None:
                return None
        self.needs.add(("proto", name, t.ctype, len(args)))
        return f"{name}({', '.join(args)})"

    def inactive_ones(self, mask: Value, args: list[str], t: TypeInfo) -> list[str] | None:
        """A math call's arguments with 1.0 on the lanes its mask leaves
        out: what those lanes hold (0/0, a negative, an infinity) would send
        the vector math library down its slow path for special inputs."""
        mt = self.mask_for(t)
        one = self.macro("broadcast", t=t, x="1.0")
        if mt is None or one is None:
            return None
        m = self.mask_as(mask, mt)
        out = [self.macro("select", t=t, m=m, a=a, b=one, mt=mt) for a in args]
        return None if None in out else [a for a in out if a is not None]

    # -- masks -----------------------------------------------------------------------
    def canonical(self) -> TypeInfo:
        mt = self.target.mask_type(self.mask_bits, self.W)
        assert mt is not None
        return mt

    def mask_for(self, t: TypeInfo) -> TypeInfo | None:
        return self.target.mask_type(t.bits, self.W)

    def to_canonical(self, text: str, mt: TypeInfo) -> str | None:
        canon = self.canonical()
        if mt.key == canon.key:
            return text
        return self.macro("mask_convert", f=mt, t=canon, m=text)

    def mask_as(self, m: Value, mt: TypeInfo) -> str:
        canon = self.canonical()
        name = self.reg(m)
        if mt.key == canon.key:
            return name
        converted = self.macro("mask_convert", f=canon, t=mt, m=name)
        assert converted is not None, f"no mask conversion {canon.key} -> {mt.key}"
        return converted

    def horizontal(self, inst: Call) -> None:
        if not self.target.has("mask_bits", mt=self.canonical()):
            return self.horizontal_predicate(inst)
        bits = self.lane_bits(inst.operands[0])
        active = self.lane_bits(inst.mask) if inst.mask is not None else f"{(1 << self.W) - 1}u"
        value = {
            ANY: f"({bits} & {active}) ? 1 : 0",
            ALL: f"((({bits}) & ({active})) == ({active})) ? 1 : 0",
            POPCOUNT: f"__builtin_popcount({bits} & {active})",
        }[inst.callee]
        self.lines.append(f"{self.names[inst]} = {value};")

    def horizontal_predicate(self, inst: Call) -> None:
        """any / all / popcount of a mask where the target has no bits of
        masks (a scalable one): its ``mask_any`` and ``mask_count`` of the
        lanes that are set (``all``: of the active lanes that are not)."""
        mt = self.canonical()
        value, active = inst.operands[0], inst.mask
        act = self.reg(active) if active is not None else None

        def active_of(m: str) -> str:
            return m if act is None else self.required("mask_and", mt=mt, a=m, b=act)

        def some(m: str | None) -> str:
            return "1" if m is None else self.required("mask_any", mt=mt, m=m)

        if isinstance(value.type, VectorType):
            m = self.reg(value)
            unset = active_of(self.required("mask_not", mt=mt, a=m))
            expr = {
                ANY: some(active_of(m)),
                ALL: f"!{some(unset)}",
                POPCOUNT: self.required("mask_count", mt=mt, m=active_of(m)),
            }[inst.callee]
        else:  # a uniform condition, for the active lanes
            s = self.scalar(value)
            count = self.lanes if act is None else self.required("mask_count", mt=mt, m=act)
            expr = {
                ANY: f"({s} && {some(act)})",
                ALL: f"({s} || !{some(act)})",
                POPCOUNT: f"({s} ? {count} : 0)",
            }[inst.callee]
        self.lines.append(f"{self.names[inst]} = {expr};")

    def lane_bits(self, m: Value) -> str:
        """The lanes of a mask as bits of an unsigned (lane k: bit k)."""
        if isinstance(m.type, VectorType) and self.in_reg(m):
            return f"({self.macro('mask_bits', mt=self.canonical(), m=self.reg(m))})"
        if isinstance(m.type, VectorType):
            return self.bits_of_mask(self.names[m])
        return f"({self.scalar(m)} ? {(1 << self.W) - 1}u : 0u)"

    def last_assigned(
        self, t: VectorType, parts: list[str], flags: list[str] | None, var: str
    ) -> list[str]:
        """C that sets ``var`` to the lane of the sequentially last
        iteration whose flag is set (every lane's when ``flags`` is None):
        the parts hold ``t``'s lanes in order, ``flags`` their masks; with
        no flag set ``var`` keeps its value."""
        if self.target.scalable:
            return self.last_assigned_scalable(t, parts, flags, var)
        lanes = c_decl(ArrayType(_lane_type(t.elem), self.W), "s2s_lanes")
        if flags is None:
            ti = self.reg_type(t)
            lane = self.macro("extract", t=ti, v=parts[-1], j=self.W - 1) if ti else None
            if lane is not None:
                return [_assign_lane(t, var, lane)]
            store = self.store_lanes(t, parts[-1], "s2s_lanes")
            return [f"{{ {lanes}; {store} {var} = {_as_lane(t, f's2s_lanes[{self.W - 1}]')}; }}"]
        out: list[str] = []
        for value, flag in zip(parts, flags):
            bits = self.bits_of_mask(flag)
            out += [
                f"if ({bits}) {{",
                f"{INDENT}{lanes};",
                f"{INDENT}{self.store_lanes(t, value, 's2s_lanes')}",
                f"{INDENT}{var} = {_as_lane(t, f's2s_lanes[31 - __builtin_clz({bits})]')};",
                "}",
            ]
        return out

    def last_assigned_scalable(
        self, t: VectorType, parts: list[str], flags: list[str] | None, var: str
    ) -> list[str]:
        """``last_assigned`` with the target's last-lane macros (no bits of masks)."""
        ti = self.reg_type(t)
        if ti is None:
            raise Unsupported(f"no register of {t} for a lastprivate variable")
        if flags is None:
            return [_assign_lane(t, var, self.required("extract_last", t=ti, v=parts[-1]))]
        canon, mt = self.canonical(), self.mask_for(ti)
        assert mt is not None
        out: list[str] = []
        for value, flag in zip(parts, flags):
            m = (
                flag
                if mt.key == canon.key
                else self.required("mask_convert", f=canon, t=mt, m=flag)
            )
            lane = self.required("extract_last_active", t=ti, v=value, m=m, mt=mt)
            any_set = self.required("mask_any", mt=canon, m=flag)
            out.append(f"if ({any_set}) {_assign_lane(t, var, lane)}")
        return out

    def bits_of_mask(self, name: str) -> str:
        """The lanes of the mask variable ``name`` as bits of an unsigned."""
        mt = self.reg_type(self.vt(I1))
        if mt is not None:
            return f"({self.macro('mask_bits', mt=mt, m=name)})"
        return (
            "(" + " | ".join(f"((unsigned)({name}[{k}] != 0) << {k})" for k in range(self.W)) + ")"
        )

    def store_lanes(self, t: Type, name: str, p: str) -> str:
        """C that stores the value ``name`` of type ``t`` at ``p`` (W lanes for a vector)."""
        if not isinstance(t, VectorType):
            return f"*{p} = {name};"
        ti = self.reg_type(t)
        if ti is None:
            return self.lane_loop() + f"{p}[s2s_j] = {name}[s2s_j];"
        return self.macro("store", t=ti, p=p, v=name) or ""

    def load_lanes(self, t: Type, name: str, p: str) -> str:
        """C that sets ``name`` of type ``t`` from W lanes at ``p``."""
        if not isinstance(t, VectorType):
            return f"{name} = *{p};"
        ti = self.reg_type(t)
        if ti is None:
            return self.lane_loop() + f"{name}[s2s_j] = {p}[s2s_j];"
        return f"{name} = {self.macro('load', t=ti, p=p)};"

    # -- the generic per-lane loop ---------------------------------------------------------
    def per_lane(self, inst: Instruction) -> None:
        pre: list[str] = []
        lane = self.lane_operands(inst, pre)
        guard, bits = self.lane_guard(inst.mask, pre)
        stmt, post = self.lane_statement(inst, lane, pre)
        self.lane_loop_of(pre, guard, bits, stmt, post)

    def lane_operands(self, inst: Instruction, pre: list[str], tag: str = "") -> list[str]:
        """The C of lane ``s2s_j`` of each operand, the vectors spilled in
        ``pre`` to arrays named with ``tag``."""
        if any(
            isinstance(t, VectorType) and not t.scalable and t.lanes != self.W
            for t in [inst.type, *(o.type for o in inst.operands)]
        ):  # arrays of W lanes would not hold them: generate's even cut instead
            raise Unsupported(f"no lane-by-lane '{inst.opcode}' of vectors cut by element type")
        lane: list[str] = []
        # lane s2s_j of the result reads lane W - 1 - s2s_j of a reverse's operand
        at = f"{self.lanes} - 1 - s2s_j" if isinstance(inst, Reverse) else "s2s_j"
        for k, op in enumerate(inst.operands):
            found = self.indexed(op) if op in self.folded else None
            if found is not None:  # base[index] of a gather or scatter
                base, index, _ = found
                lane.append(f"({self.scalar(base)} + {self.lane_of(index, pre, f'ix{k}{tag}')})")
            else:
                lane.append(self.lane_of(op, pre, f"in{k}{tag}", at))
        return lane

    def lane_loop_of(
        self, pre: list[str], guard: str, bits: str, stmt: str, post: list[str]
    ) -> None:
        text = self.target.render(
            "per_lane.c.j2", W=self.lanes, pre=pre, guard=guard, bits=bits, stmt=stmt, post=post
        )
        self.lines.extend(text.rstrip("\n").split("\n"))

    # -- scatters lane by lane, one loop for several ------------------------------------
    def scatter_lanes(self, inst: Scatter) -> None:
        """A scatter done lane by lane waits for the next: one under the same
        mask into another stack object shares its loop over the active lanes
        (a k-d tree's push writes the node and its bound: one loop, not two).
        Only instructions without memory access may come between
        (``instruction`` writes the waiting loop before any other); stores
        into different objects commute, so each lane may do both."""
        if self.scatters and not self.joins_scatters(inst):
            self.write_scatters()
        if self.stack_object(inst) is None:
            return self.per_lane(inst)  # none can join it
        self.scatters.append(inst)

    def joins_scatters(self, inst: Scatter) -> bool:
        first = self.scatters[0]
        if inst.mask is None or inst.mask is not first.mask:
            return False
        objects = [self.stack_object(s) for s in [*self.scatters, inst]]
        return None not in objects and len(set(map(id, objects))) == len(objects)

    def passes_scatters(self, inst: Instruction) -> bool:
        """Whether ``inst`` may run before the waiting scatters: it touches
        no memory, or it loads from memory an argument points to (or another
        stack object) while they write into stack objects of the loop."""
        if _memory_free(inst):
            return True
        if not isinstance(inst, (VLoad, Gather)):
            return False
        read = self.based_on(inst.operands[0])
        written = [self.stack_object(s) for s in self.scatters]
        return isinstance(read, (Argument, Alloca)) and all(
            w is not None and w is not read for w in written
        )

    def stack_object(self, inst: Scatter) -> Alloca | None:
        """The stack object a scatter writes into, if its addresses are based on one."""
        base = self.based_on(inst.operands[-1])
        return base if isinstance(base, Alloca) else None

    def based_on(self, ptrs: Value) -> Value:
        """The pointer addresses are computed from (through geps and casts)."""
        found = self.indexed(ptrs) if ptrs in self.folded else None
        return address_base(found[0] if found is not None else ptrs)

    def write_scatters(self) -> None:
        """The loop of the waiting scatters (scatter_lanes)."""
        group, self.scatters = self.scatters, []
        if not group:
            return
        pre: list[str] = []
        self.spilled = {}  # an index vector two of them share is spilled once
        lanes = [self.lane_operands(s, pre, f"_{n}" if n else "") for n, s in enumerate(group)]
        self.spilled = None
        guard, bits = self.lane_guard(group[0].mask, pre)
        stmts = [self.lane_statement(s, lane, pre)[0] for s, lane in zip(group, lanes)]
        self.lane_loop_of(pre, guard, bits, " ".join(stmts), [])

    def lane_guard(self, mask: Value | None, pre: list[str]) -> tuple[str, str]:
        """How the per-lane loop keeps to the active lanes: the test of one
        lane's bit, or the variable whose set bits it visits."""
        if mask is None:
            return "", ""
        bits = self.mask_bit_set(mask, pre, "mk")
        return ("", bits) if bits else (f"if ({self.lane_of(mask, pre, 'mk')}) ", "")

    def mask_bit_set(self, mask: Value, pre: list[str], hint: str) -> str:
        """The active lanes of a mask register as the bits of an unsigned
        variable (its name), so that the per-lane loop visits only them: no
        branch per lane on a bit; "" when the target keeps this mask
        otherwise (then lane_of tests each lane)."""
        ti = self.reg_type(mask.type) if self.in_reg(mask) else None
        if ti is None or not ti.is_mask or not self.target.has("mask_bits", mt=ti):
            return ""
        if self.max_lanes > 32:
            return ""  # more than the bits of an unsigned
        bits = f"s2s_{hint}"
        pre.append(f"unsigned {bits} = {self.macro('mask_bits', mt=ti, m=self.reg(mask))};")
        return bits

    def complex_pair(self, inst: Call) -> None:
        """Both parts of a complex operation from one evaluation per lane:
        the pair helper stores them through two pointers (the other part's
        call is then done)."""
        if inst not in self.pairs_done:
            other = self.complex_pairs[inst]
            helper = complex_call_named(inst.callee)
            assert helper is not None
            self.needs.add(("complex_pair", inst.callee))
            pre: list[str] = []
            lane = [self.lane_of(op, pre, f"in{k}") for k, op in enumerate(inst.operands)]
            guard, bits = self.lane_guard(inst.mask, pre)
            re, im = (inst, other) if helper.part == "re" else (other, inst)
            outs, post = [], []
            for part, hint in ((re, "re"), (im, "im")):
                out, reload = self.lane_array(part, f"s2s_{hint}", pre)
                outs.append(out)
                post += reload
            stmt = f"{helper.pair_name}({', '.join(lane)}, &{outs[0]}[s2s_j], &{outs[1]}[s2s_j]);"
            text = self.target.render(
                "per_lane.c.j2", W=self.lanes, pre=pre, guard=guard, bits=bits, stmt=stmt, post=post
            )
            self.lines.extend(text.rstrip("\n").split("\n"))
            self.pairs_done |= {inst, other}
        self.count_call(inst, False)

    def lane_array(self, v: Value, name: str, pre: list[str]) -> tuple[str, list[str]]:
        """An array a per-lane loop writes ``v``'s lanes to (zeroed first:
        inactive lanes are read later), and what loads it into ``v``."""
        t = v.type
        assert isinstance(t, VectorType)
        ti = self.reg_type(t)
        if ti is None:
            pre.append(self.lane_loop() + f"{self.names[v]}[s2s_j] = 0;")
            return self.names[v], []
        pre.append(f"{c_decl(_lane_type(t.elem), name)}[{self.max_lanes}] = {{0}};")
        return name, [f"{self.names[v]} = {self.macro('load', t=ti, p=name)};"]

    def lane_of(self, v: Value, pre: list[str], hint: str, at: str = "s2s_j") -> str:
        """Lane ``at`` of an operand (a register spilled to an array first)."""
        if not isinstance(v.type, VectorType):
            return self.scalar(v)
        if not self.in_reg(v):
            return _as_lane(v.type, f"{self.names[v]}[{at}]")
        ti = self.reg_type(v.type)
        assert ti is not None
        if ti.is_mask and not self.target.has("mask_bits", mt=ti):
            arr = f"s2s_{hint}"
            pre.append(f"{ti.scalar} {arr}[{self.max_lanes}];")
            pre.append(self.macro("mask_lanes", mt=ti, p=arr, m=self.reg(v)) or "")
            return f"{arr}[{at}]"
        if ti.is_mask:
            bits = f"s2s_{hint}"
            pre.append(f"unsigned {bits} = {self.macro('mask_bits', mt=ti, m=self.reg(v))};")
            return f"(({bits} >> ({at})) & 1u)"
        arr = self.spilled.get(v) if self.spilled is not None else None
        if arr is None:
            arr = f"s2s_{hint}"
            pre.append(f"{ti.scalar} {arr}[{self.max_lanes}];")
            pre.append(self.macro("store", t=ti, p=arr, v=self.reg(v)) or "")
            if self.spilled is not None:
                self.spilled[v] = arr
        return _as_lane(v.type, f"{arr}[{at}]")

    def lane_statement(
        self, inst: Instruction, lane: list[str], pre: list[str]
    ) -> tuple[str, list[str]]:
        """The scalar C of one lane, and what reloads the result."""
        if isinstance(inst, (VStore, Scatter)):
            addr = f"({lane[1]} + s2s_j)" if isinstance(inst, VStore) else lane[1]
            return f"*{addr} = {lane[0]};", []
        if isinstance(inst, RecordStore):
            k = inst.slots
            return " ".join(
                f"{lane[-1]}[s2s_j * {k} + {s}] = {v};" for s, v in enumerate(lane[:-1])
            ), []
        if isinstance(inst, Call) and not inst.pure:
            lane = [
                _user_argument(element_type(o.type), text) for o, text in zip(inst.operands, lane)
            ]
        if isinstance(inst, Call) and inst.type == VOID:
            return f"{inst.callee}({', '.join(lane)});", []
        if isinstance(inst, Call) and inst in self.discarded:
            return f"(void){inst.callee}({', '.join(lane)});", []
        expr = self.lane_expression(inst, lane)
        t = inst.type
        if not isinstance(t, VectorType):  # extractlane, reduce
            return expr, []
        elem = _lane_type(t.elem)
        if isinstance(t.elem, PtrType):
            expr = f"(uint64_t)(uintptr_t){expr}"
        if not self.in_reg(inst):
            if inst.mask is not None:  # inactive lanes are read later (-Wmaybe-uninitialized)
                pre.append(self.lane_loop() + f"{self.names[inst]}[s2s_j] = 0;")
            return f"{self.names[inst]}[s2s_j] = {expr};", []
        ti = self.reg_type(t)
        assert ti is not None
        # zeroed where lanes stay unset (gcc cannot tell a loop to a run-time
        # lane count sets every lane the reload reads)
        zeroed = inst.mask is not None or isinstance(inst, (VLoad, Gather)) or self.target.scalable
        init = " = {0}" if zeroed else ""
        if ti.is_mask and self.target.mask_kind == "bits":
            pre.append("unsigned s2s_ob = 0;")
            return (
                f"if ({expr}) s2s_ob |= 1u << s2s_j;",
                [f"{self.names[inst]} = ({ti.ctype})s2s_ob;"],
            )
        if ti.is_mask:
            it = self.target.vtype(f"i{self.mask_bits}", self.W)
            assert it is not None
            pre.append(f"{it.scalar} s2s_out[{self.max_lanes}]{init};")
            post = [
                f"{it.ctype} s2s_t = {self.macro('load', t=it, p='s2s_out')};",
                f"{it.ctype} s2s_z = {self.macro('broadcast', t=it, x='0')};",
                f"{self.names[inst]} = {self.macro('cmp_ne', t=it, a='s2s_t', b='s2s_z', mt=ti)};",
            ]
            return f"s2s_out[s2s_j] = ({expr}) ? -1 : 0;", post
        pre.append(f"{c_decl(elem, 's2s_out')}[{self.max_lanes}]{init};")
        return f"s2s_out[s2s_j] = {expr};", [
            f"{self.names[inst]} = {self.macro('load', t=ti, p='s2s_out')};"
        ]

    def lane_expression(self, inst: Instruction, lane: list[str]) -> str:
        if isinstance(inst, Splat):
            return lane[0]
        if isinstance(inst, StepVector):
            return "s2s_j"
        if isinstance(inst, Reverse):  # its operand's lane is the reversed one
            return lane[0]
        if isinstance(inst, VLoad):
            return f"{lane[0]}[s2s_j]"
        if isinstance(inst, RecordLoad):
            return f"{lane[0]}[s2s_j * {inst.slots} + {inst.slot}]"
        if isinstance(inst, Gather):
            return f"(*{lane[0]})"
        if isinstance(inst, RowLoad):
            return f"({lane[0]})[{inst.slot}]"
        if isinstance(inst, InsertLane):
            return f"(s2s_j == {lane[2]} ? {lane[1]} : {lane[0]})"
        if isinstance(inst, (ExtractLane, Reduce)):
            return self.lane_scalar_result(inst, lane)
        return scalar_expr(inst, lane)

    def lane_scalar_result(self, inst: Instruction, lane: list[str]) -> str:
        dst = self.names[inst]
        if isinstance(inst, ExtractLane):
            return f"if (s2s_j == {lane[1]}) {dst} = {lane[0]};"
        first = f"{self.fresh('first')}"
        self.decls.append(f"int {first}")
        self.lines.append(f"{first} = 1;")
        assert isinstance(inst, Reduce)
        combined = binop_expr(inst.op, inst.type, dst, lane[0])
        return f"{{ {dst} = {first} ? {lane[0]} : {combined}; {first} = 0; }}"

    # -- control -----------------------------------------------------------------------------
    def terminator(self, inst: Instruction) -> None:
        block = inst.block
        assert block is not None
        if isinstance(inst, Ret):
            for name, v in zip(self.results, inst.operands):
                self.lines.extend(self.copy(v, name))
            self.lines.append(f"goto {self.end_label};")
        elif isinstance(inst, Br):
            self.lines.extend(self.edge(block, inst.target))
        elif isinstance(inst, CondBr):
            self.lines.append(f"if ({self.scalar(inst.operands[0])}) {{")
            self.lines.extend(self.edge(block, inst.if_true))
            self.lines.append("} else {")
            self.lines.extend(self.edge(block, inst.if_false))
            self.lines.append("}")
        elif isinstance(inst, Switch):
            self.lines.append(f"switch ({self.scalar(inst.operands[0])}) {{")
            for k, succ in inst.cases:
                self.lines.append(f"case {literal(k, inst.operands[0].type)}: {{")
                self.lines.extend(self.edge(block, succ))
                self.lines.append("}")
            self.lines.append("default: {")
            self.lines.extend(self.edge(block, inst.default))
            self.lines.append("}")
            self.lines.append("}")

    def edge(self, pred: Block, succ: Block) -> list[str]:
        """The phi copies of an edge (in parallel) and the jump."""
        phis = succ.phis
        out: list[str] = []
        temps = []
        for phi in phis:
            temp = self.fresh(f"{phi.name}_in")
            self.decls.append(self.decl_of(phi.type, temp))
            out += self.copy(phi.value_from(pred), temp)
            temps.append(temp)
        for phi, temp in zip(phis, temps):
            out += self.copy_named(phi.type, temp, self.names[phi])
        if not (isinstance(pred.terminator, Br) and self.falls_into.get(pred) is succ):
            out.append(f"goto {self.labels[succ]};")
        return out

    def copy(self, v: Value, dst: str) -> list[str]:
        if isinstance(v, (Constant, Undef)):
            return [f"{dst} = {value_literal(v)};"]
        return self.copy_named(v.type, self.names[v], dst)

    def copy_named(self, t: Type, src: str, dst: str) -> list[str]:
        """``dst = src``; arrays lane by lane; nothing when they are one
        (an accumulator the trip leaves as it was: clang's -Wself-assign)."""
        if src == dst:
            return []
        if isinstance(t, VectorType) and self.reg_type(t) is None:
            return [self.lane_loop() + f"{dst}[s2s_j] = {src}[s2s_j];"]
        return [f"{dst} = {src};"]


def _user_argument(t: Type, text: str) -> str:
    """An argument of a call of the user's function: a pointer through
    ``void *``, which converts to the parameter's pointer type as declared
    (the IR's type may name the target otherwise: ``int8_t *`` for ``const
    char *``, a clang -Wpointer-sign warning)."""
    return f"(void *)({text})" if isinstance(t, PtrType) else text


def _assign_lane(t: VectorType, var: str, lane: str) -> str:
    """``var = lane;`` through a local: gcc 12 loses a
    ``lastprivate(conditional:)`` variable assigned a call's result directly
    (kernel lastprivate_conditional_worksharing on SVE)."""
    return f"{{ {c_decl(t.elem, 's2s_last')} = {_as_lane(t, lane)}; {var} = s2s_last; }}"


def _as_lane(t: Type, text: str) -> str:
    """A lane value in C: pointers travel as 64-bit integers."""
    if isinstance(t, VectorType) and isinstance(t.elem, PtrType):
        return f"(({c_type(t.elem)})(uintptr_t){text})"
    return text


def _complex_pairs(fn: Function, discarded: Container[Instruction]) -> dict[Call, Call]:
    """The two calls of one complex value's parts: lane by lane, in one block,
    on the same operands under the same mask, both results read."""
    pairs: dict[Call, Call] = {}
    for b in fn.blocks:
        seen: dict[tuple[object, ...], Call] = {}
        for inst in b.instructions:
            helper = complex_call_named(inst.callee) if isinstance(inst, Call) else None
            if helper is None or not isinstance(inst.type, VectorType) or inst in discarded:
                continue
            assert isinstance(inst, Call)
            same = (inst.mask, *inst.operands)
            other = seen.get((helper.sibling, *same))
            if other is not None and other not in pairs:
                pairs[inst], pairs[other] = other, inst
            seen[(helper.name, *same)] = inst
    return pairs


_SCAN_MACROS = {
    "+": "add",
    "*": "mul",
    "min": "min",
    "max": "max",
    "&": "and",
    "|": "or",
    "^": "xor",
}
"""The ops.j2 macro of each scan operator made in registers (``&&``, ``||``
and declared reductions run lane by lane)."""


def _constant_count(inst: BinOp | UnOp, bits: int) -> int | None:
    """The count of a shift by one constant for every lane (a splat of a
    constant below the lane width; the target's immediate form), else None."""
    if not isinstance(inst, BinOp) or inst.op not in ("shl", "shr"):
        return None
    count = inst.operands[1]
    if isinstance(count, Splat):
        count = count.operands[0]
    if not isinstance(count, Constant) or isinstance(count.type, VectorType):
        return None
    value = count.value
    return value if isinstance(value, int) and 0 <= value < bits else None


def _ab(emitter: VectorIREmitter, ops: list[Value]) -> dict[str, str]:
    return dict(zip("ab", [emitter.reg(o) for o in ops]))


def _lane_type(t: Type) -> Type:
    """Pointers travel as 64-bit integers in vectors."""
    return U64 if isinstance(t, PtrType) else t


def _is_splat_of(v: Value, value: int) -> bool:
    return (
        isinstance(v, Splat)
        and isinstance(v.operands[0], Constant)
        and v.operands[0].value == value
    )


def _c_name(hint: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in hint)


def _row_groups(fn: Function) -> dict[RowLoad, list[RowLoad]]:
    """The row loads of one group: the widening makes a group's loads one
    after the other (the parts of several vectors interleaved), so a group
    is the loads of one row address vector, mask and row length in a run
    of row loads.  Two groups of one row address (a store between them)
    are two runs."""
    groups: dict[RowLoad, list[RowLoad]] = {}
    for block in fn.blocks:
        run: dict[tuple[Value, Value | None, int], list[RowLoad]] = {}
        for inst in block.instructions:
            if not isinstance(inst, RowLoad):
                run = {}
                continue
            group = run.setdefault((inst.operands[0], inst.mask, inst.slots), [])
            group.append(inst)
            groups[inst] = group
    return groups


def _memory_free(inst: Instruction) -> bool:
    """Whether an instruction reads and writes no memory (it may come
    between scatters that share a loop: VectorIREmitter.scatter_lanes)."""
    if isinstance(inst, Call):
        return inst.pure
    return isinstance(
        inst,
        (BinOp, UnOp, Cmp, Select, Cast, Gep, Splat, StepVector)
        + (ExtractLane, InsertLane, Reverse, Reduce, ExtractPart, Concat),
    )
