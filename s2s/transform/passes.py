"""What a pass is and what it runs on; the pass manager is s2s/pipeline.py.

Every transform module exports one pass object, ``PASS``: its name (what
``--print-after`` takes), the function that runs it on a ``PassState``, the
analyses it requires (computed before it runs) and those it preserves (all
others are dropped after it), how what it returned tells whether it changed
the function at all (when it did not, every analysis is kept), and the
options it reads.  Analyses are asked for by their result type
(``state.get(DivergenceInfo)``, s2s.analysis.manager).
"""

from __future__ import annotations

from collections.abc import Callable, Sized
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

from ..analysis.manager import AnalysisCache
from ..analysis.shapes import VectorShape, region_arg_shapes
from ..ir.values import Argument, Function

if TYPE_CHECKING:
    from ..ir.region import CalleeBody, Region

T = TypeVar("T")

BOSCC_THRESHOLD = 16
"""A divergent arm weighing this much gets an all-false skip (one math call does)."""
REFILL_MIN_RATIO = 2.0
"""A trip of the refilled loop must weigh this many times what lane refill
adds (calibrated on the bench kernels, AVX-512: kdtree 2.2, xs_lookup 4.6
and the generalized-Born loop 3.3 gain; iterlog 0.7 and mandel 0.8 lose)."""


@dataclass
class PassOptions:
    """The options passes read (each pass names those it reads)."""

    boscc_threshold: int | None = BOSCC_THRESHOLD
    """Weight of a divergent arm that gets an all-false skip; None: no BOSCC
    and no all-true paths."""
    all_true: bool = True
    """Whether divergent arms may get all-true paths (transform.all_true)."""
    refill_gather_weight: int = 8
    """What an access of the refilled loop that was contiguous costs as a
    gather (the target's ``refill_gather_weight``)."""
    refill_min_ratio: float = REFILL_MIN_RATIO
    """``--refill-ratio``; 0: refill wherever the schedule can be built."""
    tail_stores: bool = False
    """Whether loops that store to memory get a masked last iteration too
    (transform.masked_tail; the target's ``masked_tail_stores``)."""
    uniform_arm_limit: int = 4
    """Instructions an arm of a uniform branch that chooses between vectors
    may hold to become a select (transform.speculate; the target's
    ``uniform_arm_limit``, 0: uniform branches stay branches)."""
    shadow_counters: bool = True
    """Whether a uniform counter live out of a divergent loop gets a per-lane
    copy (transform.divergent_loops; the target's ``shadow_counters``)."""


class Declined(Exception):
    """A pass that builds a variant of a region (masked tail, lane refill)
    finds the region has none: the variant is not made."""


def _is_list(x: object) -> TypeGuard[list[object]]:
    return isinstance(x, list)


@dataclass
class PassState:
    """The function being transformed, its region when it has one, and the
    analyses computed for it."""

    fn: Function
    arg_shapes: dict[Argument, VectorShape]
    """Shapes of the parameters (a loop region: iv strided, live-ins uniform)."""
    region: Region | None = None
    """The region ``fn`` belongs to (the passes that change its parameters
    need it; IR tests have none)."""
    callees: dict[str, CalleeBody] = field(default_factory=dict[str, "CalleeBody"])
    """Bodies the inline pass may clone in (Region.callees)."""
    options: PassOptions = field(default_factory=PassOptions)
    results: dict[str, object] = field(default_factory=dict[str, object])
    """What each pass returned (the report reads the BOSCC gadgets)."""
    analyses: AnalysisCache = field(init=False)

    def __post_init__(self) -> None:
        self.analyses = AnalysisCache(self.fn, self.arg_shapes)

    def results_of(self, name: str, kind: type[T]) -> list[T]:
        """The items of ``kind`` the pass ``name`` returned ([] when it did not run)."""
        found = self.results.get(name)
        if not _is_list(found):
            return []
        return [x for x in found if isinstance(x, kind)]

    @classmethod
    def of_region(cls, region: Region, options: PassOptions | None = None) -> PassState:
        return cls(
            region.fn, region_arg_shapes(region), region, region.callees, options or PassOptions()
        )

    def get(self, key: type[T]) -> T:
        """The analysis whose result has type ``key``, computed once."""
        return self.analyses.get(key)

    def region_changed(self) -> None:
        """A pass changed the region's parameters: shapes and analyses anew."""
        assert self.region is not None
        self.fn = self.region.fn
        self.arg_shapes = region_arg_shapes(self.region)
        self.analyses = AnalysisCache(self.fn, self.arg_shapes)


@dataclass(frozen=True)
class Pass:
    """One pass of the pipeline."""

    name: str
    run: Callable[[PassState], object]
    """Changes ``state.fn`` (or ``state.region``); what it returns is kept
    in ``state.results[name]``."""
    requires: tuple[type, ...] = ()
    """Analyses computed before the pass runs (by result type)."""
    preserves: tuple[type, ...] = ()
    """Analyses still valid after it; every other one is dropped."""
    changed: Callable[[Any], bool] | None = None
    """Given what ``run`` returned, whether the pass changed the function;
    when it did not, every analysis is still valid (LLVM's
    ``PreservedAnalyses::all()``).  None: it may always have."""
    options: tuple[str, ...] = ()
    """The PassOptions fields it reads."""
    changes_region: bool = False
    """It changes the region's parameters or results (needs ``state.region``)."""
    declines: Callable[[Region], bool] | None = None
    """A variant's pass (it raises Declined): whether it declines the
    region as lowered whatever the passes before it do; the variant's
    pipeline is then not run at all."""


def did_any(result: int | Sized) -> bool:
    """``Pass.changed`` of a pass that returns how many changes it made, or
    the list of them."""
    return bool(result)
