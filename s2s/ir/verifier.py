"""Check the structural and type invariants of an IR function.

``verify(fn)`` raises ``IRError`` listing every problem found (one per line,
``@fn: block LABEL: text``), or returns None.  Checked:

  1. block shape: non-empty, exactly one terminator and it is last, phis
     only at the start, ``instruction.block`` / ``block.function`` correct,
     successors inside the function;
  2. phis: one incoming value per predecessor, exactly the predecessor set;
  3. types: binop/cmp operands agree, select/condbr conditions and masks are
     ``i1`` (``<N x i1>`` of the instruction's lanes in the vector IR), store
     value matches the pointee, ``ret`` matches ``fn.ret_types``, result
     types follow from the operands, the vector IR's instructions
     (s2s/ir/vector.py) take what their types say;
  4. SSA dominance: every use is dominated by its definition (a phi use at
     the end of the incoming block); arguments belong to the function;
  5. use lists: ``value.users`` holds each user once per use.

Unreachable blocks are allowed; uses inside them are not dominance-checked.
Dominators are computed here with the iterative algorithm of Cooper, Harvey
and Kennedy ("A Simple, Fast Dominance Algorithm") so that the IR layer does
not depend on ``s2s.analysis``.
"""

from __future__ import annotations

import functools
from collections import Counter

from .printer import IRPrinter
from .types import (
    I1,
    VOID,
    ArrayType,
    PtrType,
    StructType,
    Type,
    VectorType,
    element_type,
    lanes_agree,
    mask_type,
)
from .values import (
    Alloca,
    Argument,
    BinOp,
    Block,
    Call,
    Cast,
    Cmp,
    CondBr,
    Constant,
    FieldAddr,
    Function,
    Gep,
    Instruction,
    IRError,
    Load,
    Phi,
    Ret,
    Select,
    Store,
    Switch,
    Terminator,
    Undef,
    UnOp,
    Value,
    gep_type,
)
from .vector import VECTOR_INSTRUCTIONS, vector_problem

_INT_ONLY_OPS = ("and", "or", "xor", "shl", "shr")


def verify(fn: Function) -> None:
    """Raise IRError listing all problems of ``fn``; return None when it is sound."""
    problems = _Verifier(fn).run()
    if problems:
        raise IRError(f"invalid IR in @{fn.name}:\n" + "\n".join(problems))


def compute_idoms(fn: Function) -> dict[Block, Block]:
    """Immediate dominator of each reachable block (the entry maps to itself)."""
    order = _reverse_postorder(fn.entry)
    index = {b: i for i, b in enumerate(order)}
    preds: dict[Block, list[Block]] = {b: [] for b in order}
    for b in order:
        for s in b.successors:
            if s in preds:
                preds[s].append(b)
    idom: dict[Block, Block] = {fn.entry: fn.entry}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            done = [p for p in preds[b] if p in idom]
            new = done[0]
            for p in done[1:]:
                new = _intersect(p, new, idom, index)
            if idom.get(b) is not new:
                idom[b] = new
                changed = True
    return idom


def dominates(a: Block, b: Block, idom: dict[Block, Block]) -> bool:
    """True if block ``a`` dominates reachable block ``b``."""
    while True:
        if a is b:
            return True
        up = idom[b]
        if up is b:
            return False
        b = up


def _intersect(a: Block, b: Block, idom: dict[Block, Block], index: dict[Block, int]) -> Block:
    while a is not b:
        while index[a] > index[b]:
            a = idom[a]
        while index[b] > index[a]:
            b = idom[b]
    return a


def _reverse_postorder(entry: Block) -> list[Block]:
    seen: set[Block] = {entry}
    post: list[Block] = []
    stack: list[tuple[Block, int]] = [(entry, 0)]
    while stack:
        block, i = stack.pop()
        succs = block.successors
        if i < len(succs):
            stack.append((block, i + 1))
            s = succs[i]
            if s not in seen:
                seen.add(s)
                stack.append((s, 0))
        else:
            post.append(block)
    return post[::-1]


class _Verifier:
    def __init__(self, fn: Function) -> None:
        self.fn = fn
        self.problems: list[str] = []

    @functools.cached_property
    def names(self) -> IRPrinter:
        """The printer's names of the values, for the messages (made only
        when there is a problem to report: sound IR is the common case)."""
        names = IRPrinter()
        names.assign_names(self.fn)
        return names

    def report(self, block: Block | None, text: str) -> None:
        where = f"block {self.names.print_label(block)}: " if block is not None else ""
        self.problems.append(f"  {where}{text}")

    def show(self, inst: Instruction) -> str:
        return f"'{self.names.print_instruction(inst)}'"

    def run(self) -> list[str]:
        if not self.fn.blocks:
            self.report(None, "function has no blocks")
            return self.problems
        for block in self.fn.blocks:
            self.check_block_shape(block)
        if self.problems:
            # Phi and dominance checks assume well-formed blocks.
            return self.problems
        preds = self.fn.predecessors()
        if self.fn.entry.phis:
            self.report(self.fn.entry, "phi in the entry block")
        for block in self.fn.blocks:
            for inst in block.instructions:
                self.check_types(block, inst)
                if isinstance(inst, Phi):
                    self.check_phi(block, inst, preds[block])
        self.check_dominance()
        self.check_use_lists()
        return self.problems

    # -- 1. block shape ---------------------------------------------------------------
    def check_block_shape(self, block: Block) -> None:
        if block.function is not self.fn:
            self.report(block, "block.function is not this function")
        if not block.instructions:
            self.report(block, "empty block (no terminator)")
            return
        seen_non_phi = False
        last = len(block.instructions) - 1
        for i, inst in enumerate(block.instructions):
            if inst.block is not block:
                self.report(block, f"{self.show(inst)} has a wrong instruction.block")
            if isinstance(inst, Phi) and seen_non_phi:
                self.report(block, f"phi {self.show(inst)} after a non-phi instruction")
            seen_non_phi = seen_non_phi or not isinstance(inst, Phi)
            if inst.is_terminator and i != last:
                self.report(block, f"terminator {self.show(inst)} in the middle of the block")
        if not block.instructions[last].is_terminator:
            self.report(block, "block does not end with a terminator")
            return
        term = block.instructions[last]
        assert isinstance(term, Terminator)
        for s in term.successors:
            if s.function is not self.fn or s not in self.fn.blocks:
                self.report(block, f"branch to block {s.name!r} outside the function")

    # -- 2. phis -----------------------------------------------------------------------
    def check_phi(self, block: Block, phi: Phi, preds: list[Block]) -> None:
        incoming = phi.incoming_blocks
        for b, count in Counter(incoming).items():
            if count > 1:
                self.report(
                    block, f"{self.show(phi)} has {count} entries for {self.names.print_label(b)}"
                )
        missing = [p for p in preds if p not in incoming]
        extra = [b for b in dict.fromkeys(incoming) if b not in preds]
        if missing:
            labels = ", ".join(self.names.print_label(b) for b in missing)
            self.report(block, f"{self.show(phi)} lacks an entry for predecessor(s) {labels}")
        if extra:
            labels = ", ".join(self.names.print_label(b) for b in extra)
            self.report(block, f"{self.show(phi)} has entries for non-predecessor(s) {labels}")
        for v in phi.operands:
            if v.type != phi.type:
                self.report(block, f"{self.show(phi)}: incoming value of type {v.type}")

    # -- 3. types ----------------------------------------------------------------------
    def check_types(self, block: Block, inst: Instruction) -> None:
        problem = _type_problem(inst, self.fn)
        if problem is not None:
            self.report(block, f"{self.show(inst)}: {problem}")
        if inst.mask is not None and not _mask_fits(inst, inst.mask.type):
            self.report(
                block,
                f"{self.show(inst)}: mask of type {inst.mask.type}, not "
                f"{mask_type(_lanes_of(inst))}",
            )

    # -- 4. dominance ------------------------------------------------------------------
    def check_dominance(self) -> None:
        idom = compute_idoms(self.fn)
        position = {inst: i for b in self.fn.blocks for i, inst in enumerate(b.instructions)}
        for block in self.fn.blocks:
            for inst in block.instructions:
                uses = list(inst.operands) + ([inst.mask] if inst.mask is not None else [])
                for k, v in enumerate(uses):
                    self.check_use(block, inst, k, v, idom, position)

    def check_use(
        self,
        block: Block,
        user: Instruction,
        k: int,
        v: Value,
        idom: dict[Block, Block],
        position: dict[Instruction, int],
    ) -> None:
        if v.type == VOID:
            self.report(block, f"{self.show(user)} uses a value of type void")
            return
        if isinstance(v, (Constant, Undef)):
            return
        if isinstance(v, Argument):
            if v.index >= len(self.fn.args) or self.fn.args[v.index] is not v:
                self.report(block, f"{self.show(user)} uses an argument of another function")
            return
        if not isinstance(v, Instruction) or v not in position:
            self.report(
                block,
                f"{self.show(user)} uses a value not in the function "
                f"({type(v).__name__} {v.name!r})",
            )
            return
        from_block = (
            user.incoming_blocks[k] if isinstance(user, Phi) and k < len(user.operands) else None
        )
        is_phi_use = from_block is not None
        use_block = from_block if from_block is not None else block
        def_block = v.block
        assert def_block is not None
        if use_block not in idom:
            return  # unreachable use: no dominance requirement
        if def_block not in idom:
            self.report(
                block,
                f"{self.show(user)} uses {self.names.print_value_name(v)} "
                f"defined in an unreachable block",
            )
        elif def_block is use_block:
            if not is_phi_use and position[v] >= position[user]:
                self.report(
                    block,
                    f"{self.show(user)} uses "
                    f"{self.names.print_value_name(v)} before its definition",
                )
        elif not dominates(def_block, use_block, idom):
            self.report(
                block,
                f"{self.show(user)}: definition of "
                f"{self.names.print_value_name(v)} does not dominate this use",
            )

    # -- 5. use lists ------------------------------------------------------------------
    def check_use_lists(self) -> None:
        values: list[Value] = list(self.fn.args)
        values.extend(self.fn.instructions())
        if self._use_pairs_match(values):
            return  # the common case, without a Counter per value
        expected: dict[Value, Counter[Instruction]] = {}
        for inst in values[len(self.fn.args) :]:
            assert isinstance(inst, Instruction)
            uses = list(inst.operands) + ([inst.mask] if inst.mask is not None else [])
            for v in uses:
                expected.setdefault(v, Counter())[inst] += 1
        for v in values:
            actual = Counter(v.users)
            want = expected.get(v, Counter())
            if actual != want:
                block = v.block if isinstance(v, Instruction) else None
                self.report(
                    block,
                    f"use list of {self.names.print_value_name(v)} is "
                    f"inconsistent with the operands "
                    f"({sum(actual.values())} users recorded, "
                    f"{sum(want.values())} uses found)",
                )

    @staticmethod
    def _use_pairs_match(values: list[Value]) -> bool:
        """Do the (value, user) pairs of the operands and of the use lists agree?"""
        known = {id(v) for v in values}
        expected: Counter[tuple[int, int]] = Counter()
        for inst in values:
            if not isinstance(inst, Instruction):
                continue
            for v in inst.operands:
                if id(v) in known:
                    expected[id(v), id(inst)] += 1
            if inst.mask is not None and id(inst.mask) in known:
                expected[id(inst.mask), id(inst)] += 1
        actual = Counter((id(v), id(user)) for v in values for user in v.users)
        return actual == expected


def _mask_fits(inst: Instruction, mask: Type) -> bool:
    """A mask has the instruction's lanes; a call of scalar operands and no
    result may take a vector mask (it runs once per active lane)."""
    if mask == mask_type(_lanes_of(inst)):
        return True
    scalar_call = isinstance(inst, Call) and inst.type == VOID
    return scalar_call and isinstance(mask, VectorType) and mask.elem == I1


def _lanes_of(inst: Instruction) -> Type:
    """A vector type among the instruction's result and operands (their
    lanes are the instruction's), else its result type."""
    for t in [inst.type] + [o.type for o in inst.operands]:
        if isinstance(t, VectorType):
            return t
    return inst.type


def _type_problem(inst: Instruction, fn: Function) -> str | None:
    """A description of the type error of ``inst``, or None."""
    ops = inst.operands
    if isinstance(inst, BinOp):
        return _binop_problem(inst)
    if isinstance(inst, UnOp):
        elem = element_type(ops[0].type)
        if inst.type != ops[0].type:
            return "result type differs from the operand type"
        if not (elem.is_int() or (elem.is_float() and inst.op == "neg")):
            return f"'{inst.op}' on type {ops[0].type}"
        return None
    if isinstance(inst, Cmp):
        if ops[0].type != ops[1].type:
            return f"compare of different types {ops[0].type} and {ops[1].type}"
        want = mask_type(ops[0].type)
        return None if inst.type == want else f"compare result is not {want}"
    if isinstance(inst, Select):
        if ops[1].type != ops[2].type or inst.type != ops[1].type:
            return f"select arms of types {ops[1].type} and {ops[2].type}"
        if ops[0].type not in (I1, mask_type(ops[1].type)):
            return f"select condition of type {ops[0].type}, not {mask_type(ops[1].type)}"
        return None
    if isinstance(inst, VECTOR_INSTRUCTIONS):
        return vector_problem(inst)
    if isinstance(inst, (Gep, Load, Store, FieldAddr)):
        return _memory_problem(inst)
    if isinstance(inst, Alloca):
        return None if inst.type == PtrType(inst.allocated) else "alloca result type"
    if isinstance(inst, Cast):
        if len(ops) != 1:
            return "cast needs one operand"
        return (
            None
            if lanes_agree(ops[0].type, inst.type)
            else f"cast of {ops[0].type} to {inst.type} changes the lanes"
        )
    if isinstance(inst, CondBr):
        return None if ops[0].type == I1 else f"branch condition of type {ops[0].type}"
    if isinstance(inst, Switch):
        keys = [k for k, _ in inst.cases]
        if len(set(keys)) != len(keys):
            return "duplicate case values"
        return None if ops[0].type.is_int() else f"switch on type {ops[0].type}"
    if isinstance(inst, Ret):
        got = [str(o.type) for o in ops]
        want = [str(t) for t in fn.ret_types]
        return (
            None
            if got == want
            else f"returns ({', '.join(got)}), function returns ({', '.join(want)})"
        )
    return None


def _binop_problem(inst: BinOp) -> str | None:
    a, b = inst.operands
    if a.type != b.type:
        return f"operands of different types {a.type} and {b.type}"
    if inst.type != a.type:
        return "result type differs from the operand type"
    elem = element_type(a.type)
    if inst.op in _INT_ONLY_OPS and not elem.is_int():
        return f"'{inst.op}' on type {a.type}"
    if not (elem.is_int() or elem.is_float()):
        return f"'{inst.op}' on type {a.type}"
    return None


def _memory_problem(inst: Instruction) -> str | None:
    ops = inst.operands
    if isinstance(inst, Gep):
        return _gep_problem(inst)
    ptr_op = ops[1] if isinstance(inst, Store) else ops[0]
    if not isinstance(ptr_op.type, PtrType):
        return f"address of non-pointer type {ptr_op.type}"
    pointee = ptr_op.type.pointee
    if isinstance(inst, Store):
        return None if ops[0].type == pointee else f"stores {ops[0].type} through {ptr_op.type}"
    if isinstance(inst, Load):
        return None if inst.type == pointee else f"load result type {inst.type}"
    assert isinstance(inst, FieldAddr)
    return _field_problem(inst, pointee)


def _gep_problem(inst: Instruction) -> str | None:
    base, index = inst.operands
    if not isinstance(element_type(base.type), PtrType):
        return f"address of non-pointer type {base.type}"
    if not element_type(index.type).is_int():
        return f"gep index of type {index.type}"
    if (
        isinstance(base.type, VectorType)
        and isinstance(index.type, VectorType)
        and not base.type.same_lanes(index.type)
    ):
        return f"gep of {base.type} at {index.type}"
    return (
        None
        if inst.type == gep_type(base.type, index.type)
        else "gep result type differs from base"
    )


def _field_problem(inst: FieldAddr, pointee: Type) -> str | None:
    if not isinstance(pointee, StructType):
        return f"fieldaddr of non-struct pointee {pointee}"
    try:
        ftype = pointee.field_named(inst.field).type
    except KeyError:
        return f"{pointee} has no field {inst.field}"
    # An array member may be addressed whole or decayed to its first element.
    allowed = [PtrType(ftype)]
    if isinstance(ftype, ArrayType):
        allowed.append(PtrType(ftype.elem))
    return None if inst.type in allowed else f"fieldaddr result {inst.type}, expected {allowed[-1]}"
