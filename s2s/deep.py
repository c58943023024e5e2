"""Run a computation with room for deep recursion.

C expressions nest as deeply as the user writes them: a 10,000-term sum
``a[i] + a[i] + ...`` is a left-leaning tree 10,000 operators deep (twice
that with clang's implicit casts), and 5,000 nested parentheses are as deep.
Every walker of s2svec (libclang cursor walks, lowering, the analyses, code
generation) is naturally recursive over that tree.  Rather than rewrite each
one iteratively, the whole file is processed in a worker thread with a large
stack and a recursion limit to match, so that the depth gcc accepts is the
depth s2svec accepts.

Python 3.11 keeps pure-Python calls off the C stack, but calls through C
(``all(generator)``, ctypes callbacks) use it, and so does libclang, which
parses on this thread too (``parse._parse_on_this_thread``); 1 GiB of
(lazily committed) stack holds 100,000 nested parentheses, where gcc itself
gives up near 50,000.  Walkers that would take time proportional to the
depth at every level are iterative or memoized instead (``walk_preorder``,
``_constant_tree``).

``DEPTH_LIMIT`` is the Python recursion limit in the worker; an input deeper
than that fails with ``RecursionError`` (or a ``ctypes.ArgumentError``
wrapping it, see ``is_too_deep``), which the lowering and the pipeline turn
into an "expression nested too deeply" / "loop nested too deeply" warning:
the loop stays scalar.  libclang's child visitor swallows exceptions raised in
its Python callback; ``lower_clang.children`` notices the early stop and the
hook installed here keeps the swallowed one off stderr.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

STACK_BYTES = 1 << 30
"""Stack of the worker thread (virtual: pages are committed on use)."""
DEPTH_LIMIT = 1_000_000
"""Python recursion limit inside the worker thread."""


def call_with_deep_stack(fn: Callable[..., T], *args: object, **kwargs: object) -> T:
    """``fn(*args, **kwargs)`` in a thread with a large stack; returns its
    result or re-raises its exception (KeyboardInterrupt included)."""
    if in_deep_stack():
        return fn(*args, **kwargs)  # already in a deep-stack worker
    value: list[T] = []
    error: list[BaseException] = []

    def work() -> None:
        _state.inside = _state.quiet = True
        try:
            value.append(_profiled(fn, *args, **kwargs))
        except BaseException as exc:  # re-raised in the caller's thread
            error.append(exc)

    old_size = threading.stack_size()
    old_limit = sys.getrecursionlimit()
    old_hook = sys.unraisablehook
    sys.setrecursionlimit(max(old_limit, DEPTH_LIMIT))
    sys.unraisablehook = _quiet_recursion_in_callbacks(old_hook)
    try:
        try:
            threading.stack_size(STACK_BYTES)
            worker = threading.Thread(target=work, name="s2svec-deep", daemon=True)
            worker.start()
        except (RuntimeError, ValueError, MemoryError):
            worker = None  # no such thread here (ulimit -v, no stack_size support)
        finally:
            threading.stack_size(old_size)
        if worker is None:
            # The normal stack: keep the normal limit, so that deep input
            # ends in the "nested too deeply" warnings, not a stack overflow.
            sys.setrecursionlimit(old_limit)
            _state.quiet = True
            try:
                return fn(*args, **kwargs)
            finally:
                _state.quiet = False
        worker.join()
    finally:
        sys.setrecursionlimit(old_limit)
        sys.unraisablehook = old_hook
    if error:
        raise error[0]
    return value[0]


def _profiled(fn: Callable[..., T], *args: object, **kwargs: object) -> T:
    """``fn(*args, **kwargs)``, profiled into the file that ``S2S_PROFILE``
    names when it is set (the work runs on this thread, where a profiler
    started in the main thread sees nothing): ``S2S_PROFILE=p.prof
    s2svec ...`` then ``python -m pstats p.prof``."""
    target = os.environ.get("S2S_PROFILE")
    if not target:
        return fn(*args, **kwargs)
    import cProfile  # only when profiling

    profile = cProfile.Profile()
    try:
        return profile.runcall(fn, *args, **kwargs)
    finally:
        profile.dump_stats(target)


def deep_stack(fn: Callable[..., T]) -> Callable[..., T]:
    """Decorator: every call of ``fn`` runs under ``call_with_deep_stack``."""

    @functools.wraps(fn)
    def wrapper(*args: object, **kwargs: object) -> T:
        return call_with_deep_stack(fn, *args, **kwargs)

    return wrapper


def _quiet_recursion_in_callbacks(previous: Callable[[Any], object]) -> Callable[[Any], object]:
    """An unraisable-exception hook that drops ``RecursionError`` raised in a
    ctypes callback of the worker (libclang's child visitor at the recursion
    limit): the walk stops early, ``lower_clang.children`` notices and raises
    it again where it can be reported as a warning.  Anything else goes to
    ``previous``."""

    def hook(unraisable: Any) -> object:
        if getattr(_state, "quiet", False) and isinstance(unraisable.exc_value, RecursionError):
            return None
        return previous(unraisable)

    return hook


def is_too_deep(exc: BaseException) -> bool:
    """Whether an exception means "recursion limit reached".  At the limit
    a ctypes call (every libclang query) fails with ``ctypes.ArgumentError``
    wrapping the ``RecursionError`` raised while converting its arguments."""
    if isinstance(exc, RecursionError):
        return True
    return isinstance(exc, ctypes.ArgumentError) and "RecursionError" in str(exc)


def in_deep_stack() -> bool:
    """Whether the calling thread is a ``call_with_deep_stack`` worker."""
    return bool(getattr(_state, "inside", False))


_state = threading.local()
