"""Common-subexpression elimination of pure instructions (value numbering).

An IR-level clean-up, like fold.py, run twice: by the front end on the
lowered region, which repeats itself (``a[i] += x`` computes ``cast %i to
i64`` and ``gep %a, ...`` twice); and as the pass ``cse`` (s2s.transform.cse)
after linearization, when the arms of a divergent branch have become
straight-line code that runs for every vector, so what two arms both compute
(``0.5 / r`` in every arm of a cascade) is computed once.  The keys
(value_key, load_key, operand_key, operation_key) also serve hoist and
merge-arms.

Scoped value numbering over the dominator tree: an instruction whose
opcode, attributes and operands equal those of an instruction in a
dominating position is replaced by it.  Only instructions without memory
effects and without a lane mask are numbered (arithmetic, compares, casts,
select, gep, fieldaddr, calls of pure functions); loads, stores, other calls
and allocas are never merged.  Phis are left alone.  Integer division by
zero traps in C, but merging two identical unmasked divisions is safe: the
dominating one executes first.

Loads are merged within one block: a load of the same address, type and
mask as an earlier load of the block, with no store or impure call between,
reads what the earlier one read (after linearization the arms' loads of
``a[lo]`` sit in one block: one gather instead of two).
"""

from __future__ import annotations

from collections.abc import Hashable

from .values import (
    BinOp,
    Block,
    Call,
    Cast,
    Cmp,
    Constant,
    FieldAddr,
    Function,
    Gep,
    Instruction,
    Load,
    Select,
    Undef,
    UnOp,
    Value,
)
from .verifier import compute_idoms

_PURE = (BinOp, UnOp, Cmp, Cast, Select, Gep, FieldAddr)


def eliminate_common_subexpressions(fn: Function) -> int:
    """Merge repeated pure instructions (module doc); returns how many went."""
    idom = compute_idoms(fn)
    children: dict[Block, list[Block]] = {b: [] for b in fn.blocks}
    for b, d in idom.items():
        if b is not d:
            children[d].append(b)
    # Iterative preorder walk with a scope stack of value tables.
    stack: list[tuple[Block, dict[Hashable, Instruction]]] = [(fn.entry, {})]
    removed = 0
    while stack:
        block, inherited = stack.pop()
        table = dict(inherited)
        loads: dict[Hashable, Instruction] = {}  # this block's, since the last write
        merged: set[int] = set()
        for inst in block.instructions:
            if inst.has_side_effects:
                loads.clear()
            if isinstance(inst, Load):
                scope, key = loads, load_key(inst)
            elif numbered(inst):
                scope, key = table, value_key(inst)
            else:
                continue
            prev = scope.get(key)
            if prev is None:
                scope[key] = inst
                continue
            if not prev.name and inst.name:
                prev.name = inst.name
            inst.replace_all_uses_with(prev)
            inst.drop_operands()
            merged.add(id(inst))
        if merged:
            # One pass, not one list removal per merged instruction (a
            # 10,000-term sum repeats its index computation 10,000 times).
            kept: list[Instruction] = []
            for inst in block.instructions:
                if id(inst) in merged:
                    inst.block = None
                else:
                    kept.append(inst)
            block.instructions = kept
        removed += len(merged)
        for child in children.get(block, []):
            stack.append((child, table))
    return removed


def numbered(inst: Instruction) -> bool:
    """Pure and unmasked: merging two such instructions is safe."""
    if inst.mask is not None:
        return False
    return isinstance(inst, _PURE) or (isinstance(inst, Call) and inst.pure)


def load_key(inst: Load) -> Hashable:
    """Equal for loads of one address, type and mask."""
    mask = None if inst.mask is None else operand_key(inst.mask)
    return (str(inst.type), operand_key(inst.operands[0]), mask)


def operand_key(v: Value) -> Hashable:
    if isinstance(v, Constant):
        # repr keeps 0.0 and -0.0 apart (they differ in arithmetic).
        return ("const", str(v.type), repr(v.value))
    if isinstance(v, Undef):
        return ("undef", id(v))
    return id(v)


def operation_key(inst: Instruction) -> tuple[Hashable, ...]:
    """Equal for instructions of one operation, attribute and result type."""
    extra: Hashable = None
    if isinstance(inst, (BinOp, UnOp)):
        extra = inst.op
    elif isinstance(inst, Cmp):
        extra = inst.pred
    elif isinstance(inst, FieldAddr):
        extra = inst.field
    elif isinstance(inst, Call):
        extra = inst.callee
    return (type(inst).__name__, extra, str(inst.type))


def value_key(inst: Instruction) -> Hashable:
    """Equal for instructions that compute the same value from the same operands."""
    return operation_key(inst) + (tuple(operand_key(o) for o in inst.operands),)
