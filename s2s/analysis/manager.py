"""Analyses cached by result type, for the pass manager (s2s/pipeline.py).

A pass asks for an analysis by the type of its result
(``cache.get(DivergenceInfo)``); it is computed once and kept until a pass
that does not preserve it runs (``keep``).  An analysis computed from
another one is dropped with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Iterable
from contextlib import contextmanager
from typing import Any, TypeVar

from ..diagnostics import internal_error
from ..ir.values import Argument, Function
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
