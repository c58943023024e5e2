"""Inlining: a call of a function whose body the translation unit holds becomes that body.

RV vectorizes what LLVM's inliner left in the loop (seed 001 Section 3.4,
13.3: the XSBench lookup's callees are inlined before vectorization); at
source level s2svec inlines itself, before every other pass, so that the
callee's branches and loops are the region's and divergence, BOSCC, the
divergent loop transform and linearization treat them as code of the loop.

A call is a candidate when lowering made it one (lower_callee): its callee
is in ``callees`` and it carries the callee's extra operands (the addresses
of the globals the body reads).  The call's block is split at the call and
the body cloned between the halves; its arguments are the call's operands,
its ``ret`` a branch to the second half, whose new phi is the call's value:

    b:                                 b:
      %x = add %i, 1                     %x = add %i, 1
      %r = call f64 @sq(%x)    ==>       br sq.entry
      %s = add %r, 1.0                 sq.entry:
      ret %s                             %m = mul %x, %x
                                         br sq.ret
    func @sq(f64 %v) -> (f64) {        sq.ret:
    entry:                               br b.split
      %m = mul %v, %v                  b.split:
      br ret                             %r = phi f64 [%m, sq.ret]
    ret:                                 %s = add %r, 1.0
      ret %m                             ret %s
    }

Calls the inlined body makes are candidates in turn (a call graph of any
depth; recursion never is, lowering left those plain).  The body's allocas
move to the start of the function's entry block, where lowering puts its
own (one object per lane and iteration, as per call).

Cost model: a call is inlined with everything it inlines in turn, or not
at all.  Its code (``expansion``: instructions, the callee's callees'
counted at each call) is inlined when it is at most ``SMALL``; larger, when
it is at most ``CALL_LIMIT``, the function has grown by at most
``GROWTH_LIMIT`` so far, and the callee is not called ``SHARED`` times or
more.  Otherwise the call stays a call, for which s2s.internal_variants
makes a vector variant of the callee (``Call.wants_variant``) where the
callee's parameters and result are scalars; calls of declare simd
functions go to their own variants (lowering never makes them
candidates).  A call not inlined loses its extra operands and states why
in ``Call.not_inlined``.

Changes the CFG; the function's other guarantees (SSA, no critical edges
added) hold; loop-closed form and preheaders are canonicalize's, which runs
next.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..analysis.cfg import cfg_of
from ..diagnostics import Unsupported
from ..ir.builder import copy_call, copy_instruction
from ..ir.region import CalleeBody
from ..ir.values import Alloca, Block, Br, Call, Function, Instruction, Phi, Ret, Undef, Value
from .passes import Pass, PassState

SMALL = 200
"""A callee of at most this many instructions (with what it inlines in
turn) is inlined at every call."""
SHARED = 3
"""A larger callee called this many times in one function gets one vector
variant instead (s2s.internal_variants), where it can have one."""
CALL_LIMIT = 1500
"""Most instructions one call may bring in (with what it inlines in turn)."""
GROWTH_LIMIT = 6000
"""Most instructions inlining may add to one function."""


@dataclass
class CallSite:
    """What became of one call the lowering made inlinable (the report's note)."""

    callee: str
    loc: object | None
    inlined: bool
    reason: str = ""


def inline_calls(fn: Function, callees: dict[str, CalleeBody]) -> list[CallSite]:
    """Inline the candidate calls of ``fn`` (module doc); one CallSite per
    candidate call of the source, in order."""
    sizes: dict[str, int] = {}
    grown = 0
    sites: list[CallSite] = []
    candidates = [i for i in fn.instructions() if isinstance(i, Call) and _is_candidate(i, callees)]
    counts = Counter(c.callee for c in candidates)
    for call in candidates:
        body = callees[call.callee]
        size = expansion(body, callees, sizes)
        reason = _why_not(body, size, grown, counts[call.callee])
        sites.append(CallSite(call.callee, call.loc, not reason, reason))
        if reason:
            _plain(call, body, reason, wants_variant=variant_possible(body))
            continue
        grown += size
        sites += _inline_tree(fn, call, callees)
    return sites


def _inline_tree(fn: Function, call: Call, callees: dict[str, CalleeBody]) -> list[CallSite]:
    """Inline ``call`` and, in the code it brings, every candidate call;
    the sites of those."""
    work = [call]
    nested: list[CallSite] = []
    while work:
        current = work.pop()
        if current is not call:
            nested.append(CallSite(current.callee, current.loc, True))
        work += [
            c
            for c in _inline_one(fn, current, callees[current.callee])
            if isinstance(c, Call) and _is_candidate(c, callees)
        ]
    return nested


def _why_not(body: CalleeBody, size: int, grown: int, calls: int) -> str:
    """Why a call is not inlined (the cost model); empty: it is."""
    name = body.name
    if size > CALL_LIMIT:
        return f"'{name}' is too large to inline ({size} instructions, at most {CALL_LIMIT})"
    if grown + size > GROWTH_LIMIT:
        return f"inlining '{name}' would grow the loop beyond {GROWTH_LIMIT} instructions"
    if size > SMALL and calls >= SHARED and variant_possible(body):
        return f"'{name}' ({size} instructions) is called {calls} times: one variant serves all"
    return ""


def variant_possible(body: CalleeBody) -> bool:
    """Whether the callee may have a vector variant: parameters and result
    are scalars (the Vector Function ABI passes no structs)."""
    types = [a.type for a in body.fn.args[: body.params]] + list(body.fn.ret_types)
    return not body.by_address and all(t.is_int() or t.is_float() or t.is_ptr() for t in types)


def _is_candidate(inst: Instruction, callees: dict[str, CalleeBody]) -> bool:
    if not isinstance(inst, Call) or inst.callee not in callees or inst.not_inlined:
        return False
    return len(inst.operands) == callees[inst.callee].arity


def expansion(body: CalleeBody, callees: dict[str, CalleeBody], sizes: dict[str, int]) -> int:
    """Instructions inlining ``body`` brings (those of the calls it inlines too)."""
    if body.name not in sizes:
        sizes[body.name] = 0  # a cycle (never made by lowering) counts once
        total = 0
        for inst in body.fn.instructions():
            total += 1
            if _is_candidate(inst, callees):
                assert isinstance(inst, Call)
                total += expansion(callees[inst.callee], callees, sizes)
        sizes[body.name] = total
    return sizes[body.name]


def _plain(call: Call, body: CalleeBody, reason: str, wants_variant: bool) -> None:
    """Replace ``call`` by a call of the C parameters only (for an internal
    vector variant of the callee where it may have one)."""
    if body.by_address:
        raise Unsupported(
            f"a call passing or returning a struct or complex value is not inlined ({reason})",
            call.loc,
        )
    plain = copy_call(call, call.operands[: body.params])
    plain.not_inlined = reason
    plain.wants_variant = wants_variant
    _replace(call, plain)


def _replace(old: Instruction, new: Instruction) -> None:
    block = old.block
    assert block is not None
    block.insert(block.instructions.index(old), new)
    old.replace_all_uses_with(new)
    old.erase()


def _inline_one(fn: Function, call: Call, body: CalleeBody) -> list[Instruction]:
    """Clone ``body`` in place of ``call``; the cloned instructions."""
    block = call.block
    assert block is not None
    after = _split_after(fn, block, call)
    values: dict[Value, Value] = dict(zip(body.fn.args, call.operands))
    blocks = {b: Block(f"{body.name}.{b.name}") for b in cfg_of(body.fn).rpo}
    _place(fn, after, list(blocks.values()))
    cloned: list[Instruction] = []
    phis: list[tuple[Phi, Phi]] = []
    results: list[tuple[Value, Block]] = []
    for old_block, new_block in blocks.items():
        for inst in old_block.instructions:
            if isinstance(inst, Ret):
                results += [(_mapped(values, v), new_block) for v in inst.operands[:1]]
                new_block.append(Br(after))
                continue
            if isinstance(inst, Phi):
                phi_copy = Phi(inst.type, inst.name)
                phis.append((inst, phi_copy))
                copy: Instruction = phi_copy
            else:
                copy = copy_instruction(inst, lambda v: _mapped(values, v), blocks.__getitem__)
            values[inst] = copy
            if isinstance(copy, Alloca):
                fn.entry.insert(0, copy)
            else:
                new_block.append(copy)
            cloned.append(copy)
    for old, new in phis:
        for v, b in old.incoming():
            new.add_incoming(_mapped(values, v), blocks[b])
    block.instructions.remove(call)
    call.block = None
    block.append(Br(blocks[body.fn.entry]))
    _result(call, after, results)
    return cloned


def _mapped(values: dict[Value, Value], v: Value) -> Value:
    return values.get(v, v)  # constants and undefs are shared


def _result(call: Call, after: Block, results: list[tuple[Value, Block]]) -> None:
    """The call's value: a phi of the body's returned values in ``after``."""
    if not call.users:
        call.drop_operands()
        return
    if len(results) == 1:
        value: Value = results[0][0]
    elif results:
        phi = Phi(call.type, call.name)
        for v, b in results:
            phi.add_incoming(v, b)
        after.insert(0, phi)
        value = phi
    else:
        value = Undef(call.type)
    call.replace_all_uses_with(value)
    call.drop_operands()


def _split_after(fn: Function, block: Block, call: Call) -> Block:
    """Move the instructions after ``call`` to a new block placed after
    ``block``; successors' phis name the new block."""
    after = Block(f"{block.name}.split")
    k = block.instructions.index(call)
    rest = block.instructions[k + 1 :]
    del block.instructions[k + 1 :]
    for inst in rest:
        after.append(inst)
    for succ in after.successors:
        for phi in succ.phis:
            phi.replace_incoming_block(block, after)
    _place(fn, block, [after], before_next=True)
    return after


def _place(fn: Function, anchor: Block, new: list[Block], before_next: bool = False) -> None:
    """Put ``new`` into ``fn``'s layout right after ``anchor`` (``before_next``)
    or right before it."""
    at = fn.blocks.index(anchor) + (1 if before_next else 0)
    for k, b in enumerate(new):
        b.function = fn
        fn.blocks.insert(at + k, b)


__all__ = ["CallSite", "expansion", "inline_calls"]


def _run(state: PassState) -> list[CallSite]:
    return inline_calls(state.fn, state.callees)


def _inlined_any(sites: list[CallSite]) -> bool:
    return any(site.inlined for site in sites)


PASS = Pass("inline", _run, changed=_inlined_any)
