"""What an instruction costs the vector code, roughly: the weights the
transforms' cost models share (BOSCC, merging arms).  Calls (math
functions) weigh most, divisions next, memory next, the rest one each."""

from __future__ import annotations

from ..ir.values import BinOp, Call, Instruction, Load, Store


def instruction_weight(inst: Instruction) -> int:
    if isinstance(inst, Call):
        return 16
    if isinstance(inst, BinOp) and inst.op in ("div", "rem"):
        return 8
    if isinstance(inst, (Load, Store)):
        return 2
    return 1
