"""The OpenMP SIMD clause model: what one ``#pragma omp`` line asks for.

``ClauseSet`` is what the front end's parser (s2s.frontend.clauses) makes of
a pragma and what the rest of s2svec reads: a ``Region`` carries its
loop's (or function's) clauses, the pipeline and the code generator read
simdlen, safelen, private, ``if(simd:)`` and the worksharing clauses, and
the Vector Function ABI (s2s.vfabi) reads uniform, linear and aligned.
Plain data, at the IR's layer, so that every layer may read it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..diagnostics import Location, Unsupported
from .types import FloatType, IntType, Type

LOOP_DIRECTIVES = (
    "simd",
    "for simd",
    "parallel for simd",
    # combined and composite constructs with simd (OpenMP 5.2, 17.1): the
    # simd part is s2svec's, the constructs before it stay as they are
    "distribute simd",
    "distribute parallel for simd",
    "teams distribute simd",
    "teams distribute parallel for simd",
    "target simd",
    "target parallel for simd",
    "target teams distribute simd",
    "target teams distribute parallel for simd",
    "taskloop simd",
    "master taskloop simd",
    "masked taskloop simd",
    "parallel master taskloop simd",
    "parallel masked taskloop simd",
)
DIRECTIVES = LOOP_DIRECTIVES + ("declare simd",)

LOOP_LEAVES = ("for", "distribute", "taskloop")
"""Leaf constructs that split a loop's iterations: the kept part of a
combined construct that ends in one of them goes on the loop over vector
blocks; ``target simd`` keeps ``target`` around the whole vector code."""

REDUCTION_OPS = ("+", "*", "-", "min", "max", "&", "|", "^", "&&", "||")


def reduction_identity(op: str, t: Type) -> int | float:
    """The identity of the reduction ``op`` (one of ``REDUCTION_OPS``) for
    values of type t (``&``: -1, all bits set once wrapped to t)."""
    if op in ("+", "-", "|", "^", "||"):
        return 0
    if op in ("*", "&&"):
        return 1
    if op == "&":
        return -1
    if op in ("min", "max") and isinstance(t, FloatType):
        return math.inf if op == "min" else -math.inf
    if op in ("min", "max") and isinstance(t, IntType):
        if t.signed:
            return (1 << (t.bits - 1)) - 1 if op == "min" else -(1 << (t.bits - 1))
        return (1 << t.bits) - 1 if op == "min" else 0
    raise ValueError(f"no identity for the reduction '{op}' of {t}")


@dataclass
class Linear:
    var: str
    step: int | str = 1
    """The step: an int when constant, else the text (a uniform parameter
    for declare simd, a loop-invariant expression for loops)."""
    modifier: str = ""
    """``""``, ``"ref"``, ``"val"`` or ``"uval"`` (declare simd only)."""


@dataclass
class Reduction:
    op: str
    """One of ``REDUCTION_OPS``, or the name of a ``declare reduction``."""
    var: str
    inscan: bool = False
    """``reduction(inscan, op: var)``: the loop's ``#pragma omp scan``
    computes var's prefix (s2s/frontend/scan.py)."""


@dataclass(frozen=True)
class UserReduction:
    """A ``#pragma omp declare reduction(name : types : combiner)
    [initializer(...)]`` of the file: the C text of its parts."""

    name: str
    types: tuple[str, ...]
    """The type names it is declared for, as written (``unsigned int``)."""
    combiner: str
    """An expression of ``omp_out`` and ``omp_in`` that leaves their
    combination in ``omp_out``."""
    initializer: str
    """``omp_priv = e`` or a call that sets ``omp_priv`` through its address
    (may read ``omp_orig``); "" for none (a private copy starts as 0)."""
    location: Location


@dataclass
class Aligned:
    var: str
    alignment: int | None = None
    """Bytes (a power of two), None for the target's default."""


@dataclass(frozen=True)
class VarRef:
    """A variable named in a clause, where it is written."""

    clause: str
    name: str
    location: Location


@dataclass(frozen=True)
class Token:
    text: str
    location: Location
    space_before: bool = False
    """Whitespace (or a comment) preceded the token: used to rebuild text."""


@dataclass
class ClauseSet:
    directive: str
    """One of ``DIRECTIVES``."""
    location: Location
    """Where the pragma starts (its ``#``)."""
    simdlen: int | None = None
    safelen: int | None = None
    collapse: int = 1
    linear: list[Linear] = field(default_factory=list[Linear])
    aligned: list[Aligned] = field(default_factory=list[Aligned])
    reductions: list[Reduction] = field(default_factory=list[Reduction])
    user_reductions: list[UserReduction] = field(default_factory=list[UserReduction])
    """The file's ``declare reduction`` pragmas before the pragma that its
    reductions name (s2s.frontend.pragmas)."""
    private: list[str] = field(default_factory=list[str])
    lastprivate: list[str] = field(default_factory=list[str])
    lastprivate_conditional: list[str] = field(default_factory=list[str])
    """The subset of ``lastprivate`` written ``lastprivate(conditional: x)``:
    the value of the last iteration that *assigned* x, not of the last one."""
    nontemporal: list[str] = field(default_factory=list[str])
    if_simd: str | None = None
    """C expression text of ``if(simd: e)`` / ``if(e)``."""
    order_concurrent: bool = False
    uniform: list[str] = field(default_factory=list[str])
    inbranch: bool | None = None
    """True for inbranch, False for notinbranch, None when neither is given."""
    other: str = ""
    """The clauses of the kept constructs (``kept``), verbatim: those of
    ``for simd`` / ``parallel for simd`` and of the combined constructs
    (``map``, ``num_teams``, ``grainsize``, ...), simd's clauses that they
    also take (``private``, ``reduction``, ...)."""
    other_clauses: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    """The clauses of ``other`` one by one: (name, verbatim text)."""
    firstprivate: list[str] = field(default_factory=list[str])
    """The variables of the kept ``firstprivate`` clauses."""
    mapped: list[str] = field(default_factory=list[str])
    """The variables the kept ``map`` clauses name (base names), and those
    of ``in_reduction`` (a target construct maps them itself: gcc rejects
    a ``map`` of them besides)."""
    teams_clauses: list[str] = field(default_factory=list[str])
    """``teams distribute ...``: the clauses of ``teams`` should it be
    written apart from the rest (``teams_in_target``)."""
    inner_clauses: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    """... and those of ``distribute [parallel for]`` (name, text)."""
    teams_in_target: bool = False
    """The ``teams ... simd`` construct is nested in a target construct,
    which must hold nothing else: the vector code goes into the teams
    region, on ``distribute [parallel for]`` written apart."""
    grainsize: tuple[str, str] | None = None
    """``taskloop``'s ``grainsize``: (modifier or "", expression text)."""
    unsupported: list[Unsupported] = field(default_factory=list[Unsupported])
    """Valid OpenMP s2svec does not implement here: the loop stays scalar and
    the first is its warning."""
    notes: list[Unsupported] = field(default_factory=list[Unsupported])
    """Warnings that do not keep the loop scalar."""
    variables: list[VarRef] = field(default_factory=list[VarRef])
    """Every variable a clause names, in clause order."""
    expressions: list[tuple[str, list[Token]]] = field(
        default_factory=list[tuple[str, list[Token]]]
    )
    """(clause, tokens) of clause expressions: ``if`` conditions and linear
    steps that are not constants."""

    @property
    def is_loop(self) -> bool:
        return self.directive in LOOP_DIRECTIVES

    @property
    def kept(self) -> str:
        """The directive without ``simd`` (``target teams distribute``,
        ``parallel for``; ``""`` for ``simd`` and ``declare simd``): the
        constructs that stay in the output."""
        return self.directive[: -len(" simd")] if self.is_loop else ""

    @property
    def worksharing(self) -> str:
        """The kept constructs when they split the loop's iterations (the
        last is ``for``, ``distribute`` or ``taskloop``): they go on the
        loop over vector blocks; ``""`` otherwise."""
        kept = self.kept
        return kept if kept.split()[-1:] and kept.split()[-1] in LOOP_LEAVES else ""

    @property
    def combined(self) -> bool:
        """A combined construct other than ``for simd`` / ``parallel for
        simd`` (whose kept part is placed as before)."""
        return self.kept not in ("", "for", "parallel for")
