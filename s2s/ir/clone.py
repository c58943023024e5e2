"""Copies of functions and regions.

The variants of a loop (its masked last iteration, its lane refill
schedule) are pipelines of their own over a copy of the loop's lowered
region: the copy is made here instead of lowering the source again.  A copy
shares nothing that a pass may change (blocks, instructions, arguments);
constants, undefs and types are immutable and shared.
"""

from __future__ import annotations

from dataclasses import replace

from .builder import copy_instruction
from .region import ArgBinding, Region, ResultBinding
from .values import Argument, Block, Function, Instruction, Phi, Value


def clone_function(fn: Function) -> tuple[Function, dict[Value, Value]]:
    """A copy of ``fn`` and the map from its arguments and instructions to
    their copies."""
    copy = Function(fn.name, ret_types=fn.ret_types)
    values: dict[Value, Value] = {}
    for arg in fn.args:
        new_arg = copy.add_arg(arg.type, arg.name)
        new_arg.may_wrap = arg.may_wrap
        values[arg] = new_arg
    blocks = {b: copy.add_block(_block_like(b)) for b in fn.blocks}
    pending: list[tuple[Instruction, Instruction]] = []
    for old_block, new_block in blocks.items():
        for inst in old_block.instructions:
            if isinstance(inst, Phi):  # its incoming values are mapped below
                new: Instruction = Phi(inst.type, inst.name)
                new.loc = inst.loc
            else:
                new = copy_instruction(inst, lambda v: values.get(v, v), blocks.__getitem__)
            new_block.append(new)
            values[inst] = new
            pending.append((inst, new))
    for old, new in pending:
        if isinstance(old, Phi):
            assert isinstance(new, Phi)
            for v, b in old.incoming():
                new.add_incoming(values.get(v, v), blocks[b])
        else:  # an operand defined in a block laid out later than its use
            for k, op in enumerate(old.operands):
                if new.operands[k] is not values.get(op, op):
                    new.set_operand(k, values[op])
        if old.mask is not None:
            new.set_mask(values.get(old.mask, old.mask))
    return copy, values


def _block_like(block: Block) -> Block:
    new = Block(block.name)
    new.rarely_entered, new.usually_entered = block.rarely_entered, block.usually_entered
    return new


def clone_region(region: Region) -> Region:
    """A copy of ``region`` whose function and bindings a pipeline may change
    without touching ``region``; the callee bodies are shared (inlining
    copies them)."""
    fn, values = clone_function(region.fn)

    def arg(a: Argument) -> Argument:
        new = values[a]
        assert isinstance(new, Argument)
        return new

    args: list[ArgBinding] = [replace(b, arg=arg(b.arg)) for b in region.args]
    results: list[ResultBinding] = [
        replace(r, arg=arg(r.arg) if r.arg is not None else None) for r in region.results
    ]
    return replace(
        region,
        fn=fn,
        args=args,
        results=results,
        source_checks=list(region.source_checks),
        outer_bounds=list(region.outer_bounds),
        outer_loops=list(region.outer_loops),
    )
