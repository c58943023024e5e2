"""Which instructions may run where the source would not run them.

Speculation (speculate.py) runs the arms of a branch on every lane, and
loop-invariant code motion (licm.py) runs an instruction once before a loop
that might have skipped it.  Both need instructions that cannot trap and
have no effect: no memory access, no call (a math call is harmless but
expensive: linearization and BOSCC decide about those), no integer division
by anything but a constant other than 0 and -1 (INT_MIN / -1), no shift by
a non-constant (a count out of range is undefined), no float to integer
conversion (undefined out of range), nothing already masked.
"""

from __future__ import annotations

from ..ir.types import FloatType, IntType
from ..ir.values import BinOp, Call, Cast, Constant, Instruction, Load, Phi, Store


def can_speculate(inst: Instruction) -> bool:
    if isinstance(inst, (Load, Store, Call, Phi)) or inst.mask is not None or inst.is_terminator:
        return False
    if isinstance(inst, BinOp) and inst.op in ("div", "rem") and isinstance(inst.type, IntType):
        d = inst.operands[1]
        return isinstance(d, Constant) and int(d.value) not in (0, -1)
    if isinstance(inst, BinOp) and inst.op in ("shl", "shr"):
        return isinstance(inst.operands[1], Constant)
    if isinstance(inst, Cast):
        return not (isinstance(inst.operands[0].type, FloatType) and isinstance(inst.type, IntType))
    return not inst.has_side_effects
