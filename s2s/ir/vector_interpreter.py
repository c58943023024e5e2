"""Run vector IR (s2s/ir/vector.py) once, with the lanes of its vectors.

Control flow is scalar (the vector IR has only uniform branches); a scalar
value is a Python value as in ``s2s.ir.interpreter``, a vector a list of
lane values (``<vscale x N x T>`` has ``vscale * N`` lanes).  Lanewise
instructions apply the scalar semantics of s2s.ir.interpreter to each lane,
a scalar operand standing for every lane.  A masked lanewise instruction
leaves its inactive lanes undefined and never traps there; a masked
``vload`` or ``gather`` gives 0 in its inactive lanes and touches no memory
for them; ``scatter`` and calls with vector operands run lane by lane in
lane order (a scatter of two lanes to one address leaves the later lane's
value, as sequential iterations would).  ``s2s.any`` / ``s2s.all`` combine
the (active) lanes of a mask.

Tests widen a predicated region to vector IR and compare this run with the
scalar region run once per lane (``run_lanes``): results and memory must be
equal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .interpreter import (
    DEFAULT_STEP_LIMIT,
    HORIZONTAL,
    MATH_FUNCTIONS,
    UNDEF,
    Frame,
    InterpreterError,
    Lane,
    Memory,
    Scalar,
    Trap,
    address,
    binop,
    cast,
    compare,
    constant,
    defined,
    normalize,
    phi_input,
    scalar_successor,
    select,
    unop,
)
from .types import Type, VectorType, element_type
from .values import (
    Argument,
    BinOp,
    Block,
    Call,
    Cast,
    Cmp,
    Function,
    Gep,
    Instruction,
    Select,
    UnOp,
    Value,
)
from .vector import (
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

Lanes = list[Scalar]
VValue = Scalar | Lanes
"""A Scalar, or Lanes for a vector."""


def _lanes(v: VValue) -> Lanes:
    """The lanes of a vector value."""
    if not isinstance(v, list):
        raise InterpreterError("a scalar where a vector is expected")
    return v


def _scalar(v: VValue) -> Scalar:
    """A scalar value."""
    if isinstance(v, list):
        raise InterpreterError("a vector where a scalar is expected")
    return v


def run_vector(
    fn: Function,
    args: Sequence[Scalar | Sequence[Scalar]],
    memory: Memory,
    vscale: int = 1,
    externals: dict[str, Callable[..., object]] | None = None,
    step_limit: int = DEFAULT_STEP_LIMIT,
) -> list[VValue]:
    """Run the vector IR function ``fn``; an argument of vector type is a
    sequence of lane values.  Returns the values of its ``ret``."""
    return _VectorRun(fn, memory, vscale, externals or {}, step_limit).run(args)


class _VectorRun:
    def __init__(
        self,
        fn: Function,
        memory: Memory,
        vscale: int,
        externals: dict[str, Callable[..., object]],
        step_limit: int,
    ) -> None:
        self.fn = fn
        self.memory = memory
        self.vscale = vscale
        self.frame = Frame(fn, step_limit)
        self.allocas: list[int] = []
        self.lane = Lane(memory, externals, self.allocas, width=_lanes_of(fn, vscale))
        self.externals = externals
        self.env: dict[Value, VValue] = {}

    def lanes(self, t: Type) -> int:
        assert isinstance(t, VectorType)
        return t.lanes * (self.vscale if t.scalable else 1)

    def normalized(self, v: Scalar | Sequence[Scalar], t: Type) -> VValue:
        if isinstance(t, VectorType):
            if not isinstance(v, Sequence):
                raise InterpreterError(f"{v!r} is not the lanes of a {t}")
            values = list(v)
            if len(values) != self.lanes(t):
                raise InterpreterError(f"{len(values)} lane values for {t}")
            return [normalize(x, t.elem) for x in values]
        return normalize(v, t)

    def value(self, v: Value) -> VValue:
        if isinstance(v, (Argument, Instruction)):
            if v not in self.env:
                raise InterpreterError(f"use of %{v.name} before it is computed")
            return self.env[v]
        return constant(v)

    def run(self, args: Sequence[Scalar | Sequence[Scalar]]) -> list[VValue]:
        if len(args) != len(self.fn.args):
            raise InterpreterError(f"@{self.fn.name} takes {len(self.fn.args)} arguments")
        self.env = {a: self.normalized(v, a.type) for a, v in zip(self.fn.args, args)}
        block: Block = self.fn.entry
        prev: Block | None = None
        try:
            while True:
                incoming: list[VValue] = []
                if block.phis:
                    if prev is None:
                        raise InterpreterError(f"phi in the entry block {block.name}")
                    incoming = [self.value(phi_input(p, prev)) for p in block.phis]
                self.env.update(zip(block.phis, incoming))
                for inst in block.instructions[len(block.phis) :]:
                    self.frame.step()
                    if inst.is_terminator:
                        target = scalar_successor(inst, lambda v: _scalar(self.value(v)))
                        if target is None:
                            return [self.value(v) for v in inst.operands]
                        block, prev = target, block
                        break
                    self.env[inst] = self.execute(inst)
        finally:
            for addr in self.allocas:
                self.memory.free(addr)

    # -- one instruction ---------------------------------------------------------
    def active(self, inst: Instruction, n: int) -> list[bool]:
        if inst.mask is None:
            return [True] * n
        m = self.value(inst.mask)
        if isinstance(m, list):
            return [bool(defined(x, "mask lane")) for x in m]
        return [bool(defined(m, "mask"))] * n

    def execute(self, inst: Instruction) -> VValue:
        ops = [self.value(o) for o in inst.operands]
        own = _OWN.get(type(inst))
        if own is not None:
            return own(self, inst, ops)
        if isinstance(inst, Call) and inst.callee in HORIZONTAL:
            return self.horizontal(inst, ops)
        if not is_lanewise(inst):
            if inst.mask is not None and not defined(_scalar(self.value(inst.mask)), "mask"):
                return UNDEF
            return self.lane.execute(inst, [_scalar(o) for o in ops])
        return self.lanewise(inst, ops)

    def width_of(self, inst: Instruction, ops: list[VValue]) -> int:
        mask = [inst.mask.type] if inst.mask is not None else []
        for v in [inst.type] + [o.type for o in inst.operands] + mask:
            if isinstance(v, VectorType):
                return self.lanes(v)
        raise InterpreterError("no vector operand")

    def lanewise(self, inst: Instruction, ops: list[VValue]) -> Lanes:
        n = self.width_of(inst, ops)
        on = self.active(inst, n)
        out: Lanes = []
        for k in range(n):
            if not on[k]:
                out.append(UNDEF)
                continue
            lane_ops = [o[k] if isinstance(o, list) else o for o in ops]
            try:
                out.append(_lane_result(self, inst, lane_ops))
            except Trap:
                if inst.mask is not None or isinstance(inst, Call):
                    raise
                out.append(UNDEF)  # unmasked arithmetic on a lane nobody reads
        return out

    def horizontal(self, inst: Call, ops: list[VValue]) -> Scalar:
        m = ops[0]
        lanes = m if isinstance(m, list) else [m]
        on = self.active(inst, len(lanes))
        result = HORIZONTAL[inst.callee]([lanes], on)
        return normalize(result, inst.type)


def _lanes_of(fn: Function, vscale: int) -> int:
    """The lanes of the function's vectors: what ``@s2s.width()`` (which a
    scalable function reads at run time) returns.  Widening makes every
    vector of one function the same lanes; legalization cuts only fixed ones."""
    for inst in fn.instructions():
        for t in [inst.type, *(o.type for o in inst.operands)]:
            if isinstance(t, VectorType):
                return t.lanes * (vscale if t.scalable else 1)
    return 1


def _lane_result(run: _VectorRun, inst: Instruction, ops: list[Scalar]) -> Scalar:
    """One lane of a lanewise instruction: the scalar semantics on the element types."""
    t = element_type(inst.type)
    if isinstance(inst, BinOp):
        return binop(inst.op, ops[0], ops[1], t)
    if isinstance(inst, UnOp):
        return unop(inst.op, ops[0], t)
    if isinstance(inst, Cmp):
        return compare(inst.pred, ops[0], ops[1])
    if isinstance(inst, Cast):
        return cast(ops[0], element_type(inst.operands[0].type), t)
    if isinstance(inst, Select):
        return select(ops[0], ops[1], ops[2])
    if isinstance(inst, Gep):
        return address(ops[0], ops[1], t)
    if isinstance(inst, Call):
        return _lane_call(run, inst, ops, t)
    raise InterpreterError(f"no lanewise {inst.opcode}")


def _lane_call(run: _VectorRun, inst: Call, ops: list[Scalar], t: Type) -> Scalar:
    """One lane's call of a scalar function (lanes run in order)."""
    if inst.callee in run.externals:
        result = run.externals[inst.callee](
            *[defined(v, f"argument of @{inst.callee}") for v in ops]
        )
    elif inst.callee in MATH_FUNCTIONS:
        numbers = [v for v in ops if v is not UNDEF]
        if len(numbers) != len(ops):
            return UNDEF
        result = MATH_FUNCTIONS[inst.callee](*[float(v) for v in numbers])
    else:
        raise InterpreterError(f"call of unknown function @{inst.callee}")
    return normalize(result, t) if t.is_int() or t.is_float() or t.is_ptr() else UNDEF


# -- the vector IR's own instructions ----------------------------------------------
def _splat(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    return [_scalar(ops[0])] * run.lanes(inst.type)


def _stepvector(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    t = inst.type
    return [normalize(k, element_type(t)) for k in range(run.lanes(t))]


def _extract(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Scalar:
    return _lanes(ops[0])[_lane_index(run, inst, ops[1])]


def _insert(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    out = list(_lanes(ops[0]))
    out[_lane_index(run, inst, ops[2])] = _scalar(ops[1])
    return out


def _reverse(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    return list(reversed(_lanes(ops[0])))


def _part(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    assert isinstance(inst, ExtractPart)
    n = run.lanes(inst.type)
    return list(_lanes(ops[0])[inst.part * n : (inst.part + 1) * n])


def _concat(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    return [x for op in ops for x in _lanes(op)]


def _lane_index(run: _VectorRun, inst: Instruction, k: VValue) -> int:
    n = run.lanes(inst.operands[0].type)
    index = int(defined(_scalar(k), "lane number"))
    if not 0 <= index < n:
        raise InterpreterError(f"lane {index} of a vector of {n}")
    return index


def _reduce(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Scalar:
    assert isinstance(inst, Reduce)
    lanes = ops[0]
    assert isinstance(lanes, list)
    on = run.active(inst, len(lanes))
    picked = [v for v, a in zip(lanes, on) if a]
    if not picked:
        raise InterpreterError("reduction of no active lane")
    t = element_type(inst.type)
    acc = picked[0]
    for v in picked[1:]:
        acc = binop(inst.op, acc, v, t)
    return acc


def _vload(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    t = inst.type
    n, elem = run.lanes(t), element_type(t)
    on = run.active(inst, n)
    base = int(defined(_scalar(ops[0]), "vload address"))
    return [
        run.memory.load(base + k * elem.size, elem) if on[k] else normalize(0, elem)
        for k in range(n)
    ]


def _vstore(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Scalar:
    t = inst.operands[0].type
    n, elem = run.lanes(t), element_type(t)
    on = run.active(inst, n)
    base = int(defined(_scalar(ops[1]), "vstore address"))
    values = _lanes(ops[0])
    for k in range(n):
        if on[k]:
            run.memory.store(base + k * elem.size, elem, defined(values[k], "stored lane"))
    return UNDEF


def _gather(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    t = inst.type
    n, elem = run.lanes(t), element_type(t)
    on = run.active(inst, n)
    addresses = _lanes(ops[0])
    return [
        run.memory.load(int(defined(addresses[k], "gather address")), elem)
        if on[k]
        else normalize(0, elem)
        for k in range(n)
    ]


def _scatter(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Scalar:
    t = inst.operands[0].type
    n, elem = run.lanes(t), element_type(t)
    on = run.active(inst, n)
    values, addresses = _lanes(ops[0]), _lanes(ops[1])
    for k in range(n):
        if on[k]:
            run.memory.store(
                int(defined(addresses[k], "scatter address")),
                elem,
                defined(values[k], "scattered lane"),
            )
    return UNDEF


def _recordload(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    assert isinstance(inst, RecordLoad)
    n, elem = run.lanes(inst.type), element_type(inst.type)
    base = int(defined(_scalar(ops[0]), "recordload address"))
    return [
        run.memory.load(base + (k * inst.slots + inst.slot) * elem.size, elem) for k in range(n)
    ]


def _rowload(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Lanes:
    assert isinstance(inst, RowLoad)
    n, elem = run.lanes(inst.type), element_type(inst.type)
    on = run.active(inst, n)
    rows = _lanes(ops[0])
    for k in range(n):  # the whole row of an active lane is read
        for s in range(inst.slots) if on[k] else ():
            run.memory.load(int(defined(rows[k], "rowload address")) + s * elem.size, elem)
    return [
        run.memory.load(int(defined(rows[k], "rowload address")) + inst.slot * elem.size, elem)
        if on[k]
        else normalize(0, elem)
        for k in range(n)
    ]


def _recordstore(run: _VectorRun, inst: Instruction, ops: list[VValue]) -> Scalar:
    assert isinstance(inst, RecordStore)
    t = inst.operands[0].type
    n, elem = run.lanes(t), element_type(t)
    base = int(defined(_scalar(ops[-1]), "recordstore address"))
    for k in range(n):
        for s, field in enumerate(ops[:-1]):
            value = defined(_lanes(field)[k], "recordstore value")
            run.memory.store(base + (k * inst.slots + s) * elem.size, elem, value)
    return UNDEF


_OWN: dict[type, Callable[[_VectorRun, Instruction, list[VValue]], VValue]] = {
    Splat: _splat,
    StepVector: _stepvector,
    ExtractLane: _extract,
    InsertLane: _insert,
    Reverse: _reverse,
    ExtractPart: _part,
    Concat: _concat,
    Reduce: _reduce,
    VLoad: _vload,
    VStore: _vstore,
    Gather: _gather,
    Scatter: _scatter,
    RecordLoad: _recordload,
    RowLoad: _rowload,
    RecordStore: _recordstore,
}
