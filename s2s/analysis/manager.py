"""Analyses cached by result type, for the pass manager (s2s/pipeline.py).

A pass asks for an analysis by the type of its result
(``cache.get(DivergenceInfo)``); it is computed once and kept until a pass
that does not preserve it runs (``keep``).  An analysis computed from
another one is dropped with it.  ``stale`` computes every cached analysis
anew and names those that differ: a pass that claims to preserve an
analysis it changed (the pass manager asks after every pass with
``S2S_VERIFY_EACH=1``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar, cast

from ..diagnostics import internal_error
from ..ir.values import Argument, Function
from .cfg import Graph
from .divergence import DivergenceInfo, compute_divergence
from .memory import MemoryAccesses, memory_shapes
from .records import RecordInfo, compute_record_groups
from .shapes import VectorShape

T = TypeVar("T")


class AnalysisCache:
    """The analyses of one function with given parameter shapes."""

    def __init__(self, fn: Function, arg_shapes: dict[Argument, VectorShape]) -> None:
        self.fn = fn
        self.arg_shapes = arg_shapes
        self._results: dict[type, Any] = {}
        self.computed: Counter[type] = Counter()
        """How often each analysis was computed (tests of invalidation)."""
        self._allowed: frozenset[type] | None = None

    def get(self, key: type[T]) -> T:
        if self._allowed is not None and key not in self._allowed:
            raise internal_error(f"a pass read the analysis {key.__name__} it does not require")
        if key not in self._results:
            compute, _ = ANALYSES[key]
            self._results[key] = compute(self)
            self.computed[key] += 1
        return self._results[key]

    @contextmanager
    def only(self, keys: Iterable[type]) -> Generator[None, None, None]:
        """While a pass runs: it may read the analyses it requires, no other."""
        self._allowed = frozenset(keys)
        try:
            yield
        finally:
            self._allowed = None

    def cached(self, key: type) -> bool:
        return key in self._results

    def keep(self, preserved: Iterable[type]) -> None:
        """Drop every analysis but those ``preserved`` whose inputs are kept too."""
        kept = set(preserved)
        for key in list(self._results):
            if key not in kept or any(dep not in kept for dep in ANALYSES[key][1]):
                del self._results[key]

    def stale(self) -> list[type]:
        """The cached analyses that, computed anew on the function as it is
        now, come out otherwise (nothing is cached or counted)."""
        fresh = AnalysisCache(self.fn, self.arg_shapes)
        stale: list[type] = []
        for key, kept in self._results.items():
            anew = fresh.get(cast(type[object], key))
            if not same(kept, anew):
                stale.append(key)
        return stale


def same(a: object, b: object) -> bool:
    """Whether two results of an analysis say the same: IR values, blocks
    and types by identity or equality, graphs by their edges, the results'
    own records (dataclasses), mappings and sequences item by item."""
    if isinstance(a, Graph):
        if not isinstance(b, Graph):
            return False
        ga, gb = cast(Graph[object], a), cast(Graph[object], b)
        return ga.entry is gb.entry and ga.nodes == gb.nodes and ga.succs == gb.succs
    if type(a) is not type(b):
        return False
    if is_dataclass(a) and not isinstance(a, type):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if isinstance(a, Mapping):
        ma, mb = cast(Mapping[object, object], a), cast(Mapping[object, object], b)
        return ma.keys() == mb.keys() and all(same(v, mb[k]) for k, v in ma.items())
    if isinstance(a, (list, tuple)):
        sa, sb = cast(Sequence[object], a), cast(Sequence[object], b)
        return len(sa) == len(sb) and all(same(x, y) for x, y in zip(sa, sb))
    return a == b


def _divergence(cache: AnalysisCache) -> DivergenceInfo:
    return compute_divergence(cache.fn, cache.arg_shapes)


def _memory(cache: AnalysisCache) -> MemoryAccesses:
    return memory_shapes(cache.fn, cache.get(DivergenceInfo))


def _records(cache: AnalysisCache) -> RecordInfo:
    return compute_record_groups(cache.fn, cache.get(DivergenceInfo), cache.get(MemoryAccesses))


ANALYSES: dict[type, tuple[Callable[[AnalysisCache], Any], tuple[type, ...]]] = {
    DivergenceInfo: (_divergence, ()),
    MemoryAccesses: (_memory, (DivergenceInfo,)),
    RecordInfo: (_records, (DivergenceInfo, MemoryAccesses)),
}
"""Result type -> (how it is computed, the analyses it reads)."""
