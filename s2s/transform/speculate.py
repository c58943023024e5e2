"""Speculation: short, harmless arms of a branch become selects.

The front end lowers ``?:``, ``&&``, ``||`` and ``if`` with branches, as C
says.  Where a divergent branch only chooses between a few cheap values,
running both arms on every lane and selecting is cheaper than predicating
them, and it leaves linearization and BOSCC less to do:

    a: condbr %c, T, F                 a: ...T's code...  ...F's code...
    T: %x = add %u, 1;  br J     ==>      %p = select %c, %x, %y
    F: %y = mul %u, 3;  br J              br J
    J: %p = phi [%x, T], [%y, F]       J: (T and F removed)

The triangle ``a -> T -> J, a -> J`` is handled the same way, and a join
left with ``a`` as its only predecessor is merged into ``a``.  An arm
qualifies when its block has ``a`` as its only predecessor and ``J`` as its
only successor, holds at most ``MAX_ARM`` instructions, and all of them may
run on lanes that do not take the arm (safety.py: no memory, no calls --
math calls are left to linearization, where BOSCC can skip them -- nothing
that traps or is undefined out of range).  Selects on ``i1`` values
become ``and``/``or`` (the short-circuit operators).  Diamonds nest: the
innermost are folded first and the pass repeats until nothing changes.

Uniform branches stay branches, but those that choose between vectors
with arms of at most ``MAX_UNIFORM_ARM`` instructions (a ``select`` on a
scalar condition, which the C compiler turns into a branch again where
that pays).  Requires the divergence analysis; keeps
the loop structure (arms never hold a loop's header, latch or exit).  Every
analysis is invalid afterwards.
"""

from __future__ import annotations

from ..analysis.cfg import Graph, cfg_of
from ..analysis.divergence import DivergenceInfo
from ..ir.types import I1
from ..ir.values import (
    BinOp,
    Block,
    Br,
    CondBr,
    Constant,
    Function,
    Instruction,
    Select,
    Undef,
    Value,
)
from .passes import Pass, PassState, did_any
from .safety import can_speculate

MAX_ARM = 8
"""Instructions an arm of a divergent branch may hold (more is left to
linearization)."""

MAX_UNIFORM_ARM = 4
"""Instructions an arm of a uniform branch may hold, when the branch chooses
between vectors (the default of the target's ``uniform_arm_limit``):
``it < MAX && |z| <= 4`` in an escape-time loop, whose
uniform test kept a diamond of vector phis in the loop that the C compilers
allocate badly (clang 19 spilled the loop's chain through the stack, 1.7x
slower, bench/RESULTS.md)."""


def speculate(fn: Function, div: DivergenceInfo, uniform_limit: int = MAX_UNIFORM_ARM) -> int:
    """Fold the harmless arms of divergent branches, and the very short ones
    (``uniform_limit``) of uniform branches that choose between vectors;
    returns how many."""
    limits = {
        b: MAX_ARM if div.is_divergent_branch(b) else uniform_limit
        for b in div.cfg.block_order
        if isinstance(b.terminator, CondBr)
    }
    folded = 0
    while True:
        g = cfg_of(fn)
        done = next(
            (a for a in reversed(g.block_order) if a in limits and _fold(fn, g, a, limits[a], div)),
            None,
        )
        if done is None:
            return folded
        folded += 1


def _fold(fn: Function, g: Graph[Block], a: Block, limit: int, div: DivergenceInfo) -> bool:
    term = a.terminator
    if not isinstance(term, CondBr) or term.if_true is term.if_false:
        return False
    join = _join(g, a, term, limit)
    if join is None:
        return False
    if not div.is_divergent_branch(a) and not any(div.shape_of(p).is_varying for p in join.phis):
        return False  # scalar values: the C compiler chooses
    arms = [s for s in (term.if_true, term.if_false) if s is not join]
    cond = term.operands[0]
    for arm in arms:
        for inst in [i for i in arm.instructions if not i.is_terminator]:
            arm.instructions.remove(inst)
            a.insert(len(a.instructions) - 1, inst)
    for phi in join.phis:
        from_true = phi.value_from(term.if_true if term.if_true is not join else a)
        from_false = phi.value_from(term.if_false if term.if_false is not join else a)
        chosen = _select(a, cond, from_true, from_false, phi.name)
        for arm in arms:
            phi.remove_incoming(arm)
        if a in phi.incoming_blocks:
            phi.remove_incoming(a)
        phi.add_incoming(chosen, a)
    term.drop_operands()
    a.instructions[-1] = Br(join)
    a.instructions[-1].block = a
    for arm in arms:
        arm_term = arm.terminator
        assert arm_term is not None
        arm_term.drop_operands()
        fn.remove_block(arm)
    if fn.predecessors()[join] == [a]:
        _merge(fn, a, join)
    return True


def _merge(fn: Function, a: Block, join: Block) -> None:
    """``a: ...; br J`` and J has no other predecessor: one block (so an
    outer branch sees a folded inner one as a single arm)."""
    for phi in join.phis:
        (value,) = phi.operands
        phi.replace_all_uses_with(value)
        phi.erase()
    a_term = a.terminator
    assert a_term is not None
    a_term.drop_operands()
    a.instructions.pop()
    for inst in join.instructions:
        inst.block = a
        a.instructions.append(inst)
    join.instructions = []
    for succ in a.successors:
        for phi in succ.phis:
            phi.incoming_blocks = [a if b is join else b for b in phi.incoming_blocks]
    fn.remove_block(join)


def _join(g: Graph[Block], a: Block, term: CondBr, limit: int) -> Block | None:
    """The block both ways of ``a`` meet in, when each way is a harmless arm
    (or goes there directly)."""
    ends: list[Block] = []
    for s in (term.if_true, term.if_false):
        if _harmless_arm(g, a, s, limit):
            ends.append(g.succs[s][0])
        else:
            ends.append(s)
    t_end, f_end = ends
    if t_end is not f_end:
        return None
    join = t_end
    if join in (term.if_true, term.if_false) or all(
        _harmless_arm(g, a, s, limit) for s in (term.if_true, term.if_false)
    ):
        lp = g.loops.innermost.get(a)
        return (
            join
            if g.loops.innermost.get(join) is lp and g.loops.loop_with_header(join) is None
            else None
        )
    return None


def _harmless_arm(g: Graph[Block], a: Block, s: Block, limit: int) -> bool:
    if g.preds[s] != [a] or len(g.succs[s]) != 1 or s.phis:
        return False
    if g.loops.innermost.get(s) is not g.loops.innermost.get(a):
        return False
    body = [i for i in s.instructions if not i.is_terminator]
    return (
        len(body) <= limit and all(can_speculate(i) for i in body) and isinstance(s.terminator, Br)
    )


def _select(a: Block, c: Value, x: Value, y: Value, name: str) -> Value:
    """``select c, x, y`` before a's terminator; on i1, and/or where it can;
    an undefined arm: the other (as transform.predicates does)."""
    if x is y or isinstance(y, Undef):
        return x
    if isinstance(x, Undef):
        return y
    at = len(a.instructions) - 1
    if x.type == I1 and isinstance(x, Constant) and x.value:
        inst: Instruction = BinOp("or", c, y, name)
    elif x.type == I1 and isinstance(y, Constant) and not y.value:
        inst = BinOp("and", c, x, name)
    else:
        inst = Select(c, x, y, name)
    a.insert(at, inst)
    return inst


def _run(state: PassState) -> int:
    return speculate(state.fn, state.get(DivergenceInfo), state.options.uniform_arm_limit)


PASS = Pass(
    "speculate",
    _run,
    requires=(DivergenceInfo,),
    options=("uniform_arm_limit",),
    changed=did_any,
)
