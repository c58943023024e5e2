"""Integer arithmetic done in the narrow type its result is truncated to.

C computes ``short`` and ``char`` arithmetic in ``int``: ``out[i] =
s[4*i] + 2*s[4*i+1] - s[4*i+3]`` over shorts loads 16-bit elements, widens
them to 32 bits, adds in 32 bits and truncates back.  The vector width
follows the widest element of the loop's vectors, so such a loop ran 8
lanes on AVX2 where 16 fit.  The low N bits of a sum, difference, product,
bitwise operation, negation, complement or left shift depend only on the
low N bits of its operands, so a truncation to N bits of such a tree whose
leaves are extensions from at most N bits (or constants) is the same tree
computed in N bits -- exact, in the wrapping arithmetic of the IR:

    %a = cast %x to i32   (%x: i16)        %n = mul %y, i16 2
    %b = cast %y to i32                    %s = add %x, %n
    %m = mul %b, i32 2              ==>    (%r is %s)
    %s = add %a, %m
    %r = cast %s to i16

Right shifts, divisions, remainders, comparisons, min/max and conversions
from wider values need the high bits: such a tree is left as it is.  Every
node but the leaves must have no other use (else both widths would be
computed).  8-bit trees take no multiply or shift (no target multiplies or
shifts 8-bit lanes; they would run lane by lane).  Runs before the control
flow transforms; keeps the CFG; the old tree is left to dce.
"""

from __future__ import annotations

from ..ir.types import IntType
from ..ir.values import BinOp, Cast, Constant, Function, Instruction, UnOp, Value
from .passes import Pass, PassState, did_any

OPS = {16: ("add", "sub", "mul", "and", "or", "xor", "shl"), 8: ("add", "sub", "and", "or", "xor")}
"""The binary operations computed in N bits, by N."""


def narrow_truncated_arithmetic(fn: Function) -> int:
    """Rewrite every truncation to 8 or 16 bits of a narrowable tree; how many."""
    done = 0
    for inst in [i for i in fn.instructions() if isinstance(i, Cast)]:
        to, x = inst.type, inst.operands[0]
        if not (isinstance(to, IntType) and isinstance(x.type, IntType)):
            continue
        if to.bits not in OPS or x.type.bits <= to.bits or not isinstance(x, (BinOp, UnOp)):
            continue
        if not _narrowable(x, to):
            continue
        narrow = _rebuild(x, to, inst)
        narrow.name = narrow.name or inst.name
        inst.replace_all_uses_with(narrow)
        inst.erase()
        done += 1
    return done


def _narrowable(v: Value, to: IntType) -> bool:
    """Whether ``v``'s low ``to.bits`` bits can be computed in ``to``."""
    if isinstance(v, Constant):
        return isinstance(v.value, int)
    if _is_leaf(v, to):
        return True
    if not isinstance(v, Instruction) or len(v.users) != 1:
        return False
    if isinstance(v, UnOp):
        return _narrowable(v.operands[0], to)
    if not isinstance(v, BinOp) or v.op not in OPS[to.bits]:
        return False
    a, b = v.operands
    if v.op == "shl":
        return (
            isinstance(b, Constant) and isinstance(b.value, int) and 0 <= b.value < to.bits
        ) and _narrowable(a, to)
    return _narrowable(a, to) and _narrowable(b, to)


def _is_leaf(v: Value, to: IntType) -> bool:
    """An extension of an integer of at most ``to.bits`` bits."""
    if not isinstance(v, Cast) or not isinstance(v.type, IntType):
        return False
    src = v.operands[0].type
    return isinstance(src, IntType) and 1 < src.bits <= to.bits and v.type.bits > to.bits


def _rebuild(v: Value, to: IntType, at: Instruction) -> Value:
    """``v`` computed in ``to``, new instructions placed before ``at``."""
    block = at.parent
    assert block is not None
    if isinstance(v, Constant):
        return Constant(to, _wrap(int(v.value), to))
    if isinstance(v, Cast) and _is_leaf(v, to):
        src = v.operands[0]
        if src.type == to:
            return src
        return _insert(Cast(src, to, f"{src.name or 'v'}.n"), at)
    if isinstance(v, UnOp):
        return _insert(UnOp(v.op, _rebuild(v.operands[0], to, at), v.name), at)
    assert isinstance(v, BinOp)
    a = _rebuild(v.operands[0], to, at)
    b = (
        Constant(to, int(v.operands[1].value))  # the shift count, as it is
        if v.op == "shl" and isinstance(v.operands[1], Constant)
        else _rebuild(v.operands[1], to, at)
    )
    return _insert(BinOp(v.op, a, b, v.name), at)


def _insert(inst: Instruction, at: Instruction) -> Instruction:
    block = at.parent
    assert block is not None
    block.insert(block.instructions.index(at), inst)
    return inst


def _wrap(value: int, t: IntType) -> int:
    """``value`` modulo 2^bits, in ``t``'s range."""
    v = value % (1 << t.bits)
    return v - (1 << t.bits) if t.signed and v >= 1 << (t.bits - 1) else v


def _run(state: PassState) -> int:
    return narrow_truncated_arithmetic(state.fn)


PASS = Pass("narrow", _run, changed=did_any)
