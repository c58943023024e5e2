"""Code generation for one loop region: width choice, widening, skeleton.

``generate_loop`` returns the C block that replaces ``#pragma + loop``:

    {
        /* s2svec: <target>, <W> lanes, loop at file:line */
        trip count (once, in unsigned long long), live-ins, accumulators
        for (k = 0; trip - k >= W; k += W) { widened body }      (vector loop)
        horizontal reductions
        for (e = 0; e < trip % W; e++) { iv = ...; original body text }
        final values of linear variables and of a loop variable declared outside
    }

For ``for simd``/``parallel for simd`` the loop runs over blocks
``b = 0 .. ceil(trip/W)`` under the worksharing pragma (the user's clauses
minus collapse/linear); each vector block folds its partial reductions into
the variable (the pragma's reduction clause combines the threads) and the
last block is the scalar remainder.  The layout is templates/common/loop.c.j2.
``prelude`` gives the file-level text the blocks need.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..analysis.memory import MemoryAccesses, indexed_address, memory_counts, memory_shapes
from ..analysis.records import RecordGroup
from ..diagnostics import Location, Unsupported, internal_error
from ..ir.atomic_calls import atomic_call_named
from ..ir.clauses import UserReduction, reduction_identity
from ..ir.complex_calls import COMPLEX_CALLS
from ..ir.region import ScanHelper
from ..ir.types import I1, I32, U64, FloatType, IntType, PtrType, Type, VectorType
from ..ir.values import (
    Alloca,
    Call,
    Cast,
    Cmp,
    Constant,
    Gep,
    Instruction,
    Load,
    Ret,
    Store,
    Value,
)
from ..ir.verifier import verify
from ..transform.dce import eliminate_dead_code
from ..transform.fold import fold_decided_comparisons
from .c_lines import INDENT, indent_lines
from .calls import Callees
from .cexpr import c_decl, c_type, literal, unsigned_of
from .emit_vector_ir import EmittedBody, VectorIREmitter
from .interleave import interleave_factor
from .legalize import register_parts, split_mixed, split_vectors
from .promote_counters import promote_counters
from .target import Target, TypeInfo
from .to_vector_ir import VectorFunction, widen_to_vector_ir


@dataclass
class CodegenOptions:
    math: str = "vector"
    """``vector``: libmvec where the target has it; ``exact``: scalar libm per lane."""
    simdlen: int | None = None
    """Overrides the simdlen clause (the --simdlen option)."""
    simd_functions: dict[str, Any] = field(default_factory=dict)
    """declare simd functions the file declares or defines with variants,
    and callees with internal variants (s2s.internal_variants):
    name -> (codegen.variant.Signature, [vfabi.Variant])."""
    no_variant: dict[str, str] = field(default_factory=dict)
    """Callees whose internal variant could not be made, and why."""
    interleave: int = 0
    """Vectors per trip of a loop the vector IR path takes (``--interleave``):
    the loop is widened that many times over and cut into registers; 0: the
    cost model chooses (``_LoopGen.interleave``)."""


@dataclass
class _VectorIRCode:
    """The C of one region's vector function (``_LoopGen.vector_ir_code``)."""

    setup: list[str]
    iter_setup: list[str]
    accumulators: list[tuple[Any, list[str]]]
    """Each reduction's binding and the variables of its parts."""
    body: EmittedBody
    emitter: VectorIREmitter


@dataclass
class GeneratedLoop:
    text: str
    """The C statement block replacing the lines of the pragma and the loop
    (indented like the pragma; splice it at the start of the pragma's line)."""
    width: int
    stats: dict[str, Any]
    """``memory``, ``calls``, ``allocas`` counts for the report, and the
    ``call_sites`` (CodeStats.call_sites)."""
    needs: set[Any] = field(default_factory=set)
    """Prelude items (see ``prelude``)."""
    refill: bool = False
    """The loop runs with lane refill (transform.refill)."""


MAX_SIMDLEN_VECTORS = 8
"""Registers one vector of a ``simdlen`` wider than a register may take."""


def _always(fn: Any, k: int) -> bool:
    """Whether result ``k`` of every ``ret`` of ``fn`` is the constant true."""
    results = [i.operands[k] for i in fn.instructions() if isinstance(i, Ret)]
    return all(isinstance(v, Constant) and bool(v.value) for v in results)


# -- width -------------------------------------------------------------------------------
def _bits(t: Type) -> int:
    if isinstance(t, (IntType, FloatType)):
        return t.bits
    return 64


def choose_width(
    region: Any, div: Any, target: Target, options: CodegenOptions, records: Any = None
) -> tuple[int, int]:
    """(W, mask bits): W = register_bits / widest element among vector values
    (the target's ``record_register_bits`` when ``records``, the region's
    s2s.analysis.records groups, has any).

    Varying addresses count as 64-bit lanes (vectors of addresses), except
    ``base[index]`` accesses the target reaches from a 32-bit index
    (``gather_base``, ``masked_gather_base``, ``scatter_base`` ...): tried
    first, kept when every such access has a template, or the width has no
    vector of 64-bit addresses (NEON at 4 lanes: the access goes lane by lane
    from the index, as it would from addresses), or it is a store and the
    target has no scatter at all."""
    bits = target.register_bits
    if records is not None and records.groups and target.record_register_bits:
        narrow = min(bits, target.record_register_bits)
        if _moves_records(region, div, target, options, narrow, records):
            bits = narrow
    if records is not None and records.groups:
        # the members of record groups need no vectors of addresses: the
        # width of their elements, where the target moves every group there
        grouped = frozenset(i for g in records.groups for i, _ in g.members)
        width, widest = _width_with_indexed(region, div, target, options, bits, grouped)
        threads = bool(region.worksharing)
        if all(record_vector_type(target, g, width, threads) for g in records.groups):
            return width, widest
    return _width_with_indexed(region, div, target, options, bits)


def _width_with_indexed(
    region: Any,
    div: Any,
    target: Target,
    options: CodegenOptions,
    bits: int,
    grouped: frozenset[Instruction] = frozenset(),
) -> tuple[int, int]:
    width, widest, indexed = _width(region, div, target, options, bits, True, grouped)
    for access in indexed:
        if not _indexed_access_ok(target, width, *access):
            width, widest, _ = _width(region, div, target, options, bits, False, grouped)
            break
    return width, widest


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


def _moves_records(
    region: Any, div: Any, target: Target, options: CodegenOptions, bits: int, records: Any
) -> bool:
    """Whether at the width of ``bits``-bit registers the target moves some
    record group whole (else narrower registers gain nothing)."""
    width, _ = _width_with_indexed(region, div, target, options, bits)
    threads = bool(region.worksharing)
    return any(record_vector_type(target, g, width, threads) is not None for g in records.groups)


def _indexed_access_ok(
    target: Target, width: int, elem: Type, index_type: Type, masked: bool, store: bool
) -> bool:
    t, it = target.vtype(elem, width), target.vtype(index_type, width)
    if t is None or it is None:
        return False
    name = ("masked_" if masked else "") + ("scatter_base" if store else "gather_base")
    args: dict[str, Any] = dict(t=t, it=it)
    if masked:
        mt = target.mask_type(t.bits, width)
        if mt is None:
            return False  # no mask for these lanes
        args["mt"] = mt
    if target.has(name, **args):
        return True
    at = target.vtype(U64, width)
    if at is None:
        return True  # no vector of addresses at this width: lane by lane from the index
    return store and not target.has("scatter", t=t, at=at)


def _width(
    region: Any,
    div: Any,
    target: Target,
    options: CodegenOptions,
    register_bits: int,
    relaxed: bool,
    grouped: frozenset[Instruction] = frozenset(),
) -> tuple[int, int, list[tuple[Type, Type, bool, bool]]]:
    loc = _loc(region)
    fn = region.fn
    needed: set[int] = set()
    gathers: list[tuple[Type, Type, bool, bool]] = []
    """(element, index type, masked, store) of each base[index] access."""

    def kind(v: Value) -> str:
        if isinstance(v, Constant) or not hasattr(v, "type"):
            return "u"
        s = div.shape_of(v)
        if s.is_bottom or s.is_uniform:
            return "u"
        return "s" if s.is_strided else "v"

    def indexed(ptr: Value) -> Type | None:
        """The index type of ``gep uniform_base, index`` used only as the
        address of loads and stores (a gather or scatter takes the index
        itself, no 64-bit addresses), in relaxed mode."""
        found = indexed_address(ptr, div) if relaxed else None
        if (
            found is None
            or not ptr.users
            or not all(
                isinstance(u, Load)
                or (isinstance(u, Store) and u.operands[1] is ptr and u.operands[0] is not ptr)
                for u in ptr.users
            )
        ):
            return None
        return found.index.type

    def index_only(inst: Value) -> bool:
        """A widening cast of a gather index (never materialized as 64-bit lanes)."""
        return (
            isinstance(inst, Cast)
            and inst.operands[0].type == I32
            and bool(inst.users)
            and all(
                isinstance(u, Gep) and u.operands[1] is inst and indexed(u) == I32
                for u in inst.users
            )
        )

    for inst in fn.instructions():
        if isinstance(inst, (Load, Store)):
            ptr = inst.operands[-1]
            elem = inst.type if isinstance(inst, Load) else inst.operands[0].type
            pk = kind(ptr)
            if pk != "u" and elem != I1:
                needed.add(_bits(elem))
                index_t = indexed(ptr) if pk == "v" else None
                if index_t is not None:
                    needed.add(_bits(index_t))
                    gathers.append((elem, index_t, inst.mask is not None, isinstance(inst, Store)))
                elif inst not in grouped and (pk == "v" or div.shape_of(ptr).stride != elem.size):
                    needed.add(64)
            if isinstance(inst, Store) and kind(inst.operands[0]) != "u" and elem != I1:
                needed.add(_bits(elem))
        if (
            (inst.is_terminator and not isinstance(inst, Ret))
            or index_only(inst)
            or (isinstance(inst, Gep) and indexed(inst) is not None)
        ):
            continue
        if (
            kind(inst) == "v"
            and inst.type != I1
            and not inst.type.is_ptr()
            and str(inst.type) != "void"
        ):
            needed.add(_bits(inst.type))
        if kind(inst) == "v" or isinstance(inst, (Ret, Call)):
            for op in inst.operands:
                if (
                    op.type != I1
                    and (kind(op) != "u" or isinstance(inst, Cmp))
                    and (op.type.is_int() or op.type.is_float())
                ):
                    needed.add(_bits(op.type))
                if (
                    kind(op) == "v"
                    and op.type.is_ptr()
                    and not (
                        isinstance(inst, (Load, Store))
                        and op is inst.operands[-1]
                        and indexed(op) is not None
                    )
                ):
                    needed.add(64)
    for b in region.args:
        if b.role == "reduction":
            needed.add(_bits(b.arg.type))
    widest = max(needed) if needed else 64
    width = register_bits // widest
    clauses = region.clauses
    simdlen = options.simdlen or (clauses.simdlen if clauses else None)
    safelen = clauses.safelen if clauses else None
    if simdlen == 1:  # one lane at a time: like gcc, do not vectorize
        raise Unsupported("'simdlen(1)' asks for one lane at a time", loc)
    if target.scalable:  # the lanes are the hardware's: simdlen is only a preference
        if safelen and target.max_lanes(width) > safelen:
            raise Unsupported(
                f"'safelen({safelen})' is less than the {target.max_lanes(width)} lanes "
                f"{target.name} may have for {widest}-bit elements",
                loc,
            )
        return width, widest, gathers
    if (
        simdlen
        and simdlen >= 2
        and all(target.vtype(_elem_key(bits), simdlen) is not None for bits in needed | {widest})
    ):
        width = simdlen
    if not simdlen:
        # internal variants (wants_variant) are made at the loop's width
        varying = [
            i
            for i in fn.instructions()
            if isinstance(i, Call)
            and not i.wants_variant
            and (kind(i) == "v" or any(kind(op) != "u" for op in i.operands))
        ]
        width = _width_of_callee_variants(varying, target, options, width, needed | {widest})
    if safelen:
        while width > safelen:
            width //= 2
    if width < 2:
        raise Unsupported(
            f"no vector width of at least 2 lanes on {target.name} "
            f"(widest element {widest} bits, safelen {safelen})",
            loc,
        )
    return width, widest, gathers


def _width_of_callee_variants(
    calls: list[Call], target: Target, options: CodegenOptions, width: int, bits: set[int]
) -> int:
    """``width``, or fewer lanes where declare simd callees have variants
    of fewer lanes only (a ``simdlen(4)`` function called from a loop of 16
    lanes): with the lanes of the most such calls, those calls take a vector
    variant instead of running lane by lane.  Wider variants are not called
    (a loop value of several registers is not passed as one argument)."""
    votes: dict[int, int] = {}
    callees = Callees(options.simd_functions)
    for call in calls:
        entry = options.simd_functions.get(call.callee)
        if entry is None or target.scalable:
            continue
        masked = call.mask is not None
        lanes = {
            v.vlen for v in entry[1] if any(callees.candidates(call.callee, target, masked, v.vlen))
        }
        if width in lanes:
            continue
        for n in lanes:
            if 2 <= n < width and all(target.vtype(_elem_key(b), n) is not None for b in bits):
                votes[n] = votes.get(n, 0) + 1
    return max(votes, key=lambda n: (votes[n], n)) if votes else width


def _elem_key(bits: int) -> str:
    return f"i{bits}"


def _loc(region: Any) -> Location:
    return Location(region.file, region.line, region.column)


# -- reductions --------------------------------------------------------------------------
def identity(op: str, t: Type) -> str:
    """The reduction identity of ``op`` as a C literal of type t."""
    try:
        return literal(reduction_identity(op, t), t)
    except ValueError:
        raise internal_error(f"no identity for the reduction '{op}'") from None


def combine(op: str, t: Type, var: str, x: str) -> str:
    """C expression combining a lane partial ``x`` into ``var``."""
    if op in ("+", "-", "*"):
        sym = "*" if op == "*" else "+"
        if isinstance(t, IntType) and t.signed:
            u = unsigned_of(t)
            return f"({c_type(t)})(({u}){var} {sym} ({u}){x})"
        return f"{var} {sym} {x}"
    if op in ("&", "|", "^", "&&", "||"):
        return f"{var} {op} {x}"
    if op == "min":
        return f"{x} < {var} ? {x} : {var}"
    if op == "max":
        return f"{x} > {var} ? {x} : {var}"
    raise internal_error(f"no combination for the reduction '{op}'")


def udr_init(udr: UserReduction, ctype: str, var: str, aggregate: bool = False) -> str:
    """A ``declare reduction``'s private copy as a C expression: its
    initializer run once (OpenMP leaves how often unspecified) on a copy set
    to 0 (no initializer: as for static storage; ``aggregate``: a struct),
    ``omp_orig`` the variable."""
    init = f" {udr.initializer};" if udr.initializer else ""
    zero = "{0}" if aggregate else "0"
    return (
        f"__extension__ ({{ {ctype} omp_orig = {var}; {ctype} omp_priv = {zero}; (void)omp_orig;"
        f"{init} omp_priv; }})"
    )


def udr_combine(udr: UserReduction, ctype: str, var: str, x: str) -> str:
    """A ``declare reduction``'s combiner as a C expression: ``var``
    combined with a lane's partial ``x``."""
    return (
        f"__extension__ ({{ {ctype} omp_out = {var}; {ctype} omp_in = {x}; "
        f"{udr.combiner}; omp_out; }})"
    )


def scan_helper(h: ScanHelper) -> str:
    """The C definition of a ``#pragma omp scan`` helper (s2s/ir/region.py
    ``ScanHelper``): adds the iteration's contribution ``s2s_v`` to the
    running total and returns the total after it (inclusive) or before
    it; a ``declare reduction``'s also has ``<name>_init``, the identity."""
    t = c_type(h.type)
    udr = h.user_reduction
    total = "(*s2s_total)"
    new = (
        udr_combine(udr, t, total, "s2s_v")
        if udr is not None
        else combine(h.op, h.type, total, "s2s_v")
    )
    kind = "inclusive" if h.inclusive else "exclusive"
    lines = [
        f"/* s2svec: the '#pragma omp scan {kind}({h.var})' running total, lane by lane */",
        f"static inline __attribute__((__unused__)) {t} {h.name}({t} *s2s_total, {t} s2s_v)",
        "{",
        *([] if h.inclusive else [f"    {t} s2s_before = *s2s_total;"]),
        f"    *s2s_total = {new};",
        f"    return {'*s2s_total' if h.inclusive else 's2s_before'};",
        "}",
    ]
    if udr is not None:
        lines += [
            f"static inline __attribute__((__unused__)) {t} {h.name}_init({t} *s2s_total)",
            "{",
            f"    return {udr_init(udr, t, total)};",
            "}",
        ]
    return "\n".join(lines) + "\n"


# -- the loop ------------------------------------------------------------------------------
def generate_loop(
    region: Any,
    div: Any,
    mem: Any,
    target: Target,
    options: CodegenOptions | None = None,
    records: Any = None,
    tail: Any = None,
    refill: Any = None,
    inlined: Sequence[str] = (),
) -> GeneratedLoop:
    """Vectorize one loop region for ``target`` (raises Unsupported).

    ``div`` is the DivergenceInfo of ``region.fn`` computed with
    ``region_arg_shapes(region)``; ``mem`` (s2s.analysis.memory) gives the kind
    of every load and store, ``records`` (s2s.analysis.records) the strided
    accesses that may move whole records.  ``tail`` (an
    s2s.pipeline.AnalyzedRegion of the loop's masked last iteration) runs
    the iterations after the last full vector when it widens at the same
    width; else they run as the scalar loop body.  ``refill`` (the region
    with the lane refill schedule, transform.refill) replaces the vector loop
    and its remainder when it widens.  ``inlined``: the functions the loop
    calls whose calls were inlined (the block names them, as the loop did)."""
    return _LoopGen(
        region, div, mem, target, options or CodegenOptions(), records, tail, refill, inlined
    ).run()


REFILL_BLOCK = "0x40000000ULL"
"""Iterations per run of a refill region (its lane counters are 32-bit)."""
REFILL_CHUNK = "(s2s_trip / 64 < 64 * {W} ? 64ULL * {W} : (s2s_trip / 64 + {W} - 1) / {W} * {W})"
"""Iterations per run of a refill region shared by OpenMP threads: about a
64th of the loop (so threads balance), at least 64 vectors (so lanes idle
at the end of a run little)."""


VARIANT_PARAMS = {
    "lane": "0",  # lane l: 0 + l
    "rem": "(int32_t)(s2s_trip - s2s_k)",  # masked tail: iterations left
    "count": "(int32_t)(s2s_trip - s2s_k < s2s_chunk ? s2s_trip - s2s_k : s2s_chunk)",
    "width": "{W}",
}
"""C values of the parameters that region variants add (transform.masked_tail,
transform.refill); ``{W}`` stands for the loop's width."""


class _LoopGen:
    def __init__(
        self,
        region: Any,
        div: Any,
        mem: Any,
        target: Target,
        options: CodegenOptions,
        records: Any = None,
        tail: Any = None,
        refill: Any = None,
        inlined: Sequence[str] = (),
    ) -> None:
        self.inlined = sorted(set(inlined))
        self.region = region
        self.div = div
        self.mem = mem if mem is not None else memory_shapes(region.fn, div)
        self.records = records
        self.tail = tail
        self.refill = refill
        self.target = target
        self.options = options
        self.loc = _loc(region)
        self.linears: list[tuple[Any, str]] = []
        """(binding, name of the C constant holding its start value)"""
        self.vector_lanes = 0
        """Lanes of one vector (set by run_vector_ir)."""
        if region.bounds is None:
            raise internal_error("a loop region without loop bounds", self.loc)

    def run(self) -> GeneratedLoop:
        region, target = self.region, self.target
        self.W, _ = choose_width(region, self.div, target, self.options, self.records)
        return self.run_vector_ir()

    def unread_by_vector_code(self) -> list[str]:
        """What the original loop reads and the vector code need not, said
        to be meant: its private variables (the vector code has its own; the
        compiler would call an initialized one unused), the functions the
        vector code has inlined (a static one would be unused where no
        scalar copy of the loop is built) and the variables a constant step
        was folded from."""
        private = self.region.clauses.private if self.region.clauses else []
        bounds = self.region.bounds
        folded = bounds.folded_step_names if bounds is not None else ()
        return [f"(void){name};" for name in [*private, *self.inlined, *folded]]

    def run_vector_ir(self) -> GeneratedLoop:
        """The loop through the vector IR (s2s/codegen/to_vector_ir.py,
        legalize.py, emit_vector_ir.py): the loop variable's and the linear
        variables' lane 0, the live-ins and the reduction accumulators (one
        per part) as parameters of the vector function; the masked last
        iteration the same way from the tail region, else the scalar
        remainder."""
        region, W = self.region, self.W
        self.vector_lanes = W
        tag = f"{self.target.name}_{region.tag or f'{region.line}_{region.column}'}"
        if region.bounds is not None and isinstance(region.bounds.step, str):
            tag += "_rs"  # beside the version for a step of 1 (driver._generate_once)
        self.W = W * self.interleave()  # iterations per trip of the vector loop
        self.parallel = bool(region.worksharing) and not region.outer_loops
        self.iv_binding = next(b for b in region.args if b.role == "iv")
        vf, code = self.emitted(region, self.div, self.mem, self.records, tag)
        n = vf.width // vf.parts
        acc = [
            item
            for b, parts in code.accumulators
            for item in self.vector_ir_accumulators(code.emitter, b, parts, n)
        ]
        refill = self.vector_ir_variant(self.refill, tag + "_refill", code.accumulators)
        tail = (
            None
            if self.parallel or refill
            else self.vector_ir_variant(self.tail, tag + "_tail", code.accumulators)
        )
        body = code.body
        # the refill schedule replaces the vector loop and sets up its own
        # values: of the loop's, only the linear starts are read (after it)
        setup = [self.start_line(b, start) for b, start in self.linears] if refill else code.setup
        setup += self.unread_by_vector_code()
        folds = self.folds(code.emitter, code.accumulators, n)
        text = self.assemble(setup, code.iter_setup, acc, folds, body, body.lines, tail, refill)
        em = refill["emitter"] if refill else code.emitter  # what the output runs
        variant = refill["variant"] if refill else None
        stats = {
            "memory": memory_counts((variant.mem if variant else self.mem) or MemoryAccesses()),
            "calls": dict(em.stats.calls),
            "allocas": self.alloca_counts(variant or self),
            "call_sites": list(em.stats.call_sites),
        }
        needs = set(body.needs)
        for extra in (tail, refill):
            needs |= extra["needs"] if extra else set()
        # the report's width: one vector's
        return GeneratedLoop(text, W, stats, needs, refill=refill is not None)

    def vector_ir_code(
        self,
        region: Any,
        vf: VectorFunction,
        tag: str,
        loop_accumulators: list[tuple[Any, list[str]]] | None = None,
    ) -> _VectorIRCode:
        """The C of one vector function of a region: its parameters' lines,
        its body, the lastprivate variables set after it.  A variant of the
        loop (``loop_accumulators`` given) continues the loop's reductions."""
        names, setup, iter_setup, accumulators = self.vector_ir_params(
            region, vf, tag, loop_accumulators
        )
        results = self.result_names(region, accumulators, vf, tag)
        end = f"s2s_{tag}_end"
        em = VectorIREmitter(
            vf.fn,
            vf.width // vf.parts,
            self.target,
            names,
            [name for parts in results for name in parts],
            end,
            prefix=f"s2s_{tag}",
            vector_math=self.options.math == "vector",
            caller_declares=frozenset(n for _, parts in accumulators for n in parts),
            callees=Callees(self.options.simd_functions, self.options.no_variant),
        )
        body = em.emit()
        body.lines.append(f"{end}:;")
        body.lines += self.vector_ir_last_values(region, em, vf, results)
        return _VectorIRCode(setup, iter_setup, accumulators, body, em)

    def vector_ir_variant(
        self, variant: Any, tag: str, accumulators: list[tuple[Any, list[str]]]
    ) -> dict[str, Any] | None:
        """A variant of the loop's region (the masked last iteration,
        transform.masked_tail; the lane refill schedule, transform.refill)
        through the vector IR at the loop's lanes and parts, its reductions
        in the loop's accumulators; None when there is none or it does not
        go through (the plain vector loop stays)."""
        if variant is None:
            return None
        region = variant.region
        try:
            _, code = self.emitted(
                region, variant.div, variant.mem, variant.records, tag, accumulators
            )
        except Unsupported:
            if os.environ.get("S2SVEC_DEBUG"):
                raise
            return None
        body = code.body
        lines = [f"{d};" for d in body.decls] + code.setup + code.iter_setup + body.lines
        return {"lines": lines, "needs": body.needs, "emitter": code.emitter, "variant": variant}

    def alloca_counts(self, code: Any) -> dict[str, int]:
        """The report's stack objects of a region (the loop's, or a
        variant's): one for all lanes, or one per lane."""
        counts = {"uniform": 0, "varying": 0}
        for inst in code.region.fn.instructions():
            if isinstance(inst, Alloca):
                uniform = not inst.interleaved and code.div.alloca_is_uniform(inst)
                counts["uniform" if uniform else "varying"] += 1
        return counts

    def vector_ir_params(
        self,
        region: Any,
        vf: VectorFunction,
        tag: str,
        loop_accumulators: list[tuple[Any, list[str]]] | None = None,
    ) -> tuple[list[str], list[str], list[str], list[tuple[Any, list[str]]]]:
        """The C names of the vector function's parameters (a vector one
        once per part), the lines before the loop and at the start of each
        trip, and each reduction's accumulators (a variant's: the loop's,
        ``loop_accumulators``)."""
        continued = {b.c_expr: parts for b, parts in loop_accumulators or []}
        names: list[str] = []
        setup: list[str] = []
        iter_setup: list[str] = []
        accumulators: list[tuple[Any, list[str]]] = []
        per_trip: list[str] = []
        """The loop variable's and the linear variables' lane 0, set per trip."""
        forms = iter(vf.arg_forms)
        for k, b in enumerate(region.args):
            t, name = b.arg.type, f"s2s_{tag}_a{k}"
            form = next(forms)
            if b.role == "reduction":
                if form != "vector" or t == I1 or not (t.is_int() or t.is_float()):
                    raise Unsupported(f"the reduction of '{b.c_expr}' in the vector IR", self.loc)
                parts = continued.get(b.c_expr) or [f"{name}_{j}" for j in range(vf.parts)]
                for _ in parts[1:]:
                    next(forms)
                names += parts
                accumulators.append((b, parts))
                continue
            if form == "vector":
                raise Unsupported(f"a varying '{b.c_expr}' in the vector IR", self.loc)
            names.append(name)
            if b.role in ("iv", "linear"):
                per_trip.append(name)
            if b.role in VARIANT_PARAMS:
                value = VARIANT_PARAMS[b.role].replace("{W}", self.target.lanes_c(self.W))
                iter_setup.append(f"const {c_decl(t, name)} = {value};")
                per_trip.append(name)
            elif b.role == "iv":
                step = region.bounds.step
                iter_setup.append(
                    f"const {c_decl(t, name)} = {self.lane0('s2s_lo', step, t, 's2s_k')};"
                )
            elif b.role == "linear":
                start = f"{name}_start"
                setup.append(self.start_line(b, start))
                const = "" if isinstance(t, PtrType) else "const "
                iter_setup.append(
                    f"{const}{c_decl(t, name)} = {self.lane0(start, b.step, t, 's2s_k')};"
                )
                if loop_accumulators is None:  # the loop's, not a variant's
                    self.linears.append((b, start))
            else:
                const = "" if isinstance(t, PtrType) else "const "
                setup.append(f"{const}{c_decl(t, name)} = {self.conv(t, b.c_expr)};")
        # a parameter the vector code does not read is still set: say it is meant
        held = {a for _, parts in accumulators for a in parts}
        setup += [f"(void){n};" for n in names if n not in per_trip and n not in held]
        iter_setup += [f"(void){n};" for n in per_trip]
        return names, setup, iter_setup, accumulators

    def result_names(
        self,
        region: Any,
        accumulators: list[tuple[Any, list[str]]],
        vf: VectorFunction,
        tag: str,
    ) -> list[list[str]]:
        """Per result of the region's ``ret``, the variables its parts go to:
        a reduction's accumulators, else variables of this trip (a
        lastprivate variable's values and its flags)."""
        by_arg = {b.arg: parts for b, parts in accumulators}
        reductions = {r.index: by_arg[r.arg] for r in region.results if r.arg in by_arg}
        return [
            reductions.get(k) or [f"s2s_{tag}_r{k}_{j}" for j in range(vf.parts)]
            for k in range(len(region.fn.ret_types))
        ]

    def vector_ir_last_values(
        self, region: Any, em: VectorIREmitter, vf: VectorFunction, results: list[list[str]]
    ) -> list[str]:
        """After each trip: every lastprivate variable set to the value of
        the last lane that assigned it (s2s.ir.region.ResultBinding)."""
        lines: list[str] = []
        for rb in region.results:
            if rb.role != "lastprivate":
                continue
            if vf.width > 32 and not self.target.scalable:
                raise Unsupported("a lastprivate variable in more than 32 lanes", self.loc)
            t = VectorType(rb.type, vf.width // vf.parts, self.target.scalable)
            k = rb.assigned_index
            flags = None if k is None or _always(region.fn, k) else results[k]
            if flags is None:  # the last part's last lane: the rest is set, never read
                unread = results[rb.index][:-1] + (results[k] if k is not None else [])
                lines += [f"(void){name};" for name in unread]
            lines += em.last_assigned(t, results[rb.index], flags, rb.c_var)
        return lines

    def vector_ir_accumulators(
        self, em: VectorIREmitter, b: Any, parts: list[str], lanes: int
    ) -> list[dict[str, str]]:
        """The loop template's accumulators of one reduction: one register
        per part (folded after the loop: ``folds``)."""
        vt = self.accumulator_type(b, lanes)
        start = em.macro("broadcast", t=vt, x=self.reduction_start(b))
        return [{"decl": f"{vt.ctype} {name};", "init": f"{name} = {start};"} for name in parts]

    def accumulator_type(self, b: Any, lanes: int) -> Any:
        vt = self.target.vtype(b.arg.type, lanes)
        if vt is None:
            raise Unsupported(f"no {lanes}-lane register for the reduction of '{b.c_expr}'")
        return vt

    def folds(
        self, em: VectorIREmitter, accumulators: list[tuple[Any, list[str]]], lanes: int
    ) -> list[list[str]]:
        """After the loop, each part's lanes combined into the reduction
        variables lane by lane, in iteration order; the fields of a struct
        reduced by a ``declare reduction`` together, as that lane's struct."""
        out: list[list[str]] = []
        structs: dict[str, list[tuple[Any, list[str]]]] = {}
        for b, parts in accumulators:
            if b.aggregate:
                structs.setdefault(b.aggregate, []).append((b, parts))
            else:
                out += [self.fold(em, b, name, lanes) for name in parts]
        for fields in structs.values():
            for k in range(len(fields[0][1])):
                out.append(self.fold_struct(em, [(b, parts[k]) for b, parts in fields], lanes))
        return out

    def fold(self, em: VectorIREmitter, b: Any, acc: str, lanes: int) -> list[str]:
        vt = self.accumulator_type(b, lanes)
        var = self.result_var(b)
        lane = "s2s_r[s2s_j]"
        if b.user_reduction:
            combined = udr_combine(b.user_reduction, b.c_type, var, lane)
        else:
            combined = combine(b.reduction_op, b.arg.type, var, lane)
        return [
            "{",
            f"    {vt.scalar} s2s_r[{self.target.max_lanes(lanes)}];",
            "    " + (em.macro("store", t=vt, p="s2s_r", v=acc) or ""),
            f"    for (int s2s_j = 0; s2s_j < {self.target.lanes_c(lanes)}; s2s_j++) {{",
            f"        {var} = {combined};",
            "    }",
            "}",
        ]

    def fold_struct(
        self, em: VectorIREmitter, fields: list[tuple[Any, str]], lanes: int
    ) -> list[str]:
        """One part of a struct's field accumulators: each lane's struct is
        the variable's value with the lane's fields (every scalar field has
        an accumulator), combined into the variable."""
        first = fields[0][0]
        var, ctype = first.aggregate, first.aggregate_c_type
        arrays, stores, sets = [], [], []
        for i, (b, acc) in enumerate(fields):
            vt = self.accumulator_type(b, lanes)
            arrays.append(f"    {vt.scalar} s2s_r{i}[{self.target.max_lanes(lanes)}];")
            stores.append("    " + (em.macro("store", t=vt, p=f"s2s_r{i}", v=acc) or ""))
            sets.append(f"        s2s_lane{b.c_expr[len(var) :]} = s2s_r{i}[s2s_j];")
        return [
            "{",
            *arrays,
            *stores,
            f"    for (int s2s_j = 0; s2s_j < {self.target.lanes_c(lanes)}; s2s_j++) {{",
            f"        {ctype} s2s_lane = {var};",
            *sets,
            f"        {var} = {udr_combine(first.user_reduction, ctype, var, 's2s_lane')};",
            "    }",
            "}",
        ]

    def reduction_start(self, b: Any) -> str:
        """What each lane's private copy of a reduction starts as: the
        operator's identity, or what the ``declare reduction``'s initializer
        makes of the variable (of a struct: its field)."""
        if b.user_reduction is None:
            return identity(b.reduction_op, b.arg.type)
        if b.aggregate:
            start = udr_init(b.user_reduction, b.aggregate_c_type, b.aggregate, aggregate=True)
            return f"({start}){b.c_expr[len(b.aggregate) :]}"
        return udr_init(b.user_reduction, b.c_type, self.result_var(b))

    def lanes_ull(self) -> str:
        """The iterations of a trip as an ``unsigned long long`` C expression:
        a literal, or ``s2s_vl`` on a scalable target (``lanes_setup``)."""
        return "s2s_vl" if self.target.scalable else f"{self.W}ULL"

    def lanes_setup(self) -> list[str]:
        """The line that reads a scalable target's lanes per trip (``s2s_vl``)."""
        if not self.target.scalable:
            return []
        return [
            f"const unsigned long long s2s_vl = {self.target.lanes_c(self.W)};",
            "(void)s2s_vl;",  # a refill schedule reads its own
        ]

    def lanes_text(self, iterations: int) -> str:
        """``8 lanes``, or ``8 lanes x 2 vectors`` for ``iterations`` per trip
        of interleaved vectors (the report's width is the lanes)."""
        lanes = self.vector_lanes or iterations
        if iterations == lanes:
            return f"{lanes} lanes"
        return f"{lanes} lanes x {iterations // lanes} vectors"

    def interleave(self) -> int:
        """Vectors per trip: as asked (``--interleave``), else a ``simdlen``
        wider than one register in as many registers (simdlen(16) of int64 on
        AVX-512: two; at most MAX_SIMDLEN_VECTORS), else as the cost model
        chooses (s2s/codegen/interleave.py); as far as ``safelen`` allows (the
        lanes of one trip run as one wide vector would)."""
        clauses = self.region.clauses
        simdlen = self.options.simdlen or (clauses.simdlen if clauses else None)
        if self.target.scalable:
            return 1  # scalable vectors are not cut into parts yet
        factor = self.options.interleave
        if not factor and simdlen and simdlen > self.W and simdlen % self.W == 0:
            factor = min(simdlen // self.W, MAX_SIMDLEN_VECTORS)
        factor = factor or interleave_factor(self.region.fn, self.div)
        safelen = clauses.safelen if clauses else None
        while factor > 1 and safelen and self.W * factor > safelen:
            factor //= 2
        return factor

    def emitted(
        self,
        region: Any,
        div: Any,
        mem: Any,
        records: Any,
        tag: str,
        loop_accumulators: list[tuple[Any, list[str]]] | None = None,
    ) -> tuple[VectorFunction, _VectorIRCode]:
        """A region's vector function at the loop's lanes (``self.W``) and
        its C: cut by element type where legalization can
        (``split_mixed``), else evenly -- also when the cut by type has an
        operation the target emits only lane by lane."""
        linears = list(self.linears)
        for by_type in (True, False):
            vf = self.legal_vector_function(region.fn, div, mem, records, self.W, by_type)
            try:
                return vf, self.vector_ir_code(region, vf, tag, loop_accumulators)
            except Unsupported:
                if not vf.cut_by_type:
                    raise
                self.linears = list(linears)  # what the failed attempt recorded goes
        raise AssertionError("unreachable: the even cut raises or returns")

    def legal_vector_function(
        self, fn: Any, div: Any, mem: Any, records: Any, lanes: int, by_type: bool = False
    ) -> VectorFunction:
        """A region's body widened to ``lanes`` lanes and cut into the
        target's registers (s2s.codegen.legalize), at least one part per
        vector of the loop's width, with ``by_type`` each element type in
        as many as it fills where the function allows (``split_mixed``);
        the record groups the target moves at one vector's lanes as whole
        records."""
        threads = bool(self.region.worksharing)
        moved = [
            g
            for g in (records.groups if records is not None else ())
            if record_vector_type(self.target, g, self.vector_lanes, threads) is not None
        ]
        rows = [
            g
            for g in (records.rows if records is not None else ())
            if self.moves_rows(g.elem, g.slots)
        ]
        scalable = self.target.max_vscale if self.target.scalable else None
        vf = widen_to_vector_ir(fn, div, lanes, mem, moved, rows, scalable)
        fold_decided_comparisons(vf.fn)  # C would leave their operands unread
        eliminate_dead_code(vf.fn)  # what the widening made and nothing reads
        verify(vf.fn)
        # interleaved vectors keep the width chosen for one (records moved at
        # a narrower width than the registers stay at it)
        parts = max(register_parts(vf, self.target) or 1, lanes // self.vector_lanes)
        if parts > 1 and self.target.scalable:
            raise Unsupported(f"vectors wider than a register of {self.target.name}", self.loc)
        if parts > 1:
            mixed = split_mixed(vf, parts, self.target) if by_type else None
            vf = mixed or split_vectors(vf, parts)
            eliminate_dead_code(vf.fn)
            verify(vf.fn)
        if promote_counters(vf.fn, self.target, lanes // parts):
            eliminate_dead_code(vf.fn)
            verify(vf.fn)
        return vf

    def moves_rows(self, elem: Any, slots: int) -> bool:
        """Whether the target de-interleaves rows of ``slots`` elements at
        one register's lanes (s2s.analysis.rows: copied per lane, then
        moved as records)."""
        t = self.target.vtype(elem, self.vector_lanes)
        return t is not None and self.target.has("load_records", t=t, k=slots)

    # -- parameters ------------------------------------------------------------------------
    def start_line(self, b: Any, start: str) -> str:
        """The constant holding a linear variable's value before the loop."""
        t = b.arg.type
        const = "" if isinstance(t, PtrType) else "const "
        return f"{const}{c_decl(t, start)} = {self.conv(t, b.c_expr)};"

    @staticmethod
    def conv(t: Type, expr: str) -> str:
        if isinstance(t, PtrType):
            return f"({c_type(t)})({expr})"
        return f"({expr})"

    @staticmethod
    def lane0(start: str, step: int | str, t: Type, k: str) -> str:
        """start + k*step in the type of the variable (wrapping like the scalar loop)."""
        if isinstance(t, PtrType):
            return f"{start} + (long long){k} * {step}"
        return f"({c_type(t)})((unsigned long long){start} + {k} * {step_u64(step)})"

    @staticmethod
    def as_declared(b: Any, value: str) -> str:
        """A linear variable's value back in the type it is declared with: a
        pointer's IR type may name its target otherwise (``int8_t *`` for a
        ``const char *``: clang's -Wpointer-sign, and const)."""
        if isinstance(b.arg.type, PtrType):
            return f"(__typeof__({b.c_expr}))({value})"
        return value

    def result_var(self, b: Any) -> str:
        for rb in self.region.results:
            if rb.role == "reduction" and rb.arg is b.arg:
                return rb.c_var
        return b.c_expr

    # -- layout --------------------------------------------------------------------------------
    def trip_lines(self) -> list[str]:
        """``s2s_lo``, ``s2s_hi`` and ``s2s_trip`` of the vectorized loop (see
        ``trip_count``)."""
        t = self.iv_binding.arg.type if self.iv_binding is not None else None
        if not isinstance(t, IntType):
            raise Unsupported("only integer loop variables are supported", self.loc)
        return trip_count(self.region.bounds, t, "", self.loc)

    def assemble(
        self,
        setup: list[str],
        iter_setup: list[str],
        acc: list[dict[str, str]],
        folds: list[list[str]],
        body: Any,
        body_lines: list[str],
        tail: dict[str, Any] | None = None,
        refill: dict[str, Any] | None = None,
    ) -> str:
        """Lay out the block through templates/common/loop.c.j2."""
        region, W = self.region, self.W
        bd = region.bounds
        clauses = region.clauses
        after: list[str] = []
        for b, start in self.linears:
            final = self.lane0(start, b.step, b.arg.type, "s2s_trip")
            after.append(f"{b.c_expr} = {self.as_declared(b, final)};")
        if not bd.var_declared_in_loop:
            after.append(
                f"{bd.var} = ({bd.var_c_type})((unsigned long long)s2s_lo + s2s_trip * "
                f"{step_u64(bd.step)});"
            )
            if tail or refill:  # no scalar remainder reads it: the value is meant
                after[-1] += f" (void){bd.var};"
        T = bd.var_c_type
        value = f"({T})((unsigned long long)s2s_lo + (s2s_k + s2s_e) * {step_u64(bd.step)})"
        last, zero, end = self.after_placement(after)
        g = {
            "comment": f"/* s2svec: {self.target.name}, {self.lanes_text(W)}, {region.kind} at "
            f"{region.file}:{region.line} */",
            "checks": list(region.source_checks),
            "W": self.lanes_ull(),
            "parallel": self.parallel,
            "ws_pragma": self.ws_pragma(clauses, refill=refill is not None)
            if self.parallel
            else "",
            "trip": indent_lines(self.trip_lines(), 0),
            "setup": self.lanes_setup() + setup,
            "decls": [f"{d};" for d in body.decls],
            "acc": acc,
            "folds": folds,
            "iter_setup": iter_setup,
            "body": indent_lines(body_lines, 0),
            # the body may not read the loop variable (the original's for
            # header did): a declared one is used, or it would be unused
            "epi_iv": f"{T} {bd.var} = {value}; (void){bd.var};"
            if bd.var_declared_in_loop
            else f"{bd.var} = {value};",
            "epi_linear": [
                f"{b.c_expr} = "
                f"{self.as_declared(b, self.lane0(st, b.step, b.arg.type, '(s2s_k + s2s_e)'))};"
                for b, st in self.linears
            ],
            "epi_body": _dedent(region.body_text),
            "after": after,
            "after_last": last,
            "after_zero": zero,
            "after_end": end,
            "tail": tail["lines"] if tail else [],
            "refill": refill["lines"] if refill else [],
            "refill_block": (
                REFILL_CHUNK.replace("{W}", self.lanes_ull()) if self.parallel else REFILL_BLOCK
            ),
        }
        block = self.target.render("loop.c.j2", g=g).rstrip("\n").split("\n")
        block = self.wrap_outer(block)
        if isinstance(bd.step, str):
            block = self.wrap_if(block, step_sign_test(bd))
        if clauses is not None and clauses.if_simd:
            block = self.wrap_if(block, clauses.if_simd)
        if clauses is not None and clauses.kept == "target":
            block = self.wrap_target(block, clauses)
        if clauses is not None and clauses.teams_in_target:
            # the target must hold nothing but the teams construct
            block = [" ".join(["#pragma omp teams", *clauses.teams_clauses]), *block]
        # the block replaces whole lines: indent it like the pragma was
        margin = " " * max(0, region.column - 1)
        return "\n".join(margin + line if line else line for line in block)

    def after_placement(self, after: list[str]) -> tuple[list[str], list[str], list[str]]:
        """Where a loop shared by the kept constructs (``self.parallel``)
        gives the loop variable and the linear variables their values after
        the loop: (in its last block, after it when it ran no block, after
        it in any case).

        ``for`` / ``parallel for``: the last block, or after the loop when
        there is none.  Constructs entered once, whose end waits for all of
        their work (``target ...``, ``teams ...``, ``parallel ...`` but
        ``parallel master taskloop``): after them, on the thread that met
        them -- inside, a target region has its own copies of the
        variables.  ``distribute ...`` (every team runs the code around it)
        and the taskloops (``lastprivate`` carries the values out of the
        tasks, see ``ws_pragma``): the last block only; a loop that runs no
        iteration leaves them as they were, as ``lastprivate`` does."""
        clauses = self.region.clauses
        if not self.parallel or clauses is None or not clauses.combined:
            return after, after, []
        kept = clauses.kept.split()
        joins = kept[0] in ("target", "teams", "parallel") and "taskloop" not in kept
        if joins and not clauses.teams_in_target:
            return [], [], after
        return after, [], []

    def ws_pragma(
        self,
        clauses: Any,
        collapse: int = 1,
        refill: bool = False,
        outer: bool = False,
        scan_chunk: str = "s2s_nblk + 1",
    ) -> str:
        """The pragma of the kept constructs for the block loop (or the outer
        loops of a collapsed nest): the user's clauses of those constructs,
        without those that describe the original iteration space (collapse,
        linear).  A taskloop's ``grainsize`` counts iterations: it is divided
        by the iterations of a block (W, or a refill chunk; ``outer``: the
        pragma goes on the outer loops of a collapsed nest, whose iterations
        are the user's).  An inscan scan runs on one thread, every block in
        order (``schedule(static, all blocks)``), its variable shared and
        updated by the vector code, without the ``reduction`` (``scan_chunk``:
        all blocks, or all outer iterations of a collapsed nest); taskloops get
        the loop variable (declared outside the loop) and the linear
        variables as ``lastprivate`` (tasks may have their own copies); so
        does the inner loop variable of a collapsed nest, when declared
        outside it (the threads share the outer iterations only)."""
        kept: list[str] = []
        scan = any(r.inscan for r in clauses.reductions)
        for name, text in self.kept_clauses(clauses):
            if name in ("collapse", "linear") or (scan and name == "reduction"):
                continue
            if name == "grainsize" and clauses.grainsize is not None and not outer:
                modifier, size = clauses.grainsize
                block = "s2s_chunk" if refill else self.lanes_ull()
                text = (
                    f"grainsize({modifier + ': ' if modifier else ''}"
                    f"(({size}) + {block} - 1) / {block})"
                )
            kept.append(text)
        extra, private = self.lastprivate_extra(clauses, outer)
        if extra:
            kept.append(f"lastprivate({', '.join(extra)})")
        if private:
            kept.append(f"private({', '.join(private)})")
        parts = [f"#pragma omp {self.loop_directive()}"] + kept
        if scan:  # one thread runs every block in order; the variable stays shared
            parts.append(f"schedule(static, {scan_chunk})")
        if collapse > 1:
            parts.append(f"collapse({collapse})")
        return " ".join(parts)

    def loop_directive(self) -> str:
        """The kept constructs on the block loop: ``distribute ...`` without
        its ``teams`` when that is written apart (``teams_in_target``)."""
        clauses = self.region.clauses
        if clauses is not None and clauses.teams_in_target:
            return self.region.worksharing[len("teams ") :]
        return self.region.worksharing

    def kept_clauses(self, clauses: Any) -> list[tuple[str, str]]:
        """The clauses of ``loop_directive`` (name, text)."""
        if clauses is None:
            return []
        return clauses.inner_clauses if clauses.teams_in_target else clauses.other_clauses

    def lastprivate_extra(self, clauses: Any, collapsed: bool) -> tuple[list[str], list[str]]:
        """The variables ``ws_pragma`` adds a ``lastprivate`` clause for, and
        a ``private`` one: loop variables the function never reads after
        the loop need only their own copy per thread (and compilers reject
        ``lastprivate`` for one private where the construct is met)."""
        if clauses is None:
            return [], []
        bd = self.region.bounds
        loops: list[Any] = []
        taskloop = "taskloop" in clauses.kept.split()
        if collapsed or taskloop:
            loops.append(bd)
        if collapsed:  # the variables of a collapsed simd nest are lastprivate
            # (OpenMP 5.2, 5.1.1); on the kept worksharing loop, only private
            loops += self.region.outer_bounds
        loops = [b for b in loops if not b.var_declared_in_loop]
        names = [b.var for b in loops if b.var_read_after]
        if collapsed or taskloop:  # each thread or task sets its own (collapsed_linear_starts)
            names += [b.c_expr for b, _ in self.linears]
        taken = set(clauses.private) | set(clauses.lastprivate)
        last = [n for n in dict.fromkeys(names) if n not in taken]
        private = [b.var for b in loops if not b.var_read_after and b.var not in taken]
        return last, list(dict.fromkeys(private))

    def wrap_target(self, block: list[str], clauses: Any) -> list[str]:
        """``target simd``: the whole vector code in the target region, the
        target's clauses kept; what simd's ``reduction``, ``lastprivate``
        and ``linear`` clauses (and the loop variable, declared outside the
        loop) carry out of the loop is mapped ``tofrom`` (OpenMP 5.2,
        17.2: as if so on the combined construct), unless a ``map`` clause
        names it already."""
        bd = self.region.bounds
        names = [r.var for r in clauses.reductions] + list(clauses.lastprivate)
        names += [lin.var for lin in clauses.linear]
        if not bd.var_declared_in_loop:
            names.append(bd.var)
        names = [n for n in dict.fromkeys(names) if n not in clauses.mapped]
        clash = [n for n in names if n in clauses.private or n in clauses.firstprivate]
        if clash:
            raise Unsupported(
                f"'{clash[0]}' is private on the target construct and carried out of "
                f"the loop by '#pragma omp {clauses.directive}': not vectorized",
                self.loc,
            )
        parts = ["#pragma omp target"] + [text for _, text in clauses.other_clauses]
        if names:
            parts.append(f"map(tofrom: {', '.join(names)})")
        return [" ".join(parts)] + block

    def wrap_outer(self, block: list[str]) -> list[str]:
        """The outer loops of a collapsed nest around the vector block: as
        written where the C loop runs OpenMP's iterations, else (a ``!=``
        test, a bound compared in another type than the variable's) as a
        loop over OpenMP's iteration count (``trip_count``) that sets the
        variable to ``(T)(lb + k*step)``: the C loop would run through a
        wrap where OpenMP runs no iteration."""
        outer = self.region.outer_loops
        if not outer:
            return block
        bounds = self.region.outer_bounds or [None] * len(outer)
        rewrite = [bd is not None and _c_loop_differs(bd) for bd in bounds]
        if any(rewrite) and self.region.worksharing:
            raise Unsupported(
                "an outer loop of a collapsed worksharing nest with a '!=' test "
                "or a bound of another type than its variable is not "
                "vectorized",
                self.loc,
            )
        before: list[str] = []
        if self.linears and self.region.worksharing:
            before, starts = self.collapsed_linear_starts(bounds)
            block = ["{"] + [INDENT + line for line in starts + block] + ["}"]
        if any(r and bd is not None and isinstance(bd.step, str) for r, bd in zip(rewrite, bounds)):
            raise Unsupported(
                "an outer loop of a collapsed nest with a run-time step and a '!=' test or a "
                "bound of another type than its variable is not vectorized",
                self.loc,
            )
        body = block
        for d in reversed(range(len(outer))):
            bd = bounds[d]
            if bd is None or not rewrite[d]:
                body = [outer[d].strip()] + [INDENT + line for line in body]
                continue
            sfx, k = f"_o{d}", f"s2s_k_o{d}"
            t = bd.var_type
            assert isinstance(t, IntType)
            value = value_at(bd, k, sfx)
            iv = (
                f"{bd.var_c_type} {bd.var} = {value};"
                if bd.var_declared_in_loop
                else f"{bd.var} = {value};"
            )
            loop = (
                trip_count(bd, t, sfx, self.loc)
                + [f"for (unsigned long long {k} = 0; {k} < s2s_trip{sfx}; {k}++) {{", INDENT + iv]
                + [INDENT + line for line in body]
                + ["}"]
            )
            if not bd.var_declared_in_loop:
                loop.append(f"{bd.var} = {value_at(bd, f's2s_trip{sfx}', sfx)};")
            body = ["{"] + [INDENT + line for line in loop] + ["}"]
        if self.region.worksharing:
            chunk = "1"
            if self.region.scans:
                before, chunk = before + self.outer_trips(bounds), "s2s_outer_trips"
            pragma = self.ws_pragma(
                self.region.clauses, collapse=len(outer), outer=True, scan_chunk=chunk
            )
            if before:
                return ["{"] + [INDENT + line for line in before + [pragma] + body] + ["}"]
            body = [pragma] + body
        return body

    def outer_trips(self, bounds: list[Any]) -> list[str]:
        """Lines before a collapsed worksharing nest with an inscan reduction
        declaring ``s2s_outer_trips``, the iterations of its outer loops:
        the chunk that gives them all to one thread, which runs the scan in
        iteration order.  The outer loops must be rectangular."""
        lines = ["unsigned long long s2s_outer_trips = 1;"]
        for d, bd in enumerate(bounds):
            if bd is None or _reads_loop_variables(bd, bounds):
                raise Unsupported(
                    "'reduction(inscan, ...)' with 'collapse' on '#pragma omp "
                    f"{self.region.clauses.directive}' is vectorized for outer loops whose "
                    "bounds do not depend on each other only (one thread runs them all)",
                    self.loc,
                )
            t = bd.var_type or self.region.fn.args[0].type
            assert isinstance(t, IntType)
            lines += trip_count(bd, t, f"_s{d}", self.loc)
            lines.append(f"s2s_outer_trips *= s2s_trip_s{d} ? s2s_trip_s{d} : 1ULL;")
        return lines + ["(void)s2s_outer_trips;"]  # clang's -Wall sees no use in a clause

    def collapsed_linear_starts(self, bounds: list[Any]) -> tuple[list[str], list[str]]:
        """Lines before a collapsed worksharing nest and at the top of its
        innermost outer iteration that give each linear variable its value
        there: the value before the nest plus step times the iterations of
        the collapsed space before it (OpenMP's logical iteration number),
        computed from the outer variables, since the threads run the outer
        iterations in any order.  The nest must be rectangular with
        constant steps; the variables are ``lastprivate`` on the pragma."""
        nest = [*bounds, self.region.bounds]
        for bd in nest:
            if bd is None or isinstance(bd.step, str) or _reads_loop_variables(bd, bounds):
                raise Unsupported(
                    f"'linear' with 'collapse' on '#pragma omp {self.region.clauses.directive}' "
                    "is vectorized for rectangular nests with constant steps only (the "
                    "threads' outer iterations each compute the linear value)",
                    self.loc,
                )
        before: list[str] = []
        for d, bd in enumerate(nest):
            t = bd.var_type or self.region.fn.args[0].type
            assert isinstance(t, IntType)
            before += trip_count(bd, t, f"_c{d}", self.loc)
        done = "0ULL"
        for d, bd in enumerate(bounds):
            step = abs(bd.step)
            lo, var = f"(unsigned long long)s2s_lo_c{d}", f"(unsigned long long){bd.var}"
            diff = f"({var} - {lo})" if bd.step > 0 else f"({lo} - {var})"
            done = f"({done} * s2s_trip_c{d} + {diff} / {step}ULL)"
        count = f"({done} * s2s_trip_c{len(bounds)})"
        starts = []
        for k, (b, _) in enumerate(self.linears):
            before.append(self.start_line(b, f"s2s_lin{k}_before"))
            value = self.lane0(f"s2s_lin{k}_before", b.step, b.arg.type, count)
            starts.append(f"{b.c_expr} = {self.as_declared(b, value)};")
        return before, starts

    def wrap_if(self, block: list[str], cond: str) -> list[str]:
        scalar = [self.region.loop_text]
        clauses = self.region.clauses
        if clauses is not None and clauses.teams_in_target:
            # in the teams region written apart: its distribute part
            texts = [text for _, text in clauses.inner_clauses]
            scalar = [" ".join([f"#pragma omp {self.loop_directive()}", *texts])] + scalar
        elif clauses is not None and clauses.combined and self.region.worksharing:
            # the original construct, whose if(simd:) is false there
            scalar = [self.region.pragma_text] + scalar
        elif self.region.worksharing:
            other = self.region.clauses.other if self.region.clauses else ""
            scalar = [f"#pragma omp {self.region.worksharing} {other}".rstrip()] + scalar
        return (
            [f"if ({cond}) {{"] + [INDENT + line for line in block] + ["} else {"] + scalar + ["}"]
        )


def _reads_loop_variables(bd: Any, outer: list[Any]) -> bool:
    """Whether a loop's bounds name a variable of the ``outer`` loops of its
    collapsed nest (a nest that is not rectangular)."""
    names = {o.var for o in outer if o is not None}
    return bool(set(re.findall(r"[A-Za-z_]\w*", f"{bd.lower} {bd.upper}")) & names)


def _c_loop_differs(bd: Any) -> bool:
    """Whether the C loop as written may run other iterations than OpenMP's:
    a ``!=`` test (C runs through a wrap), or a comparison in another type
    than the variable's (the variable can wrap before reaching the bound)."""
    t, ct = bd.var_type, bd.cmp_type
    if bd.cmp == "!=":
        return True
    return (
        isinstance(t, IntType)
        and isinstance(ct, IntType)
        and (t.bits, t.signed) != (ct.bits, ct.signed)
    )


def trip_count(bd: Any, t: IntType, suffix: str, loc: Location) -> list[str]:
    """C lines declaring ``s2s_lo<suffix>`` (lb in the variable's type T),
    ``s2s_hi<suffix>`` (the bound in the comparison's type) and
    ``s2s_trip<suffix>``, the iteration count in OpenMP's reading:

    * ``!=`` with step +1 / -1 is ``<`` / ``>`` (OpenMP 5.x; gcc and
      clang run no iteration of ``for (c = 250; c != 4; c++)``);
    * the bound keeps its own value: the count is computed in the type of
      the comparison (``unsigned char c < 300`` compares in int), the
      variable takes the values ``(T)(lb + k*step)``;
    * when some iteration would need a value T cannot hold (``unsigned
      char c = 250; c < 300``), OpenMP leaves the behaviour unspecified: no
      iteration runs, as gcc 12 does at run time (clang-19 runs the wrapped
      values; the plain C loop never ends).  This keeps the promise the
      vector body relies on: lanes never wrap.  Only the value after the
      last iteration may wrap (``c <= 255`` ends with c == 0), as with both
      compilers.
    """
    T = bd.var_c_type
    s = bd.step
    if isinstance(s, str):
        return _trip_count_runtime(bd, t, suffix)
    cmp = bd.cmp if bd.cmp != "!=" else ("<" if s > 0 else ">")
    ct = bd.cmp_type if isinstance(bd.cmp_type, IntType) else t
    CT = bd.cmp_c_type or T
    lo_v, hi_v, trip = f"s2s_lo{suffix}", f"s2s_hi{suffix}", f"s2s_trip{suffix}"
    lines = [
        f"const {T} {lo_v} = ({bd.lower});",
        f"const {CT} {hi_v} = ({bd.upper});",
        f"unsigned long long {trip} = 0;",
    ]
    lo, hi = f"(unsigned long long)({CT}){lo_v}", f"(unsigned long long){hi_v}"
    if cmp in ("<", "<=") and s > 0:
        off = " - 1ULL" if cmp == "<" else ""
        lines.append(f"if (({CT}){lo_v} {cmp} {hi_v}) {trip} = ({hi} - {lo}{off}) / {s}ULL + 1ULL;")
    elif cmp in (">", ">=") and s < 0:
        off = " - 1ULL" if cmp == ">" else ""
        lines.append(
            f"if (({CT}){lo_v} {cmp} {hi_v}) {trip} = ({lo} - {hi}{off}) / {-s}ULL + 1ULL;"
        )
    else:
        raise internal_error(
            f"a loop with '{bd.cmp}' and step {s} passed the canonical form check", loc
        )
    if ct.bits == t.bits and ct.signed == t.signed:
        # compared in T itself: every value of an iteration lies between lb
        # and the bound, both in T
        return lines
    # count 0 when the value of the last iteration, lb + (trip-1)*step, lies
    # outside T (the values are monotonic: then no earlier one does either)
    u64 = IntType(64, False)
    if s > 0:
        high = (1 << (t.bits - 1)) - 1 if t.signed else (1 << t.bits) - 1
        room = f"({literal(high, u64)} - (unsigned long long){lo_v}) / {s}ULL"
    else:
        low = -(1 << (t.bits - 1)) if t.signed else 0
        room = f"((unsigned long long){lo_v} - {literal(low, u64)}) / {-s}ULL"
    lines.append(
        f"if ({trip} != 0 && {trip} - 1ULL > {room}) {trip} = 0;  "
        "/* the variable cannot hold every value: no iteration */"
    )
    return lines


def _trip_count_runtime(bd: Any, t: IntType, suffix: str) -> list[str]:
    """``trip_count`` for a run-time step, whose sign is the one the
    comparison asks for (``step_sign_test`` guards the vector code): the
    same count, with the step's magnitude as ``unsigned long long``."""
    T, CT = bd.var_c_type, bd.cmp_c_type or bd.var_c_type
    ct = bd.cmp_type if isinstance(bd.cmp_type, IntType) else t
    up = bd.cmp in ("<", "<=")
    size = step_u64(bd.step) if up else f"(0ULL - {step_u64(bd.step)})"
    lo_v, hi_v, trip = f"s2s_lo{suffix}", f"s2s_hi{suffix}", f"s2s_trip{suffix}"
    lo, hi = f"(unsigned long long)({CT}){lo_v}", f"(unsigned long long){hi_v}"
    off = " - 1ULL" if bd.cmp in ("<", ">") else ""
    span = f"{hi} - {lo}{off}" if up else f"{lo} - {hi}{off}"
    lines = [
        f"const {T} {lo_v} = ({bd.lower});",
        f"const {CT} {hi_v} = ({bd.upper});",
        f"unsigned long long {trip} = 0;",
        f"if (({CT}){lo_v} {bd.cmp} {hi_v}) {trip} = ({span}) / {size} + 1ULL;",
    ]
    if ct.bits == t.bits and ct.signed == t.signed:
        return lines
    u64 = IntType(64, False)
    if up:
        high = (1 << (t.bits - 1)) - 1 if t.signed else (1 << t.bits) - 1
        room = f"({literal(high, u64)} - (unsigned long long){lo_v}) / {size}"
    else:
        low = -(1 << (t.bits - 1)) if t.signed else 0
        room = f"((unsigned long long){lo_v} - {literal(low, u64)}) / {size}"
    lines.append(
        f"if ({trip} != 0 && {trip} - 1ULL > {room}) {trip} = 0;  "
        "/* the variable cannot hold every value: no iteration */"
    )
    return lines


def step_sign_test(bd: Any) -> str:
    """The C condition under which a run-time step has the sign its
    comparison asks for (OpenMP: ``<``/``<=`` loops must count up,
    ``>``/``>=`` down); otherwise the loop runs as written."""
    return f"({bd.step}) {'>' if bd.cmp in ('<', '<=') else '<'} 0"


def value_at(bd: Any, k: str, suffix: str = "") -> str:
    """The loop variable's value in iteration ``k``: ``(T)(lb + k*step)``."""
    return f"({bd.var_c_type})((unsigned long long)s2s_lo{suffix} + {k} * {step_u64(bd.step)})"


def step_u64(step: int | str) -> str:
    """A step as C ``unsigned long long`` (two's complement: multiplying by
    it wraps as adding a negative step does); a run-time step is its text,
    evaluated where it is needed (it reads variables the loop does not
    change, frontend.loop_form)."""
    if isinstance(step, str):
        return f"(unsigned long long)(long long)({step})"
    return f"(unsigned long long){literal(step, IntType(64))}"


def split_clauses(text: str) -> list[str]:
    """Split verbatim clause text at top-level blanks: ``a(b, c) d`` -> [``a(b, c)``, ``d``]."""
    out: list[str] = []
    depth, cur = 0, ""
    for ch in text:
        if ch.isspace() and depth == 0:
            if cur and not cur.endswith("("):
                out.append(cur)
                cur = ""
            continue
        if ch == "(":
            # a blank between a clause name and its "(" belongs to the clause
            if not cur and out:
                cur = out.pop()
            depth += 1
        elif ch == ")":
            depth -= 1
        cur += ch
    if cur:
        out.append(cur)
    return out


def _dedent(text: str) -> list[str]:
    """The body text's lines, re-indented to start at column 0 (the first line
    starts right after the loop header in the source, so it has no margin)."""
    lines = text.strip("\n").split("\n")
    rest = [line for line in lines[1:] if line.strip()]
    margin = min((len(line) - len(line.lstrip()) for line in rest), default=0)
    closing = lines[-1].strip() == "}" and len(lines) > 1
    if closing:
        margin = min(margin, len(lines[-1]) - len(lines[-1].lstrip()))
    out = [lines[0].strip()]
    for line in lines[1:]:
        out.append(line[margin:] if line[:margin].strip() == "" else line.strip())
    return out


# -- prelude ---------------------------------------------------------------------------------
def complex_helpers(target: Target, needs: set[Any]) -> list[str]:
    """The C helpers of the complex operations the code calls
    (s2s/ir/complex_calls.py, templates/common/complex.j2)."""
    wanted = sorted(x for x in needs if x[0] in ("complex", "complex_pair"))
    if not wanted:
        return []
    module = target.env.get_template("complex.j2").module
    helper = {"complex": "part_helper", "complex_pair": "pair_helper"}  # complex.j2's macros
    return [
        str(getattr(module, helper[kind])(COMPLEX_CALLS[name])).strip() for kind, name in wanted
    ]


def atomic_helpers(target: Target, needs: set[Any]) -> list[str]:
    """The C helpers of the atomic accesses the code makes
    (s2s/ir/atomic_calls.py, templates/common/atomic.j2)."""
    wanted = sorted(x[1] for x in needs if x[0] == "atomic")
    if not wanted:
        return []
    module = target.env.get_template("atomic.j2").module
    helpers = [atomic_call_named(name) for name in wanted]
    helper = getattr(module, "helper")  # noqa: B009 (a macro: pyright does not see it)
    return [str(helper(h)).strip() for h in helpers if h is not None]


def prelude(target: Target, needs: set[Any]) -> str:
    """#includes, libmvec prototypes, declarations of the declare simd
    variants the loops call and helper functions for the given needs."""
    protos = sorted(
        f"{ctype} {name}({', '.join([ctype] * n)});"
        for kind, name, ctype, n in (x for x in needs if x[0] == "proto")
    )
    variants = sorted(x[1] for x in needs if x[0] == "decl")
    helpers_src: list[str] = []
    helper_names = sorted(x[1] for x in needs if x[0] == "helper")
    if helper_names:
        module = target.env.get_template("helpers.j2").module
        for item in helper_names:
            base, _, key = item.partition(":")
            macro = getattr(module, f"helper_{base}")
            # the key names a vector type, or is the helper's own argument (a mask width)
            arg = target.types.get(key, key)
            helpers_src.append(str(macro(arg) if key else macro()).strip())
    helpers_src += complex_helpers(target, needs)
    helpers_src += atomic_helpers(target, needs)
    return (
        target.render(
            "prelude.c.j2",
            target=target,
            headers=target.headers,
            prototypes=protos,
            variants=variants,
            helpers=helpers_src,
        ).strip()
        + "\n"
    )
