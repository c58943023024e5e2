"""A uniform test in front of a divergent branch: the CFG edit BOSCC gadgets
(``s2s.any``) and all-true paths (``s2s.all``) share.

    a:  ...                                a:  ...
        condbr %c, T, F        ==>             %t = call <test>(%c)   (or of !%c for F)
                                               condbr %t, <then>, <else>
                                           a.<suffix>:
                                               condbr %c, T, F

``test_arm`` moves ``a``'s branch into the new block ``a.<suffix>`` (the
phis of T and F now name it as their predecessor), appends the test of the
lanes of ``a`` that take ``arm`` and returns both; the caller branches on
the test and mends the phis of the edges it adds from ``a``.
"""

from __future__ import annotations

from ..ir.types import I1
from ..ir.values import BinOp, Block, Call, CondBr, Constant, Function


def test_arm(fn: Function, a: Block, arm: Block, test: str, suffix: str) -> tuple[Call, Block]:
    """(the uniform test ``test`` (``s2s.any``, ``s2s.all``) of ``arm``'s
    lanes appended to ``a``, the block now holding ``a``'s divergent branch);
    ``a`` is left without a terminator."""
    term = a.terminator
    assert isinstance(term, CondBr)
    below = Block(f"{a.name}.{suffix}")
    below.function = fn
    fn.blocks.insert(fn.blocks.index(a) + 1, below)
    a.instructions.remove(term)
    term.block = None
    below.append(term)
    for s in dict.fromkeys(term.successors):
        for phi in s.phis:
            phi.incoming_blocks[phi.incoming_blocks.index(a)] = below
    cond = term.operands[0]
    if arm is term.if_false:
        cond = BinOp("xor", cond, Constant(I1, 1), f"not.{cond.name}" if cond.name else "")
        a.append(cond)
    taken = Call(test, [cond], I1, name=f"{arm.name}.{test.split('.')[-1]}")
    a.append(taken)
    return taken, below
