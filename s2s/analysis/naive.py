"""A deliberately naive divergence analysis, the baseline for precision tests.

"Absolute uniformity" (seed 001 Section 7.5): every value defined in a block
that is transitively control dependent on a divergent branch is varying, a
phi is varying when one of its predecessors is, and a loop is divergent with
all its exits as soon as a divergent branch controls one of its exiting
blocks.  It uses the same instruction transformers as the real analysis, so
differences come from control divergence only.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..diagnostics import internal_error
from ..ir.values import Argument, Block, Function, Phi, Store, Terminator
from .cfg import cfg_of
from .divergence import DivergenceInfo, DivergenceSolver
from .shapes import VectorShape


class _NaiveSolver(DivergenceSolver):
    def propagate_control_divergence(self, s: Block) -> None:
        region = self._transitive_dependents(s)
        for b in region:
            for inst in b.instructions:
                if not isinstance(inst, (Terminator, Store)):
                    self.forced.add(inst)
                    self.enqueue(inst)
        preds = self.cfg.preds
        joins = {b for b in self.cfg.rpo if any(p in region for p in preds[b])} - region
        self.branch_joins[s] = sorted(joins, key=self.cfg.block_index.__getitem__)
        self.sync |= joins | region
        lp = self.cfg.loops.loop_of(s)
        while lp is not None:
            if any(b in region or b is s for b in lp.exiting):
                self.add_divergent_exits(lp, list(lp.exits))
            lp = lp.parent
        for b in self.sync:
            for phi in b.phis:
                self.enqueue(phi)

    def _transitive_dependents(self, s: Block) -> set[Block]:
        out: set[Block] = set()
        work = [s]
        seen: set[Block] = set()
        while work:
            b = work.pop()
            if b in seen:
                continue
            seen.add(b)
            for dep in self.cfg.control_dependents(b):
                out.add(dep)
                work.append(dep)
        return out

    def phi_shape(self, phi: Phi) -> VectorShape:
        if phi.block in self.sync:
            return VectorShape.varying()
        return super().phi_shape(phi)


def run_naive(
    fn: Function, arg_shapes: Mapping[Argument, VectorShape], width: int | None
) -> DivergenceInfo:
    g = cfg_of(fn)
    if not g.is_reducible:
        raise internal_error("irreducible control flow reached the naive divergence analysis")
    solver = _NaiveSolver(fn, g, arg_shapes, width)
    solver.run()
    return solver.result()


def naive_divergence(
    fn: Function, arg_shapes: Mapping[Argument, VectorShape], *, width: int | None = None
) -> DivergenceInfo:
    """A baseline for precision comparisons: every value defined in a block
    that is (transitively) control dependent on a divergent branch, every phi
    with such a predecessor, and every value live out of a loop with a
    divergent branch inside is varying ("absolute uniformity", seed 001 7.5)."""
    return run_naive(fn, arg_shapes, width)
